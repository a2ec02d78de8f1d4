// The event editor's form, its checks and what it sends. The checks are those of contract/org.ts (eventInput,
// which the server applies) with the same words: a field's own limits written out here as plain code, so the
// editor's chunk carries no zod (~5 KB brotli, most of the 8 KB a staff chunk may weigh), and the rules between
// fields called from their one home, contract/event-rules.ts (zod-free); test/dom/console-rules.test.ts holds the
// form and the contract to the same answer over a table of forms.
import type { RegistrationType } from '../../../contract/constants.ts'
import { externalLinkError, questionOptionErrors, scheduleOutOfOrder, teamSizeError } from '../../../contract/event-rules.ts'
import { DEFAULT_FAIR_WINDOW_SECONDS, EVENT_LIMITS } from '../../../contract/limits.ts'
import { PAYMENT_LIMITS, PAYMENT_METHODS, type PaymentMethod } from '../../../contract/payment-settings.ts'
import type { EventInput, OrgEvent, QuestionInput, Schedule } from '../../../contract/types.ts'
import { EMPTY_SCHEDULE, fromLocalInput, SCHEDULE_STEPS, toLocalInput } from '../../lib/org-event.ts'
import { type PointsForm, pointsError, toPointsForm, toPointsInput } from './points-rules.ts'

/** The event's field limits (contract/limits.ts), which the server checks too. */
export const LIMITS = EVENT_LIMITS

export interface EventForm {
  name: string
  description: string
  long_description: string
  event_page_image_url: string
  banner_url: string
  /** datetime-local values, IST. */
  dates: string[]
  /** Each date's end time, 'HH:MM' in IST ('' for none): that date's day, or the next when not after its start. */
  date_ends: string[]
  venue: string
  /** Comma-separated. */
  tags: string
  organizer_id: string
  parent_id: string
  fee: string
  min_ppt: string
  ma_ppt: string
  registration_type: RegistrationType
  external_registration_link: string
  start_in_event_activity: boolean
  in_event_activity: string
  is_ticket_feature_enabled: boolean
  ticket_count: string
  /** The draw window in seconds (issue 24; fair-field.tsx), sent with tickets on. */
  fair_start: string
  /** datetime-local values, IST, by step. */
  schedule: Record<keyof Schedule, string>
  questions: QuestionInput[]
  /** Activity points (issue 26): null gives none. */
  activity_points: PointsForm | null
  /** Re-entry (issue 25 item 3): the door scans out and in. */
  reentry: boolean
  /** Issue 25, sent with tickets on: minutes before the start when transfers close ('' for until check-in)... */
  transfer_closes_minutes: string
  /** ...and whether tickets show a code that changes every 30 s (off for printed tickets). */
  rotating_codes: boolean
  /** A paid event's settings (issue 35, payment-fields.tsx), sent when the fee is above 0 and they changed. */
  pay_within_minutes: string
  refund_until_hours: string
  methods: PaymentMethod[]
}

