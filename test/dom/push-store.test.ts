// "Notify me" on a shared browser (issue 21 item 4): the server keeps an endpoint with the student who subscribed it
// and answers 409 to anyone else, so a second student signing in on the same browser gets a subscription of their
// own: the store drops the browser's old subscription and sends a new one. Any other refusal is the student's to see.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { aroundApi } from '../../src/api/around-calls.ts'
import { PushModel, type Push } from '../../src/stores/push.ts'
import { fakeServer } from './session-fakes.ts'

const KEY = `BP${'A'.repeat(85)}`
const TAKEN = 'These notifications are registered to another account on this browser. Turn notifications off and on again.'

/** A browser's push manager holding `held`; each subscribe() makes a new endpoint. */
function browser(held: string | null) {
  let n = 0
  const subscription = (endpoint: string) => ({
    endpoint,
    toJSON: () => ({ endpoint, keys: { p256dh: 'BPkey', auth: 'authkey' } }),
    unsubscribe: vi.fn(async () => true),
  })
  const current = held ? subscription(held) : null
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async () => subscription(`https://push.example/new-${++n}`)),
  }
  vi.stubGlobal('navigator', { ...navigator, serviceWorker: { ready: Promise.resolve({ pushManager }) } })
  vi.stubGlobal('Notification', { permission: 'granted', requestPermission: async () => 'granted' })
  vi.stubGlobal('PushManager', class {})
  return { pushManager, current }
}

describe('push.enable', () => {
  // A model per test, on the app's real calls (the fake server answers at fetch): no state carried between tests.
  let push: Push
  beforeEach(() => {
    localStorage.setItem('accessToken', 'token')
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    localStorage.clear()
  })

  it('the browser’s subscription is another student’s (409): it is dropped and a new one is sent', async () => {
    const { pushManager, current } = browser('https://push.example/old')
    const server = fakeServer({
      '/push/key': () => [200, { error: false, publicKey: KEY }],
      '/push/p/subscribe': (body) =>
        body.subscription.endpoint === 'https://push.example/old' ? [409, { error: true, message: TAKEN }] : [200, { error: false }],
    })
    push = new PushModel(aroundApi)
    expect(await push.enable()).toBe('on')
    expect(current!.unsubscribe).toHaveBeenCalledOnce()
    expect(pushManager.subscribe).toHaveBeenCalledOnce()
    expect(server.calls('/push/p/subscribe').map((r) => r.body.subscription.endpoint)).toEqual(['https://push.example/old', 'https://push.example/new-1'])
  })

  it('any other refusal is not retried, and the status goes back', async () => {
    const { current } = browser('https://push.example/old')
    fakeServer({
      '/push/key': () => [200, { error: false, publicKey: KEY }],
      '/push/p/subscribe': () => [400, { error: true, message: 'endpoint must be the https address of a push service on the internet' }],
    })
    push = new PushModel(aroundApi)
    await expect(push.enable()).rejects.toThrow('endpoint must be')
    expect(current!.unsubscribe).not.toHaveBeenCalled()
    expect(push.status.value).toBe('off')
  })
})
