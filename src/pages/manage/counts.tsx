// An event's live counts (issue 11), on My events and on the event's own screen.
import type { OrgEvent } from '../../../contract/types.ts'

export function Counts({ event }: { event: OrgEvent }) {
  const c = event.counts
  return (
    <dl class="m-counts">
      <div>
        <dt>registered</dt>
        <dd>{c.registered}</dd>
      </div>
      <div>
        <dt>teams</dt>
        <dd>{c.teams}</dd>
      </div>
      <div>
        <dt>tickets sold</dt>
        <dd>{event.is_ticket_feature_enabled ? `${c.tickets_sold} of ${event.ticket_count}` : '–'}</dd>
      </div>
      <div>
        <dt>checked in</dt>
        <dd>{c.checked_in}</dd>
      </div>
      {/* Who came on each day of a multi-day event (issue 25 item 3), and who is inside now with re-entry. */}
      {c.days?.map((d) => (
        <div key={d.day}>
          <dt>{d.label}</dt>
          <dd>
            {d.checked_in} in{event.reentry ? `, ${d.inside} inside` : ''}
          </dd>
        </div>
      ))}
      <div>
        <dt>waitlist</dt>
        <dd>{c.waitlist}</dd>
      </div>
      <div>
        <dt>{c.ratings.count === 1 ? '1 rating' : `${c.ratings.count} ratings`}</dt>
        <dd>{c.ratings.average == null ? '–' : `${c.ratings.average.toFixed(1)} ★`}</dd>
      </div>
    </dl>
  )
}
