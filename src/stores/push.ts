// Push notifications on this phone (issue 13): asks for permission only when the student taps "Notify me",
// subscribes with the server's VAPID key and sends the subscription to the server. Imported only by lazy screens
// (event details, profile), never on the start path. The "Notify me" button (components/notify-me) shows it.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import { aroundApi } from '../api/around-calls.ts'

export type PushStatus = 'unsupported' | 'ios-install' | 'off' | 'on' | 'denied' | 'busy'

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

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4))
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

/** The calls the model makes (aroundApi's; a test passes its own). */
export type PushCalls = Pick<typeof aroundApi, 'pushKey' | 'pushSubscribe' | 'pushUnsubscribe'>

export const PushModel = createModel((api: PushCalls) => {
  const status = signal<PushStatus>(initial())

  /** Whether this browser already holds a subscription (then "Notify me" shows as on). */
  async function check(): Promise<void> {
    if (status.value !== 'off' || Notification.permission !== 'granted') return
    const registration = await navigator.serviceWorker.getRegistration()
    const sub = await registration?.pushManager.getSubscription()
    if (sub) status.value = 'on'
  }

  /** After the student's tap: permission, subscription, and the server told. Answers the status reached. */
  async function enable(): Promise<PushStatus> {
    const before = status.value
    if (before === 'unsupported' || before === 'ios-install') return before
    status.value = 'busy'
    try {
      const permission = await Notification.requestPermission()
      if (permission !== 'granted') return (status.value = permission === 'denied' ? 'denied' : 'off')
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
      return (status.value = 'on')
    } catch (err) {
      console.error('push subscription failed', err)
      status.value = before
      throw err
    }
  }

  /** Stops notifications on this phone. */
  async function disable(): Promise<void> {
    status.value = 'busy'
    try {
      const registration = await navigator.serviceWorker.getRegistration()
      const sub = await registration?.pushManager.getSubscription()
      if (sub) {
        await api.pushUnsubscribe(sub.endpoint).catch((err) => console.error('push unsubscribe failed', err))
        await sub.unsubscribe()
      }
    } finally {
      status.value = 'off'
    }
  }

  return {
    status: status as ReadonlySignal<PushStatus>,
    check: action(check),
    enable: action(enable),
    disable: action(disable),
  }
})

export type Push = InstanceType<typeof PushModel>

/** This phone's notifications (`room(buildPush)`): one model for every screen that shows "Notify me". */
export const buildPush = (): Push => new PushModel(aroundApi)