export function toForm(event?: OrgEvent | null, councilId?: number): EventForm {
  const schedule = event?.schedule ?? EMPTY_SCHEDULE
  return {
    name: event?.name ?? '',
    description: event?.description ?? '',
    long_description: event?.long_description ?? '',
    event_page_image_url: event?.event_page_image_url ?? '',
    banner_url: event?.banner_url ?? '',
    dates: event?.dates.map(toLocalInput) ?? [],
    date_ends: event?.dates.map((_, i) => toLocalInput(event.date_ends?.[i]).slice(11, 16)) ?? [],
    venue: event?.venue ?? '',
    tags: event?.tags.join(', ') ?? '',
    organizer_id: String(event?.organizer.id ?? councilId ?? ''),
    parent_id: event?.parent_id ? String(event.parent_id) : '',
    fee: String(event?.fee ?? 0),
    min_ppt: String(event?.min_ppt ?? 1),
    ma_ppt: String(event?.ma_ppt ?? 1),
    registration_type: event?.registration_type ?? 'ONPLATFORM',
    external_registration_link: event?.external_registration_link ?? '',
    start_in_event_activity: event?.start_in_event_activity ?? false,
    in_event_activity: event?.in_event_activity ?? '',
    is_ticket_feature_enabled: event?.is_ticket_feature_enabled ?? false,
    ticket_count: String(event?.ticket_count ?? 0),
    fair_start: String(event ? (event.fair_start?.window_seconds ?? 0) : DEFAULT_FAIR_WINDOW_SECONDS),
    schedule: Object.fromEntries(SCHEDULE_STEPS.map((s) => [s.key, toLocalInput(schedule[s.key])])) as EventForm['schedule'],
    questions: event?.questions.map((q) => ({ ...q, options: [...q.options] })) ?? [],
    activity_points: toPointsForm(event?.activity_points),
    reentry: event?.reentry ?? false,
    transfer_closes_minutes: String(event?.transfer_closes_minutes ?? ''),
    rotating_codes: event?.rotating_codes ?? true,
    pay_within_minutes: String(event?.payment?.pay_within_minutes ?? PAYMENT_LIMITS.pay_within_minutes.default),
    refund_until_hours: String(event?.payment?.refund_until_hours ?? PAYMENT_LIMITS.refund_until_hours.default),
    methods: event?.payment?.methods ?? [...PAYMENT_METHODS],
  }
}

const PAYMENT_KEYS = ['pay_within_minutes', 'refund_until_hours', 'methods'] as const

const int = (s: string) => (/^-?\d+$/.test(s.trim()) ? Number(s) : Number.NaN)
const tagList = (s: string) =>
  s
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)

/** A date's end: its time on the date's day, or on the next when that is not after the start (a night event). */
function endOf(date: string, time: string): string | null {
  if (!time) return null
  const end = Date.parse(fromLocalInput(`${date.slice(0, 10)}T${time}`)!)
  return fromLocalInput(toLocalInput(new Date(end > Date.parse(fromLocalInput(date)!) ? end : end + 86_400_000).toISOString()))
}

/**
 * What /org/p/event/save receives for this form (with `id` to update). Activity points only when they differ from
 * `stored` (the event as saved): a save that did not touch them sends none, so the server keeps what it has.
 */
export function toInput(form: EventForm, id?: number, stored?: EventForm): EventInput {
  const points = JSON.stringify(form.activity_points) !== JSON.stringify(stored?.activity_points)
  // Payment settings only when changed (issue 35): a save that did not touch them sends none, so the server neither
  // checks nor changes the ways to pay the event already has.
  const payment = int(form.fee) > 0 && PAYMENT_KEYS.some((k) => String(form[k]) !== String((stored ?? toForm())[k]))
  const dated = form.dates.map((d, i) => [d, form.date_ends[i] ?? ''] as const).filter(([d]) => d)
  return {
    ...(id ? { id } : {}),
    name: form.name.trim(),
    description: form.description,
    long_description: form.long_description,
    event_page_image_url: form.event_page_image_url.trim() || null,
    banner_url: form.banner_url.trim() || null,
    dates: dated.map(([d]) => fromLocalInput(d)!),
    date_ends: dated.map(([d, end]) => endOf(d, end)),
    venue: form.venue,
    tags: tagList(form.tags),
    ...(form.organizer_id ? { organizer_id: int(form.organizer_id) } : {}),
    parent_id: form.parent_id ? int(form.parent_id) : null,
    fee: int(form.fee),
    min_ppt: int(form.min_ppt),
    ma_ppt: int(form.ma_ppt),
    registration_type: form.registration_type,
    external_registration_link: form.external_registration_link.trim() || null,
    start_in_event_activity: form.start_in_event_activity,
    in_event_activity: form.in_event_activity.trim() || null,
    is_ticket_feature_enabled: form.is_ticket_feature_enabled,
    ticket_count: int(form.ticket_count),
    ...(form.is_ticket_feature_enabled
      ? {
          fair_start: { window_seconds: int(form.fair_start) },
          transfer_closes_minutes: form.transfer_closes_minutes.trim() ? int(form.transfer_closes_minutes) : null,
          rotating_codes: form.rotating_codes,
        }
      : {}),
    schedule: Object.fromEntries(SCHEDULE_STEPS.map((s) => [s.key, fromLocalInput(form.schedule[s.key])])) as Schedule,
    questions: form.questions,
    ...(points ? { activity_points: toPointsInput(form.activity_points) } : {}),
    reentry: form.reentry,
    ...(payment
      ? { payment: { pay_within_minutes: int(form.pay_within_minutes), refund_until_hours: int(form.refund_until_hours), methods: form.methods } }
      : {}),
  }
}

