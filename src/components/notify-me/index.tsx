// "Notify me" (issue 13): the only place the app asks for notification permission, after the student's tap.
// A phone that cannot take notifications is told why, in words (issue 37 item 2): on an iPhone browser tab the app
// must be installed first; a browser without push (an in-app browser, a private window, an old one) cannot; denied
// permission says where to change it; a push service that refuses says so. Messages reach the inbox in any case.
// It renders what the page passes (the push model, `room(buildPush)` of stores/push.ts): a component reads no store itself.
import type { ReadonlySignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import type { PushStatus } from '../../stores/push.ts'
import { showToast } from '../toast/index.tsx'

export const IOS_INSTALL = 'On iPhone and iPad, notifications need the app installed: tap Share, then Add to Home Screen, and open it from there.'
const IN_INBOX = 'Your messages still arrive in the Inbox (the bell at the top).'
export const UNSUPPORTED = `This browser cannot show notifications: an app’s built-in browser, a private window or an older browser cannot. Open the app in Chrome, Edge, Firefox or Safari to be notified. ${IN_INBOX}`
export const PUSH_REFUSED = `This phone’s push service did not take the subscription, so notifications stay off. ${IN_INBOX}`

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
  if (status === 'unsupported') return <p class="notify-me-note">{UNSUPPORTED}</p>
  if (status === 'ios-install') return <p class="notify-me-note">{IOS_INSTALL}</p>
  if (status === 'denied')
    return (
      <p class="notify-me-note">
        Notifications are blocked for this site. Allow them in your browser’s settings to be told {what}. {IN_INBOX}
      </p>
    )
  const on = status === 'on'
  const toggle = async () => {
    try {
      if (on) {
        await push.disable()
        showToast('Notifications off')
      } else if ((await push.enable()) === 'on') showToast('We will notify you')
    } catch (err) {
      // The server's refusal or no connection (an ApiError, with a status) may pass on a retry; the browser's push
      // service refusing (an AbortError, say, where a phone has no push service) will not.
      showToast(typeof (err as { status?: unknown }).status === 'number' ? 'Could not turn on notifications. Please try again.' : PUSH_REFUSED, 'error')
    }
  }
  return (
    <button type="button" class="button button-secondary" aria-pressed={on} disabled={status === 'busy'} onClick={toggle}>
      {on ? 'Notifications on: turn off' : 'Notify me'}
    </button>
  )
}
