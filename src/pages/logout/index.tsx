// Logout (SPEC §2): revoke the refresh-token family on the server without waiting for the answer (a slow
// network must not keep the student here), clear ALL local storage, go to /login.
import { useLayoutEffect } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { api, client } from '../../api/calls.ts'
import { session } from '../../stores/session.ts'
import { PageSpinner } from '../../components/spinner/index.tsx'

export default function Logout() {
  const { route } = useLocation()
  useLayoutEffect(() => {
    const refreshToken = client.refreshToken()
    // keepalive lets the request finish even if the page goes away; its outcome changes nothing here.
    if (refreshToken) api.logout(refreshToken).catch(() => {})
    localStorage.clear() // tokens and the last known answers (src/api/last-known.ts)
    // The service worker's pictures (the student's photo, their tickets' events); the app shell is not personal.
    if (typeof caches !== 'undefined') caches.delete('images').catch(() => {})
    session.reset()
    route('/login', true)
  }, [])
  return <PageSpinner label="Signing out" />
}
