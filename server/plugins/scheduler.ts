// The scheduler (API.md Part 2 "Event lifecycle"): each instance runs it; every tick claims the due events with
// `FOR UPDATE SKIP LOCKED` (server/db/events/schedule.ts), so each move happens exactly once across instances. It ticks at
// start (catching up after downtime), every `intervalMs` (1 s), and at the next step's time when that comes sooner,
// so a move lands within a few milliseconds of its minute. Each move is audited (actor 'scheduler') and told to the
// lifecycle listeners (app.lifecycle.onStateChange, server/db/events/lifecycle.ts) after its transaction commits.
// The same tick runs the fair openings' due draws (issue 24, server/db/tickets/fair.ts, through `fairDraws` below), each once
// across instances, and plans its next wake-up at the sooner of the next step and the next draw.
import fp from 'fastify-plugin'
import { type DrawDone, fairRepository } from '../db/tickets/fair.ts'
import { asStateChange, scheduleRepository } from '../db/events/schedule.ts'

export interface SchedulerOptions {
  /** Longest wait between two ticks; 0 turns the scheduler off (SCHEDULER_INTERVAL_MS=0). */
  intervalMs?: number
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs one tick now (tests, and the CLI after a change); resolves when it is done. */
    schedulerTick: () => Promise<void>
    /** The fair openings' draws, each counted and logged (see `fairDraws` below). */
    fairDraws: FairDraws
  }
}

export interface FairDraws {
  /** Runs every due draw (the scheduler's tick), each once across instances. */
  runDue(): Promise<DrawDone[]>
  /** Runs an event's due draw now: a claim after draw_at waits for it (server/db/tickets/claims.ts). */
  drawNow(eventId: number): Promise<DrawDone | null>
  /** When the next draw is due, or null. */
  nextDrawAt(): Promise<Date | null>
}

/**
 * The fair openings' draws (server/db/tickets/fair.ts), each counted in the metrics and logged however it was started. A
 * plugin of its own, registered before the claims repository, which is given `drawNow` (plugins/repositories.ts).
 */
export const fairDraws = fp(
  async (app) => {
    const fair = fairRepository(app.db)

    function counted(draw: DrawDone): void {
      app.metrics.draws.inc()
      app.metrics.drawEntrants.inc(draw.entrants)
      app.log.info(
        { event: draw.eventId, entrants: draw.entrants, winners: draw.winners, waitlisted: draw.waitlisted, late_ms: draw.at.getTime() - draw.dueAt.getTime() },
        'fair draw',
      )
    }

    app.decorate('fairDraws', {
      async runDue() {
        const draws = await fair.runDue()
        for (const draw of draws) counted(draw)
        return draws
      },
      async drawNow(eventId: number) {
        const draw = await fair.drawNow(eventId)
        if (draw) counted(draw)
        return draw
      },
      nextDrawAt: () => fair.nextDrawAt(),
    } satisfies FairDraws)
  },
  { name: 'fair-draws', dependencies: ['database', 'metrics'] },
)

export default fp(
  async (app, options: SchedulerOptions) => {
    const intervalMs = options.intervalMs ?? 1000
    const schedule = scheduleRepository(app.db)

    let timer: NodeJS.Timeout | undefined
    let running: Promise<void> | undefined
    let closed = false

    async function tick(): Promise<void> {
      try {
        const moves = await schedule.applyDue()
        app.metrics.scheduler.ticked()
        for (const move of moves) {
          app.metrics.scheduler.moved((move.at.getTime() - move.dueAt.getTime()) / 1000)
          app.log.info({ event: move.eventId, from: move.from, to: move.to, step: move.step }, 'scheduled state move')
          app.lifecycle.emit(asStateChange(move))
        }
      } catch (err) {
        // A passing database error: the next tick tries again (nothing was half done: one transaction).
        if (!closed) app.log.warn({ err }, 'scheduler tick failed')
      }
      try {
        await app.fairDraws.runDue()
      } catch (err) {
        // As above: each draw is one transaction, so a failed one is simply due again on the next tick.
        if (!closed) app.log.warn({ err }, 'fair draw failed')
      }
    }

    async function plan(): Promise<void> {
      if (closed) return
      let wait = intervalMs
      try {
        const [step, draw] = await Promise.all([schedule.nextDueAt(), app.fairDraws.nextDrawAt()])
        const next = step && draw ? (step < draw ? step : draw) : (step ?? draw)
        if (next) wait = Math.max(0, Math.min(intervalMs, next.getTime() - Date.now() + 5))
      } catch {
        // keep the interval
      }
      if (closed) return
      timer = setTimeout(run, wait)
      timer.unref()
    }

    function run(): void {
      if (closed || running) return
      running = tick()
        .then(plan)
        .finally(() => {
          running = undefined
        })
    }

    app.decorate('schedulerTick', async () => {
      while (running) await running
      await tick()
    })

    if (intervalMs > 0)
      app.addHook('onReady', async () => {
        app.metrics.scheduler.started()
        run()
      })
    app.addHook('onClose', async () => {
      closed = true
      if (timer) clearTimeout(timer)
      while (running) await running
    })
  },
  { name: 'scheduler', dependencies: ['database', 'lifecycle', 'metrics', 'fair-draws'] },
)
