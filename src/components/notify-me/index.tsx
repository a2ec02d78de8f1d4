// "Notify me" (issue 13): the only place the app asks for notification permission, after the student's tap.
// On an iPhone browser tab it says the app must be installed first; denied permission says where to change it.
// It renders what the page passes (the push model of stores/push.ts): a component reads no store itself.
import type { ReadonlySignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import type { PushStatus } from '../../stores/push.ts'
import { showToast } from '../toast/index.tsx'

export const IOS_INSTALL = 'On iPhone and iPad, notifications need the app installed: tap Share, then Add to Home Screen, and open it from there.'

/** What the button needs of push notifications on this phone. */
export interface PushControls {
  status: ReadonlySignal<PushStatus>
  check(): Promise<void>
  enable(): Promise<PushStatus>
  disable(): Promise<void>
}

export function NotifyMe({ push, what = 'when tickets open and when a ticket is held for you' }: { push: PushControls; what?: string }) {
  useEffect(() => void push.check().catch(() => {}), [push])
  const status = push.status.value
  if (status === 'unsupported') return null
  if (status === 'ios-install') return <p class="notify-me-note">{IOS_INSTALL}</p>
  if (status === 'denied')
    return <p class="notify-me-note">Notifications are blocked for this site. Allow them in your browser’s settings to be told {what}.</p>
  const on = status === 'on'
  const toggle = async () => {
    try {
      if (on) {
        await push.disable()
        showToast('Notifications off')
      } else if ((await push.enable()) === 'on') showToast('We will notify you')
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
