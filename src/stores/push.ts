// Push notifications on this phone (issue 13): asks for permission only when the student taps "Notify me",
// subscribes with the server's VAPID key and sends the subscription to the server. Imported only by lazy screens
// (event details, profile), never on the start path.
import { signal } from '@preact/signals'
import { aroundApi as api } from '../api/around-calls.ts'

export type PushStatus = 'unsupported' | 'ios-install' | 'off' | 'on' | 'denied' | 'busy'

export const IOS_INSTALL = 'On iPhone and iPad, notifications need the app installed: tap Share, then Add to Home Screen, and open it from there.'

function isIosBrowserTab(): boolean {
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1)
  const standalone = matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true
  return ios && !standalone
}

function initial(): PushStatus {
  if (typeof window === 'undefined') return 'unsupported'
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return isIosBrowserTab() ? 'ios-install' : 'unsupported'
  if (Notification.permission === 'denied') return 'denied'
  return 'off'
}

export const pushStatus = signal<PushStatus>(initial())

/** Whether this browser already holds a subscription (then "Notify me" shows as on). */
export async function checkPush(): Promise<void> {
  if (pushStatus.value !== 'off' || Notification.permission !== 'granted') return
  const registration = await navigator.serviceWorker.getRegistration()
  const sub = await registration?.pushManager.getSubscription()
  if (sub) pushStatus.value = 'on'
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4))
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

/** After the student's tap: permission, subscription, and the server told. Answers the status reached. */
export async function enablePush(): Promise<PushStatus> {
  const before = pushStatus.value
  if (before === 'unsupported' || before === 'ios-install') return before
  pushStatus.value = 'busy'
  try {
    const permission = await Notification.requestPermission()
    if (permission !== 'granted') return (pushStatus.value = permission === 'denied' ? 'denied' : 'off')
    const registration = await navigator.serviceWorker.ready
    const key = await api.pushKey()
    const fresh = () => registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) })
    const send = (sub: PushSubscription) => {
      const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } }
      return api.pushSubscribe({ endpoint: json.endpoint, keys: json.keys })
    }
    const held = await registration.pushManager.getSubscription()
    try {
      await send(held ?? (await fresh()))
    } catch (err) {
      // 409: this browser's subscription belongs to another student who signed in here before (a shared browser).
      // It stays theirs on the server; this student gets a subscription of their own.
      if (!held || (err as { status?: number }).status !== 409) throw err
      await held.unsubscribe()
      await send(await fresh())
    }
    return (pushStatus.value = 'on')
  } catch (err) {
    console.error('push subscription failed', err)
    pushStatus.value = before
    throw err
  }
}

/** Stops notifications on this phone. */
export async function disablePush(): Promise<void> {
  pushStatus.value = 'busy'
  try {
    const registration = await navigator.serviceWorker.getRegistration()
    const sub = await registration?.pushManager.getSubscription()
    if (sub) {
      await api.pushUnsubscribe(sub.endpoint).catch((err) => console.error('push unsubscribe failed', err))
      await sub.unsubscribe()
    }
  } finally {
    pushStatus.value = 'off'
  }
}
