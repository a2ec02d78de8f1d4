// My Profile (SPEC §2): activity points (issue 26, lazy), My Events, the organiser console and door check-in for users with a role (API.md Part 2
// "Roles"), Contact Us by phone (a fixed support number), Logout.
import { NotifyMe } from '../../components/notify-me/index.tsx'
import { buildPush } from '../../stores/push.ts'
import { room, session } from '../../models.ts'
import styles from './style.module.css'
import { CalendarFeed } from './calendar-feed.tsx'
import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'

const push = room(buildPush)

/** Activity points (issue 26) in a chunk of its own, fetched once Profile shows: Profile's own chunk stays as small. */
function ActivityPoints() {
  const [Loaded, setLoaded] = useState<ComponentType | null>(null)
  useEffect(() => {
    import('./activity-points.tsx').then(
      (m) => setLoaded(() => m.default),
      (err) => console.error('chunk failed', err),
    )
  }, [])
  return Loaded ? <Loaded /> : null
}

/** The chapter's support line, called by 'Contact Us'. */
export const SUPPORT_PHONE = '+912267283000'
export const SUPPORT_PHONE_SHOWN = '+91 22 6728 3000'

const chevron = (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
    <path d="m9 6 6 6-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
  </svg>
)

export default function Profile() {
  const user = session.user.value
  return (
    <>
      <h1>My Profile</h1>
      {user && (
        <section class={styles.card} aria-label="Account">
          <p class={styles.name}>{user.name}</p>
          {user.email && <p class={styles.detail}>{user.email}</p>}
          {user.roll_number && <p class={styles.detail}>Student ID: {user.roll_number}</p>}
        </section>
      )}
      <ActivityPoints />
      <CalendarFeed />
      <ul class={styles.links}>
        <li>
          <a href="/profile/myevents">My Events {chevron}</a>
        </li>
        {user && (user.roles.admin || user.roles.councils.length > 0) && (
          <li>
            <a href="/manage">Organiser console {chevron}</a>
          </li>
        )}
        {user && (user.roles.admin || user.roles.councils.length > 0 || user.roles.door_events.length > 0) && (
          <li>
            <a href="/door">Door check-in {chevron}</a>
          </li>
        )}
        <li>
          <a href={`tel:${SUPPORT_PHONE}`}>
            <span>
              Contact Us <span class={styles.detail}>{SUPPORT_PHONE_SHOWN}</span>
            </span>
            {chevron}
          </a>
        </li>
        <li>
          <a href="/logout">Logout {chevron}</a>
        </li>
      </ul>
      <section class={styles.card} aria-labelledby="notifications">
        <h2 id="notifications" class={styles.name}>
          Notifications
        </h2>
        <p class={styles.detail}>Tickets opening, a ticket held for you, reminders before your events, and messages from organisers.</p>
        <NotifyMe push={push} what="about your events" />
      </section>
    </>
  )
}
