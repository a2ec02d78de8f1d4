// Sends the outbox's notifications (server/db/push.ts) with Web Push: the payload encrypted (RFC 8291,
// aes128gcm) and signed (VAPID) by the web-push library, posted with fetch. Runs in the push tick, off every
// request's path. A subscription the push service answers 404 or 410 for is gone and is deleted.
import webpush from 'web-push'
import type { OutboxItem, PushRepository, Subscription } from '../db/push.ts'
import type { Vapid } from './vapid.ts'

/** What the service worker reads (src/sw.ts). */
export interface PushPayload {
  title: string
  body: string
  url: string
  tag?: string
}

export interface SendOptions {
  /** Only https push services (production): a subscription naming anything else is dropped. */
  httpsOnly: boolean
  timeoutMs?: number
  log?: (msg: string, err?: unknown) => void
}

export function pushSender(repo: PushRepository, vapid: Vapid, options: SendOptions) {
  async function sendOne(sub: Subscription, payload: PushPayload): Promise<'sent' | 'gone' | 'failed'> {
    if (options.httpsOnly && !sub.endpoint.startsWith('https:')) return 'gone'
    let details: ReturnType<typeof webpush.generateRequestDetails>
    try {
      details = webpush.generateRequestDetails(sub, JSON.stringify(payload), {
        vapidDetails: vapid,
        TTL: 24 * 3600,
        contentEncoding: 'aes128gcm',
        urgency: 'high',
      })
    } catch (err) {
      // Keys the library cannot use (a broken subscription): it can never be sent to.
      options.log?.('push subscription unusable', err)
      return 'gone'
    }
    try {
      const res = await fetch(details.endpoint, {
        method: 'POST',
        headers: details.headers as Record<string, string>,
        body: details.body ? new Uint8Array(details.body) : null,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        redirect: 'error',
      })
      await res.arrayBuffer().catch(() => undefined)
      if (res.status === 404 || res.status === 410) return 'gone'
      return res.ok ? 'sent' : 'failed'
    } catch (err) {
      options.log?.('push send failed', err)
      return 'failed'
    }
  }

  return {
    /** Sends what the outbox holds; answers counts. */
    async drain(limit = 200): Promise<{ sent: number; gone: number; failed: number }> {
      const counts = { sent: 0, gone: 0, failed: 0 }
      for (;;) {
        const items: OutboxItem[] = await repo.take(limit)
        if (items.length === 0) return counts
        const jobs = items.flatMap((item) =>
          item.subscriptions.map(async (sub) => {
            const result = await sendOne(sub, { title: item.title, body: item.body, url: item.url, tag: item.tag })
            counts[result] += 1
            if (result === 'gone') await repo.forget(sub.endpoint)
          }),
        )
        await Promise.all(jobs)
        if (items.length < limit) return counts
      }
    },
  }
}

export type PushSender = ReturnType<typeof pushSender>
