// Logout (SPEC §2): revoke the refresh-token family on the server without waiting for the answer (a slow
// network must not keep the student here), clear ALL local storage, go to /login.
import { useLayoutEffect } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { buildSignOut } from '../../stores/session-flows.ts'
import { room } from '../../models.ts'
import { PageSpinner } from '../../components/spinner/index.tsx'

const signOut = room(buildSignOut)

export default function Logout() {
  const { route } = useLocation()
  useLayoutEffect(() => {
    signOut()
    route('/login', true)
  }, [])
  return <PageSpinner label="Signing out" />
}
