// What a screen shows while the event it needs is not there yet (event details, child events, ticket): the
// spinner until the fetch fails, then the reason with a way to try again. A module of its own, not beside
// PageSpinner: spinner/ is in the first load of /, which none of these screens is.
import { PageSpinner } from '../spinner/index.tsx'

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
    <div class="page-message" role="alert">
      <p>
        Could not load {what}: {error}
      </p>
      <button type="button" class="button" onClick={() => retry()}>
        Try again
      </button>
    </div>
  )
}
