// The student's calendar feed link (POST /user/p/calendar) and certificate downloads (GET /event/p/certificate/{id}).
// The link is fetched when Profile asks for it, never on start; a certificate is fetched with the bearer token
// (a plain link cannot carry it) and handed to the screen as a file to save.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import { feedsApi, type FeedsApi } from '../api/feeds-calls.ts'

export interface CalendarLinks {
  /** Subscribes in the phone's calendar app (iOS, macOS, most Android calendar apps). */
  webcal: string
  /** The same feed, for Google Calendar's "From URL" and anything else. */
  https: string
}

/** The feed's two addresses: webcal:// opens the calendar app, https:// is for pasting. */
export const linksOf = (url: string): CalendarLinks => ({ https: url, webcal: url.replace(/^https?:\/\//, 'webcal://') })

export const FeedsModel = createModel((deps: FeedsApi) => {
  const links = signal<CalendarLinks | null>(null)
  const busy = signal(false)
  const error = signal<string | null>(null)

  const load = action(async (rotate: boolean = false) => {
    if (busy.value) return
    busy.value = true
    error.value = null
    try {
      links.value = linksOf(await deps.calendarFeed(rotate))
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    } finally {
      busy.value = false
    }
  })

  return {
    /** null until the student asked for the link. */
    links: links as ReadonlySignal<CalendarLinks | null>,
    busy: busy as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    /** Fetches the link; `true` replaces it, and the old one stops working. */
    load,
    /** The certificate PDF of an event; rejects with the server's message (e.g. not checked in). */
    certificate: (eventId: number) => deps.certificate(eventId),
    /** A paid place's receipt PDF (issue 35). */
    receipt: (receipt: string) => deps.receipt(receipt),
  }
})

export type Feeds = InstanceType<typeof FeedsModel>

/** The calendar feed and the certificates (`room(buildFeeds)`). */
export const buildFeeds = (): Feeds => new FeedsModel(feedsApi)
