// Profile's activity points (issue 26): "Activity points: 42 of 100", the points by category and every entry by
// event, and the transcript PDF. A lazy chunk of its own, fetched after Profile shows: the record is computed by
// the server from the door's check-ins, the event's roles and its winners, and kept as the last good copy, so it
// opens with no network as the tickets do (the time it was computed is then shown).
import { useEffect } from 'preact/hooks'
import type { PointEntry } from '../../../contract/types.ts'
import { DownloadButton } from '../../components/download-button/index.tsx'
import { formatIST } from '../../lib/dates.ts'
import { offline } from '../../stores/connection.ts'
import { buildPoints } from '../../stores/points.ts'
import { room } from '../../models.ts'
import styles from './activity-points.module.css'

const points = room(buildPoints)

const ROLE: Record<PointEntry['kind'], string> = { ATTENDED: 'Attended', WINNER: 'Winner', VOLUNTEER: 'Volunteer', ORGANISER: 'Organiser' }

/** "Attended, 2 days", "Winner: First place". */
function roleOf(e: PointEntry): string {
  if (e.days !== null) return `${ROLE[e.kind]}, ${e.days} day${e.days === 1 ? '' : 's'}`
  return e.title ? `${ROLE[e.kind]}: ${e.title}` : ROLE[e.kind]
}

function Transcript() {
  return (
    <DownloadButton
      download={points.transcript}
      filename="activity-points.pdf"
      class={`button ${styles.button}`}
      label="Download transcript (PDF)"
      busyLabel="Preparing transcript…"
      failed="Could not download the transcript. Please try again."
    />
  )
}

export default function ActivityPoints() {
  useEffect(() => void points.load(), [])
  const record = points.record.value
  const error = points.error.value
  return (
    <section class={styles.card} aria-labelledby="activity-points">
      <h2 id="activity-points" class={styles.name}>
        {record ? `Activity points: ${record.total} of ${record.target}` : 'Activity points'}
      </h2>
      {!record && !error && <p class={styles.detail}>Loading your activity points…</p>}
      {!record && error && (
        <p role="alert" class={styles.detail}>
          {error}
        </p>
      )}
      {record && (
        <>
          <progress class={styles.meter} value={Math.min(record.total, record.target)} max={record.target} aria-label="Towards your target" />
          <p class={styles.detail}>
            {record.lateral_entry ? 'Lateral entry target. ' : ''}Earned at the door and in event roles, counted by the college.
            {offline.value && ` Last updated ${formatIST(record.as_of, '{D} {MMM}, {hh}:{mm} {A}')}.`}
          </p>
          <h3 class={styles.subhead}>By category</h3>
          <ul class={styles.rows}>
            {record.by_category.map((c) => (
              <li key={c.category}>
                <span>{c.category}</span>
                <span>{c.points}</span>
              </li>
            ))}
          </ul>
          <h3 class={styles.subhead}>By event</h3>
          {record.entries.length === 0 ? (
            <p class={styles.detail}>No points yet: events that give points count them when the door scans your ticket.</p>
          ) : (
            <ul class={styles.rows}>
              {record.entries.map((e) => (
                <li key={`${e.event.id}-${e.kind}`}>
                  <span>
                    <a href={`/event-details/${e.event.id}`}>{e.event.name}</a>
                    <span class={styles.detail}>
                      {roleOf(e)} · {e.category}
                      {e.event.dates[0] ? ` · ${formatIST(e.event.dates[0], '{D} {MMM} {YYYY}')}` : ''}
                    </span>
                  </span>
                  <span>+{e.points}</span>
                </li>
              ))}
            </ul>
          )}
          <Transcript />
        </>
      )}
    </section>
  )
}
