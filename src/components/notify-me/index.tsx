// "Notify me" (issue 13): the only place the app asks for notification permission, after the student's tap.
// On an iPhone browser tab it says the app must be installed first; denied permission says where to change it.
import { useEffect } from 'preact/hooks'
import { checkPush, disablePush, enablePush, IOS_INSTALL, pushStatus } from '../../stores/push.ts'
import { showToast } from '../toast/index.tsx'

export function NotifyMe({ what = 'when tickets open and when a ticket is held for you' }: { what?: string }) {
  useEffect(() => void checkPush().catch(() => {}), [])
  const status = pushStatus.value
  if (status === 'unsupported') return null
  if (status === 'ios-install') return <p class="notify-me-note">{IOS_INSTALL}</p>
  if (status === 'denied')
    return <p class="notify-me-note">Notifications are blocked for this site. Allow them in your browser’s settings to be told {what}.</p>
  const on = status === 'on'
  const toggle = async () => {
    try {
      if (on) {
        await disablePush()
        showToast('Notifications off')
      } else if ((await enablePush()) === 'on') showToast('We will notify you')
    } catch {
      showToast('Could not turn on notifications. Please try again.', 'error')
    }
  }
  return (
    <button type="button" class="button button-secondary" aria-pressed={on} disabled={status === 'busy'} onClick={toggle}>
      {on ? 'Notifications on: turn off' : 'Notify me'}
    </button>
  )
}