const isHttpUrl = (s: string) => {
  if (!/^https?:\/\/[^/\s]/i.test(s)) return false
  try {
    return !!new URL(s).hostname
  } catch {
    return false
  }
}
const isImageUrl = (s: string) => isHttpUrl(s) || /^\/uploads\/[A-Za-z0-9._-]+$/.test(s)

export type FormErrors = Partial<Record<keyof EventForm, string>>

/** The first message per field, in the contract's words; a valid form gives {}. */
export function formErrors(form: EventForm, creating: boolean): FormErrors {
  const e: FormErrors = {}
  const put = (field: keyof EventForm, message: string) => {
    e[field] ??= message
  }
  const text = (field: 'name' | 'description' | 'long_description' | 'venue') => {
    if (form[field].length > LIMITS[field]) put(field, `${field} must be at most ${LIMITS[field]} characters`)
  }
  if (!form.name.trim()) put('name', 'name is a required field')
  text('name')
  text('description')
  text('long_description')
  text('venue')
  for (const field of ['event_page_image_url', 'banner_url'] as const) {
    const v = form[field].trim()
    if (v && !isImageUrl(v)) put(field, `${field} must be an http(s) address or an uploaded image`)
  }
  for (const field of ['external_registration_link', 'in_event_activity'] as const) {
    const v = form[field].trim()
    if (v.length > LIMITS.url) put(field, `${field} must be at most ${LIMITS.url} characters`)
    if (v && !isHttpUrl(v)) put(field, `${field} must be an http(s) address`)
  }
  if (form.dates.filter(Boolean).length > LIMITS.dates) put('dates', `dates must have at most ${LIMITS.dates} entries`)
  const tags = tagList(form.tags)
  if (tags.length > LIMITS.tags) put('tags', `tags must have at most ${LIMITS.tags} entries`)
  if (tags.some((t) => t.length > LIMITS.tag)) put('tags', `tags must be at most ${LIMITS.tag} characters`)
  if (creating && !form.organizer_id) put('organizer_id', 'organizer_id is a required field')
  const whole = (field: 'fee' | 'min_ppt' | 'ma_ppt' | 'ticket_count', min: number, max: number) => {
    const n = int(form[field])
    if (!(n >= min && n <= max)) put(field, `${field} must be a whole number from ${min} to ${max}`)
  }
  whole('fee', 0, LIMITS.fee)
  whole('ma_ppt', 1, LIMITS.ppt)
  whole('min_ppt', 1, LIMITS.ppt)
  whole('ticket_count', 0, LIMITS.ticket_count)
  if (form.is_ticket_feature_enabled && !(int(form.fair_start) >= 0 && int(form.fair_start) <= LIMITS.fair_window))
    put('fair_start', `fair_start.window_seconds must be a whole number from 0 to ${LIMITS.fair_window}`)
  const closes = form.transfer_closes_minutes.trim()
  if (form.is_ticket_feature_enabled && closes && !(int(closes) >= 0 && int(closes) <= LIMITS.transfer_closes))
    put('transfer_closes_minutes', `transfer_closes_minutes must be a whole number from 0 to ${LIMITS.transfer_closes}`)
  // The rules between fields (contract/event-rules.ts). Team sizes: compared whenever both are numbers, even out of range.
  const teams = teamSizeError(int(form.min_ppt), int(form.ma_ppt))
  if (teams) put('min_ppt', teams)
  const link = externalLinkError(form.registration_type, form.external_registration_link.trim() || null)
  if (link) put('external_registration_link', link)
  const order = scheduleOutOfOrder(Object.fromEntries(SCHEDULE_STEPS.map((s) => [s.key, fromLocalInput(form.schedule[s.key])])))
  if (order) put('schedule', order.message)
  for (const q of form.questions) {
    const options = q.options ?? []
    if (!q.label.trim()) put('questions', 'questions: label is a required field')
    else if (q.label.length > 200) put('questions', 'questions: label must be at most 200 characters')
    else if (options.some((o) => !o.trim())) put('questions', 'questions: option is a required field')
    else {
      const [kindError] = questionOptionErrors(q)
      if (kindError) put('questions', kindError)
    }
  }
  if (int(form.fee) > 0) {
    for (const k of ['pay_within_minutes', 'refund_until_hours'] as const) {
      const { min, max } = PAYMENT_LIMITS[k]
      if (!(int(form[k]) >= min && int(form[k]) <= max)) put(k, `payment.${k} must be a whole number from ${min} to ${max}`)
    }
    // The checkboxes give a subset without repeats: only an empty one breaks contract/payment-settings.ts's rule.
    if (!form.methods.length) put('methods', 'payment.methods must name at least one way to pay: RAZORPAY, UPI or DESK')
  }
  const ap = pointsError(form.activity_points)
  if (ap) put('activity_points', ap)
  return e
}

