// Sends the outbox's notifications (server/db/people/push.ts) with Web Push: the payload encrypted (RFC 8291,
// aes128gcm) and signed (VAPID) by the web-push library, posted with node:http(s), in production to public
// addresses only (server/push/endpoint.ts). Runs in the push tick, off every request's path. A subscription the
// push service answers 404 or 410 for, or whose host is not public, is gone and is deleted. A transient
// failure (no answer, a timeout, 429 or 5xx) is queued again for that subscription with a growing delay (30 s,
// 1, 2, 4 min; a 429's Retry-After when longer), up to MAX_ATTEMPTS sends in all; any other answer (400, 401,
// 403, 413: a request the service will never take) is dropped at once.
// web-push is loaded at the first send, not at start (issue 15 item 6).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type webpushTypes from 'web-push'
import type { Notification, OutboxItem, PushRepository, Subscription } from '../db/people/push.ts'
import { assertPublicHost, PrivateAddressError, type PushEndpoints, publicOnlyLookup } from './endpoint.ts'
import type { Vapid } from './vapid.ts'

/** What the service worker reads (src/sw.ts). */
export interface PushPayload {
  title: string
  body: string
  url: string
  tag?: string
}

/** The payload of a notification from the outbox: what is encrypted and sent (test/e2e/push.spec.ts delivers the same). */
export function pushPayload(n: Notification): PushPayload {
  return { title: n.title, body: n.body, url: n.url, tag: n.tag }
}

/** Sends of one notification to one subscription, the first included. */
export const MAX_ATTEMPTS = 5

/** The wait before the attempt after `attempts` failed ones: 30 s, then doubled. */
export const retryDelaySeconds = (attempts: number) => 30 * 2 ** (attempts - 1)

/** A 429's Retry-After honoured up to this. */
const MAX_RETRY_AFTER_SECONDS = 3600

type Result = { kind: 'sent' | 'gone' | 'rejected' } | { kind: 'transient'; retryAfter?: number }

export interface SendOptions {
  /**
   * 'public' (production): only https push services at public addresses (server/push/endpoint.ts); a subscription
   * naming anything else is dropped. 'any': any http(s) URL (development and tests run their push service here).
   */
  endpoints: PushEndpoints
  timeoutMs?: number
  log?: (msg: string, err?: unknown) => void
}

/**
 * One POST to a push service: its status and headers, the body read and dropped. Through node:http(s) rather than
 * fetch for the `lookup` hook (the addresses are checked as the connection is made); no redirect is followed.
 */
function post(
  endpoint: string,
  headers: Record<string, string>,
  body: Uint8Array | null,
  options: SendOptions,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const url = new URL(endpoint)
  if (options.endpoints === 'public') assertPublicHost(url)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')
          ? headers
          : { ...headers, 'content-length': String(body?.byteLength ?? 0) },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        ...(options.endpoints === 'public' ? { lookup: publicOnlyLookup as never } : {}),
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
        res.on('error', reject) // also an answer cut off: the deadline passed mid-body, the connection dropped
      },
    )
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}

export function pushSender(repo: PushRepository, vapid: Vapid, options: SendOptions) {
  async function sendOne(sub: Subscription, payload: PushPayload): Promise<Result> {
    if (options.endpoints === 'public' && !sub.endpoint.startsWith('https:')) return { kind: 'gone' }
    const { default: webpush } = await import('web-push')
    let details: ReturnType<typeof webpushTypes.generateRequestDetails>
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
      return { kind: 'gone' }
    }
    try {
      const res = await post(details.endpoint, details.headers as Record<string, string>, details.body ? new Uint8Array(details.body) : null, options)
      if (res.status >= 200 && res.status < 300) return { kind: 'sent' }
      if (res.status === 404 || res.status === 410) return { kind: 'gone' }
      if (res.status === 429 || res.status >= 500) return { kind: 'transient', retryAfter: retryAfterSeconds(headerOf(res.headers['retry-after'])) }
      // A redirect is not followed: a push service does not send one, and it could point anywhere.
      options.log?.(`push refused with ${res.status}`)
      return { kind: 'rejected' }
    } catch (err) {
      // An endpoint inside this network is never tried again (stored before the guard, or re-pointed since).
      if (err instanceof PrivateAddressError) {
        options.log?.('push endpoint refused', err)
        return { kind: 'gone' }
      }
      options.log?.('push send failed', err)
      return { kind: 'transient' }
    }
  }

  return {
    /**
     * Sends what the outbox holds and is due; answers counts: sent, gone (subscription deleted), failed (of
     * which `retrying` were queued again).
     */
    async drain(limit = 200): Promise<{ sent: number; gone: number; failed: number; retrying: number }> {
      const counts = { sent: 0, gone: 0, failed: 0, retrying: 0 }
      for (;;) {
        const items: OutboxItem[] = await repo.take(limit)
        if (items.length === 0) return counts
        const jobs = items.flatMap((item) =>
          item.subscriptions.map(async (sub) => {
            const result = await sendOne(sub, pushPayload(item))
            if (result.kind === 'sent') counts.sent += 1
            else if (result.kind === 'gone') {
              counts.gone += 1
              await repo.forget(sub.endpoint)
            } else {
              counts.failed += 1
              const attempts = item.attempts + 1
              if (result.kind === 'transient' && attempts < MAX_ATTEMPTS) {
                counts.retrying += 1
                await repo.retry(item, sub.endpoint, attempts, Math.max(retryDelaySeconds(attempts), result.retryAfter ?? 0))
              } else if (result.kind === 'transient') options.log?.(`push dropped after ${attempts} attempts`)
            }
          }),
        )
        await Promise.all(jobs)
        if (items.length < limit) return counts
      }
    },
  }
}

const headerOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null

/** Retry-After in seconds (a number of seconds or an HTTP date), bounded; undefined when absent or unreadable. */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000
  if (!Number.isFinite(seconds) || seconds < 0) return undefined
  return Math.min(Math.ceil(seconds), MAX_RETRY_AFTER_SECONDS)
}

export type PushSender = ReturnType<typeof pushSender>
