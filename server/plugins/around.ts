// Around the event (API.md Part 2): the waitlist, ticket transfer (issue 25) and push repositories, the VAPID keys, and the tick that runs
// every second on every instance: waitlist offers passed on when their hold expires, reminders an hour before
// an event, the push outbox sent, and inbox messages older than INBOX_KEEP_DAYS deleted (in batches). Each step
// takes its rows with FOR UPDATE SKIP LOCKED or a unique key, so several instances ticking together do each thing
// once. The tick is off every request's path.
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'
import { inboxRepository } from '../db/people/inbox.ts'
import { pushRepository, type PushRepository } from '../db/people/push.ts'
import { transfersRepository, type TransfersRepository } from '../db/tickets/transfers.ts'
import { waitlistRepository, type WaitlistRepository } from '../db/tickets/waitlist.ts'
import type { PushEndpoints } from '../push/endpoint.ts'
import { pushSender, type PushSender } from '../push/sender.ts'
import { loadVapid, type Vapid } from '../push/vapid.ts'

export interface AroundJobs {
  /** One tick now (tests call it; the timer calls it every `intervalMs`). */
  tick(): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    waitlistRepository: WaitlistRepository
    transfersRepository: TransfersRepository
    pushRepository: PushRepository
    vapid: Vapid
    pushSender: PushSender
    /** Which push endpoints may be stored and sent to (server/push/endpoint.ts). */
    pushEndpoints: PushEndpoints
    aroundJobs: AroundJobs
  }
}

export const around = fp(
  async (app, { config, intervalMs = 1000 }: { config: Config; intervalMs?: number | false }) => {
    const waitlist = waitlistRepository(app.db, { holdMinutes: config.waitlistHoldMinutes })
    const push = pushRepository(app.db)
    const inbox = inboxRepository(app.db)
    const vapid = loadVapid(config)
    const sender = pushSender(push, vapid, {
      endpoints: config.pushEndpoints,
      log: (msg, err) => app.log.warn({ err }, msg),
    })
    app.decorate('waitlistRepository', waitlist)
    app.decorate('transfersRepository', transfersRepository(app.db, { holdMinutes: config.waitlistHoldMinutes }))
    app.decorate('pushRepository', push)
    app.decorate('vapid', vapid)
    app.decorate('pushSender', sender)
    app.decorate('pushEndpoints', config.pushEndpoints)

    let running: Promise<void> | null = null
    let closing = false
    async function once() {
      try {
        await waitlist.tick()
        await push.queueReminders()
        await sender.drain()
        await inbox.purgeOld()
      } catch (err) {
        if (!closing) app.log.error({ err }, 'around-the-event tick failed')
      }
    }
    const tick = () => {
      // One tick at a time per instance: a slow one is joined, not doubled.
      running ??= once().finally(() => {
        running = null
      })
      return running
    }
    app.decorate('aroundJobs', { tick })

    let timer: NodeJS.Timeout | undefined
    if (intervalMs !== false) {
      app.addHook('onReady', async () => {
        timer = setInterval(() => void tick(), intervalMs)
        timer.unref()
      })
    }
    app.addHook('onClose', async () => {
      closing = true
      if (timer) clearInterval(timer)
      await running
    })
  },
  { name: 'around', dependencies: ['database'] },
)
