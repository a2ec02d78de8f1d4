// What a screen shows while what it needs is not there yet (an event, the participants, My Events): the spinner
// until the fetch fails, then the reason with a way to try again. A module of its own, not beside PageSpinner:
// spinner/ is in the first load of /, which none of these screens is.
import type { ComponentChildren } from 'preact'
import { PageSpinner } from '../spinner/index.tsx'

export interface RetryMessageProps {
  /** The screen's heading, when the failure takes the whole screen. */
  heading?: string
  children: ComponentChildren
  retry: () => unknown
  /** While the retry runs: the button waits. */
  busy?: boolean
}

/** The failure and a "Try again" button: every screen that could not load what it shows. */
export function RetryMessage({ heading, children, retry, busy }: RetryMessageProps) {
  return (
    <div class="page-message" role="alert">
      {heading && <h1>{heading}</h1>}
      <p>{children}</p>
      <button type="button" class="button" onClick={() => retry()} disabled={busy}>
        Try again
      </button>
    </div>
  )
}

export interface LoadOrRetryProps {
  /** What the spinner says it waits for, e.g. 'Loading the ticket'. */
  loading: string
  /** What could not be loaded, e.g. 'the ticket'. */
  what: string
  /** The fetch's failure, null while it runs. */
  error: string | null
  retry: () => unknown
}

export function LoadOrRetry({ loading, what, error, retry }: LoadOrRetryProps) {
  if (!error) return <PageSpinner label={loading} />
  return (
    <RetryMessage retry={retry}>
      Could not load {what}: {error}
    </RetryMessage>
  )
}

/** The answer of every screen of one event to an event the server does not know (or no longer shows). */
export function EventNotFound({ children }: { children?: ComponentChildren }) {
  return (
    <div class="page-message" role="alert">
      <h1>Event not found</h1>
      {children && <p>{children}</p>}
      <a href="/">Go to Home</a>
    </div>
  )
}
