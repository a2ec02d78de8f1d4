// The limits of an event's fields (API.md Part 2, the organiser's calls): contract/org.ts checks them with zod on
// the server, and the console's forms (src/pages/manage/rules.ts) with plain code; one table for both. No zod here.

export const EVENT_LIMITS = {
  name: 120,
  description: 500,
  long_description: 20_000,
  venue: 200,
  url: 2_000,
  dates: 30,
  tags: 20,
  tag: 40,
  fee: 1_000_000,
  ppt: 100,
  ticket_count: 1_000_000,
  questions: 20,
  question_label: 200,
  options: 50,
  option: 200,
  question_id: 40,
  /** A fair opening's draw window, in seconds (issue 24). */
  fair_window: 3600,
  /** Ticket transfer's cut-off (issue 25), in minutes before the first date: at most a week. */
  transfer_closes: 10_080,
} as const

/** The draw window a new ticketed event gets when its organiser says nothing (issue 24), in seconds. */
export const DEFAULT_FAIR_WINDOW_SECONDS = 60
