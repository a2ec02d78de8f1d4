// A fair opening on the console's event screen (issue 24 item 5): the entrants while the draw window is open, the
// result once drawn (tickets given, waitlisted), and the seed's commitment before the draw and the seed after it.
// While the window is open the events are fetched again every few seconds, so the count moves and the result comes.
import { useEffect } from 'preact/hooks'
import type { OrgEvent } from '../../../contract/types.ts'
import { formatMoment } from '../../lib/org-event.ts'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'

const org = room(buildOrg)

const REFRESH_MS = 5000

export function DrawStatus({ event }: { event: OrgEvent }) {
  const f = event.fair_start
  const open = !!f?.draw_at && !f.seed
  useEffect(() => {
    if (!open) return
    const timer = setInterval(() => org.load(), REFRESH_MS)
    return () => clearInterval(timer)
  }, [open])
  if (!f || !event.is_ticket_feature_enabled) return null
  return (
    <section class="m-card" aria-labelledby="draw-h">
      <h2 id="draw-h">Draw</h2>
      <p>
        {f.seed
          ? `Drawn: ${f.entrants} entered, ${event.draw?.winners ?? 0} got tickets, ${event.draw?.waitlisted ?? 0} on the waitlist.`
          : f.draw_at
            ? `${event.counts.entrants} entered so far. The draw is at ${formatMoment(f.draw_at)}.`
            : `For ${f.window_seconds} s after tickets open, RSVPs enter a draw.`}
      </p>
      <p class="m-muted" style={{ overflowWrap: 'anywhere' }}>
        {f.seed ? `Seed: ${f.seed}` : `Seed's SHA-256 (published): ${f.seed_hash}`}
      </p>
    </section>
  )
}