/** The form field a server message names (its first word), for showing a 400 under its control. */
export function fieldOfMessage(message: string): keyof EventForm | null {
  const word = /^([a-z_]+)[.:\s]/.exec(message)?.[1]
  return word && word in toForm() ? (word as keyof EventForm) : null
}

/** The editor's words for the fields the contract's messages name (issue 22 item 7: no internal names on screen). */
const WORDS: Record<string, string> = {
  name: 'name',
  description: 'short description',
  long_description: 'long description',
  event_page_image_url: 'image address (details)',
  banner_url: 'image address (cards)',
  dates: 'dates',
  date_ends: 'end times',
  venue: 'venue',
  tags: 'tags',
  organizer_id: 'council',
  parent_id: 'parent event',
  fee: 'fee',
  min_ppt: 'smallest team',
  ma_ppt: 'largest team',
  registration_type: 'registration type',
  external_registration_link: 'external registration link',
  in_event_activity: 'activity link',
  ticket_count: 'number of tickets',
  reentry: 're-entry',
  transfer_closes_minutes: 'transfers close (minutes before the start)',
  pay_within_minutes: 'minutes to pay',
  refund_until_hours: 'refund hours',
  questions: 'questions',
  'questions: label': "a question's text",
  'questions: option': 'an option',
  'questions:': 'question',
  show_at_door: '“Show at the door”',
}

/** The activity points' fields (points-fields.tsx), as their labels say them. */
const POINT_WORDS: Record<string, string> = {
  category: 'category',
  points: 'points for attending',
  per_day: '“for each day attended”',
  winner: 'points for a winner',
  volunteer: 'points for a door volunteer',
  organiser: 'points for an organiser',
}

/**
 * A contract or server message in the editor's words: "schedule.tickets_open_at must be after
 * schedule.registration_opens_at" reads "Tickets open must be after Registration opens", "ticket_count cannot be
 * below…" "Number of tickets cannot be below…", "name is a required field" "Name is required". The server's
 * messages stay as API.md fixes them (a 400 names the field); only the screen translates.
 */
export function plain(message: string): string {
  const out = message
    .replace(/schedule\.([a-z_]+)/g, (whole, key) => `“${SCHEDULE_STEPS.find((s) => s.key === key)?.label ?? whole}”`)
    .replace(/activity_points\.([a-z_]+)/g, (whole, key) => POINT_WORDS[key] ?? whole)
    .replace(/fair_start(\.window_seconds)?/g, 'draw window')
    .replace('payment.', '')
    .replace(/^questions: (label|option)\b|^questions:(?= ')|\b[a-z]+(_[a-z]+)+\b|^[a-z]+\b/g, (word) => WORDS[word] ?? word)
    .replace(' is a required field', ' is required')
  return out.charAt(0).toUpperCase() + out.slice(1)
}
