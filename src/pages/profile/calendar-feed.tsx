// Profile's "Add my events to my calendar": the student's personal feed (POST /user/p/calendar), fetched only
// when asked for. webcal:// opens the phone's calendar app and subscribes; the https:// link is for Google
// Calendar ("From URL") and is copied. "Make a new link" replaces the secret: the old link stops working.
import { CopyButton } from '../../components/copy-button/index.tsx'
import { buildFeeds } from '../../stores/feeds.ts'
import { room } from '../../models.ts'
import styles from './style.module.css'

const feeds = room(buildFeeds)

export function CalendarFeed() {
  const links = feeds.links.value
  const busy = feeds.busy.value
  const error = feeds.error.value
  return (
    <section class={styles.card} aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title" class={styles.name}>
        Add my events to my calendar
      </h2>
      <p class={styles.detail}>The events you register for appear in your calendar app and stay up to date.</p>
      {!links && (
        <button type="button" class={`button ${styles.feedButton}`} onClick={() => feeds.load()} disabled={busy} aria-busy={busy}>
          {busy ? 'Getting your link…' : 'Get my calendar link'}
        </button>
      )}
      {links && (
        <>
          <p class={styles.feedLinks}>
            <a class="button" href={links.webcal}>
              Subscribe in my calendar app
            </a>
          </p>
          <p class={styles.detail}>
            Google Calendar: Settings, Add calendar, From URL, then paste this link.{' '}
            <a href={links.https} class={styles.feedUrl}>
              {links.https}
            </a>
          </p>
          <CopyButton text={links.https} label="Copy calendar link" />
          <p class={styles.detail}>Keep this link to yourself: anyone with it can see your events.</p>
          <button type="button" class={styles.textButton} onClick={() => feeds.load(true)} disabled={busy}>
            Make a new link (the old one stops working)
          </button>
        </>
      )}
      {error && (
        <p role="alert" class={styles.detail}>
          {error}
        </p>
      )}
    </section>
  )
}
