// Imports councils and events from the operator's file (docs/import.md; API.md "Operator command line"): the
// whole file is checked first, with a message naming the item and the field of every problem, and then written in one
// transaction, upserted by slug, so that running the same file twice changes nothing the second time.
import { eq, inArray, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import * as z from 'zod/mini'
import { EVENT_STATES, PHONE_DIGITS, REGISTRATION_TYPES } from '../../../contract/constants.ts'
import { TRANSFER_CLOSES_MAX } from '../../../contract/org.ts'
import { PAYMENT_LIMITS, PAYMENT_METHODS, paymentMethodsError } from '../../../contract/payment-settings.ts'
import type { Db } from '../index.ts'
import { councils, events, participants } from '../schema.ts'
import { DEFAULT_FAIR_WINDOW_SECONDS, newFairSeed } from '../tickets/fair.ts'
import { settingsOf } from '../points/points.ts'

export interface ImportResult {
  councils: Record<string, number>
  events: Record<string, number>
}

/** Every problem of a file at once, so the operator fixes them in one go. Nothing was written. */
export class CatalogueError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The import file was not imported (nothing was written); fix ${problems.length === 1 ? 'this problem' : `these ${problems.length} problems`}:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    )
    this.name = 'CatalogueError'
  }
}

const missing = (input: unknown) => input === undefined || input === null || input === ''

/** A string field; `what` completes "must be ..." when the value has the wrong type. */
const text = (what = 'text') => z.string({ error: (iss) => (missing(iss.input) ? 'is required' : `must be ${what}`) })

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/
const slug = text('a slug').check(z.regex(SLUG, 'must be a slug: lower-case letters, digits and hyphens, at most 80 characters, e.g. "tech-fest"'))

const nonEmpty = (max: number) =>
  text().check(
    z.refine((s) => s.trim().length > 0, 'is required'),
    z.maxLength(max, `must be at most ${max} characters`),
  )

/**
 * An image or page: an absolute http(s) URL, or a path on this server such as /demo/logo.svg. A path must stay on
 * the app's origin once a browser has normalised it (issue 10): no control characters or spaces (a browser drops
 * tabs and newlines, so "/\t/evil.example" becomes "//evil.example"), no backslash, no "//" at its start.
 */
const APP = 'https://app.invalid'
export function isLink(s: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(s)) return false
  if (s.startsWith('/')) {
    if (s.startsWith('//')) return false
    try {
      return new URL(s, APP).origin === APP
    } catch {
      return false
    }
  }
  if (!/^https?:\/\/[^/]+/i.test(s)) return false
  try {
    const url = new URL(s)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
const link = z._default(z.nullable(text('a URL or null').check(z.refine(isLink, 'must be an http(s) URL or a path starting with /'))), null)

/** ISO-8601 date-time with an offset, e.g. 2026-03-14T10:00:00+05:30; the calendar needs the offset. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/
export function isIsoDateTime(s: string): boolean {
  const m = ISO.exec(s)
  if (!m) return false
  const [y, mo, d, h, mi, se = '0', oh = '0', om = '0'] = m.slice(1).map((v) => v ?? '0')
  const days = new Date(Date.UTC(+y, +mo, 0)).getUTCDate() // last day of that month
  return +mo >= 1 && +mo <= 12 && +d >= 1 && +d <= days && +h < 24 && +mi < 60 && +se < 60 && +oh < 24 && +om < 60
}

const wholeNumber = (min: number, what: string) => z.int({ error: `must be a whole number${what}` }).check(z.gte(min, `must be a whole number${what}`))

const flag = z._default(z.boolean({ error: 'must be true or false' }), false)

const pointsNumber = z
  .int({ error: 'must be a whole number from 0 to 100' })
  .check(z.gte(0, 'must be a whole number from 0 to 100'), z.lte(100, 'must be a whole number from 0 to 100'))

/** A paid event's settings (API.md Part 4), each with the console's default; ignored when the fee is 0. */
const between = (min: number, max: number) =>
  z
    .int({ error: `must be a whole number from ${min} to ${max}` })
    .check(z.gte(min, `must be a whole number from ${min} to ${max}`), z.lte(max, `must be a whole number from ${min} to ${max}`))
const paymentSchema = z._default(
  z.strictObject(
    {
      pay_within_minutes: z._default(
        between(PAYMENT_LIMITS.pay_within_minutes.min, PAYMENT_LIMITS.pay_within_minutes.max),
        PAYMENT_LIMITS.pay_within_minutes.default,
      ),
      refund_until_hours: z._default(
        between(PAYMENT_LIMITS.refund_until_hours.min, PAYMENT_LIMITS.refund_until_hours.max),
        PAYMENT_LIMITS.refund_until_hours.default,
      ),
      // Absent: every method, offered where available (as a new event in the console); named: each one checked.
      methods: z.optional(
        z.array(text('RAZORPAY, UPI or DESK'), { error: 'must be a list of RAZORPAY, UPI and DESK' }).check(
          z.superRefine((methods, ctx) => {
            const message = paymentMethodsError(methods)
            if (message) ctx.addIssue({ code: 'custom', input: methods, message: message.replace(/^payment\.methods /, '') })
          }),
        ),
      ),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys' ? `has unknown field(s) ${iss.keys.join(', ')}` : 'must be {"pay_within_minutes", "refund_until_hours", "methods"}',
    },
  ),
  { pay_within_minutes: PAYMENT_LIMITS.pay_within_minutes.default, refund_until_hours: PAYMENT_LIMITS.refund_until_hours.default },
)

const councilSchema = z.strictObject(
  {
    slug,
    name: nonEmpty(120),
    photo_url: link,
    phone_number: z._default(
      z.nullable(
        text(`${PHONE_DIGITS} digits or null`).check(z.regex(new RegExp(`^\\d{${PHONE_DIGITS}}$`), `must be exactly ${PHONE_DIGITS} digits, without +91`)),
      ),
      null,
    ),
    email: z._default(z.nullable(text('an e-mail address or null').check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address'))), null),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `has unknown field(s) ${iss.keys.join(', ')}` : 'must be an object') },
)

const eventSchema = z
  .strictObject(
    {
      slug,
      name: nonEmpty(200),
      description: z._default(text().check(z.maxLength(1000, 'must be at most 1000 characters')), ''),
      long_description: z._default(text().check(z.maxLength(20000, 'must be at most 20000 characters')), ''),
      event_page_image_url: link,
      banner_url: link,
      dates: z
        .array(text('an ISO date-time').check(z.refine(isIsoDateTime, 'must be an ISO date-time with an offset, e.g. 2026-03-14T10:00:00+05:30')), {
          error: 'must be a list of ISO date-times',
        })
        .check(z.minLength(1, 'must list at least one date-time')),
      venue: z._default(text().check(z.maxLength(200, 'must be at most 200 characters')), ''),
      tags: z._default(z.array(nonEmpty(40), { error: 'must be a list of words' }), []),
      organizer: text('a council slug'),
      parent: z._default(z.nullable(text('an event slug or null')), null),
      state: z._default(z.enum(EVENT_STATES, { error: `must be one of ${EVENT_STATES.join(', ')}` }), 'UPCOMING'),
      fee: z._default(wholeNumber(0, ' of rupees, 0 or more'), 0),
      ma_ppt: z._default(wholeNumber(1, ', 1 or more (1 means an individual event)'), 1),
      registration_type: z._default(z.enum(REGISTRATION_TYPES, { error: `must be one of ${REGISTRATION_TYPES.join(', ')}` }), 'ONPLATFORM'),
      external_registration_link: link,
      start_in_event_activity: flag,
      in_event_activity: link,
      is_ticket_feature_enabled: flag,
      ticket_count: z._default(wholeNumber(0, ', 0 or more'), 0),
      // Re-entry (issue 25 item 3): the door scans out and in.
      reentry: flag,
      // Paid events (issue 35, API.md Part 4): how the fee is taken.
      payment: paymentSchema,
      // A fair opening (issue 24): absent keeps a stored event's window, and gives a new ticketed event 60 s.
      fair_start: z.optional(
        z.nullable(
          z.strictObject(
            {
              window_seconds: z
                .int({ error: 'must be a whole number of seconds from 0 to 3600' })
                .check(z.gte(0, 'must be a whole number of seconds from 0 to 3600'), z.lte(3600, 'must be a whole number of seconds from 0 to 3600')),
            },
            { error: (iss) => (iss.code === 'unrecognized_keys' ? `has unknown field(s) ${iss.keys.join(', ')}` : 'must be {"window_seconds": n} or null') },
          ),
        ),
      ),
      // Activity points (issue 26): the category is checked against the college's list on import.
      activity_points: z._default(
        z.nullable(
          z.strictObject(
            {
              category: nonEmpty(60),
              points: pointsNumber,
              per_day: flag,
              winner: z._default(pointsNumber, 0),
              volunteer: z._default(pointsNumber, 0),
              organiser: z._default(pointsNumber, 0),
            },
            {
              error: (iss) =>
                iss.code === 'unrecognized_keys'
                  ? `has unknown field(s) ${iss.keys.join(', ')}`
                  : 'must be null or {category, points, per_day, winner, volunteer, organiser}',
            },
          ),
        ),
        null,
      ),
      // Issue 25: transfers close this many minutes before the first date (null: open until check-in); tickets
      // show a code that changes every 30 s unless rotating_codes is false (printed tickets).
      transfer_closes_minutes: z._default(
        z.nullable(
          z
            .int({ error: `must be a whole number of minutes from 0 to ${TRANSFER_CLOSES_MAX}, or null` })
            .check(
              z.gte(0, `must be a whole number of minutes from 0 to ${TRANSFER_CLOSES_MAX}, or null`),
              z.lte(TRANSFER_CLOSES_MAX, `must be a whole number of minutes from 0 to ${TRANSFER_CLOSES_MAX}, or null`),
            ),
        ),
        null,
      ),
      rotating_codes: z._default(z.boolean({ error: 'must be true or false' }), true),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? `has unknown field(s) ${iss.keys.join(', ')}` : 'must be an object') },
  )
  .check(
    z.refine((e) => e.registration_type !== 'EXTERNAL' || e.external_registration_link !== null, {
      message: 'is required when registration_type is EXTERNAL',
      path: ['external_registration_link'],
    }),
    z.refine((e) => !e.start_in_event_activity || e.in_event_activity !== null, {
      message: 'is required when start_in_event_activity is true',
      path: ['in_event_activity'],
    }),
  )

/** The fields of the format, in order (docs/import.md documents each; a test holds the two together). */
export const IMPORT_FIELDS = { councils: Object.keys(councilSchema.shape), events: Object.keys(eventSchema.shape) }

export type CouncilInput = z.infer<typeof councilSchema>
export type EventInput = z.infer<typeof eventSchema>

const label = (list: 'councils' | 'events', i: number, item: unknown) => {
  const s = item && typeof item === 'object' ? (item as { slug?: unknown }).slug : undefined
  return typeof s === 'string' && s ? `${list}[${i}] "${s}"` : `${list}[${i}]`
}

/** Checks the shape of every item (no database needed); the cross-references are checked on import. */
export function parseCatalogue(data: unknown): Parsed {
  const problems: string[] = []
  const out: Parsed = { councils: [], events: [], problems, councilRefs: [], eventRefs: [] }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    problems.push('the file must hold a JSON object: {"councils": [...], "events": [...]}')
    return out
  }
  const unknown = Object.keys(data).filter((k) => k !== 'councils' && k !== 'events')
  if (unknown.length) problems.push(`unknown top-level field(s) ${unknown.join(', ')}: only "councils" and "events" are read`)
  const parse = <S extends z.ZodMiniType>(list: 'councils' | 'events', schema: S, into: z.infer<S>[]) => {
    const items = (data as Record<string, unknown>)[list] ?? []
    if (!Array.isArray(items)) return problems.push(`${list}: must be a list`)
    items.forEach((item, i) => {
      const r = z.safeParse(schema, item)
      if (r.success) return into.push(r.data)
      for (const issue of r.error.issues) {
        const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
        problems.push(`${label(list, i, item)}${path}: ${issue.message}`)
      }
    })
  }
  parse('councils', councilSchema, out.councils)
  parse('events', eventSchema, out.events)
  // The cross-references of every item, even one with other problems, so that one run reports them all.
  const list = (name: string) => {
    const items = (data as Record<string, unknown>)[name]
    return Array.isArray(items) ? items.map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>) : {})) : []
  }
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined)
  list('councils').forEach((c, index) => {
    const slug = str(c.slug)
    if (slug) out.councilRefs.push({ index, slug })
  })
  list('events').forEach((e, index) => {
    const slug = str(e.slug)
    if (!slug) return
    out.eventRefs.push({
      index,
      slug,
      organizer: str(e.organizer),
      parent: e.parent === null || e.parent === undefined ? null : str(e.parent),
      ticketCount: typeof e.ticket_count === 'number' ? e.ticket_count : 0,
    })
  })
  return out
}

interface Parsed {
  councils: CouncilInput[]
  events: EventInput[]
  problems: string[]
  councilRefs: { index: number; slug: string }[]
  /** parent undefined: not a usable slug (already reported as a shape problem). */
  eventRefs: { index: number; slug: string; organizer?: string; parent: string | null | undefined; ticketCount: number }[]
}

/** Validates the whole file, then creates or updates its councils and events in one transaction. */
export interface ImportOptions {
  /** Apply changes to live events too (state, cleared images of events students take part in): the CLI's --force. */
  force?: boolean
  /** Whether the server has Razorpay's keys: without them an event cannot name RAZORPAY among its ways to pay. */
  razorpay?: boolean
}

export async function importCatalogue(db: Db, data: unknown, options: ImportOptions = {}): Promise<ImportResult> {
  const parsed = parseCatalogue(data)
  const problems = [...parsed.problems]
  // The cross-checks read the database inside the same transaction as the writes, so they hold for them.
  return db.transaction(async (tx) => {
    const dupes = (list: { index: number; slug: string }[], name: 'councils' | 'events') => {
      const seen = new Set<string>()
      for (const { index, slug } of list) {
        if (seen.has(slug)) problems.push(`${name}[${index}] "${slug}": the slug appears twice in the file`)
        seen.add(slug)
      }
    }
    dupes(parsed.councilRefs, 'councils')
    dupes(parsed.eventRefs, 'events')

    const fileCouncils = new Set(parsed.councilRefs.map((c) => c.slug))
    const referenced = [...new Set(parsed.eventRefs.flatMap((e) => (e.organizer ? [e.organizer] : [])))].filter((s) => !fileCouncils.has(s))
    const knownCouncils = new Set(
      referenced.length ? (await tx.select({ slug: councils.slug }).from(councils).where(inArray(councils.slug, referenced))).map((r) => r.slug) : [],
    )

    // Every event already stored with its parent's slug and its tickets out: the file is laid over this.
    const parentEvent = alias(events, 'parent_event')
    const stored = await tx
      .select({
        id: events.id,
        slug: events.slug,
        parent: parentEvent.slug,
        ticketsSold: events.ticketsSold,
        ticketsHeld: events.ticketsHeld,
        fee: events.fee,
        paid: sql<boolean>`exists (SELECT 1 FROM payments y WHERE y.event_id = ${events.id})`,
        state: events.state,
        fairWindowSeconds: events.fairWindowSeconds,
        fairDrawAt: events.fairDrawAt,
        fairDrawnAt: events.fairDrawnAt,
        eventPageImageUrl: events.eventPageImageUrl,
        bannerUrl: events.bannerUrl,
      })
      .from(events)
      .leftJoin(parentEvent, eq(parentEvent.id, events.parentId))
    const storedBySlug = new Map(stored.map((r) => [r.slug, r]))
    const parentOf = new Map<string, string | null | undefined>(stored.map((r) => [r.slug, r.parent]))
    for (const e of parsed.eventRefs) parentOf.set(e.slug, e.parent)

    // The slugs an organizer may name, read only when one names none of them: the message lists them.
    let validCouncils: string | undefined
    const councilChoices = async () => {
      if (validCouncils === undefined) {
        const stored = (await tx.select({ slug: councils.slug }).from(councils)).map((r) => r.slug)
        const all = [...new Set([...fileCouncils, ...stored])].sort()
        validCouncils = all.length ? `valid council slugs: ${all.join(', ')}` : 'there is no council yet: add one under "councils" in the file'
      }
      return validCouncils
    }
    for (const e of parsed.eventRefs) {
      const where = `events[${e.index}] "${e.slug}"`
      if (e.organizer && !fileCouncils.has(e.organizer) && !knownCouncils.has(e.organizer)) {
        problems.push(`${where}.organizer: no council with slug "${e.organizer}" in the file or the database (${await councilChoices()})`)
      }
      if (e.parent) {
        if (e.parent === e.slug) problems.push(`${where}.parent: an event cannot be its own parent`)
        else if (!parentOf.has(e.parent)) problems.push(`${where}.parent: no event with slug "${e.parent}" in the file or the database`)
        // One level only: the app lists a parent's children, and a child of a child would show nowhere.
        else if (typeof parentOf.get(e.parent) === 'string')
          problems.push(`${where}.parent: "${e.parent}" is itself a child event; a parent must be a top-level event`)
      }
      const stored = storedBySlug.get(e.slug)
      // Places held for payment (issue 35) are taken as much as tickets are.
      const sold = stored ? stored.ticketsSold + stored.ticketsHeld : 0
      if (e.ticketCount < sold) problems.push(`${where}.ticket_count: ${e.ticketCount} is below the ${sold} tickets already claimed`)
    }
    // A paid event's ways to pay (issue 35): RAZORPAY needs the server's keys, UPI the council's UPI id and payee name
    // (the file's council, or the stored one); the fee is locked once a payment exists (as in the console).
    // (a council's UPI id is set in the console, by an admin: the file does not carry it)
    const upiCouncils = new Set(
      (await tx.select({ slug: councils.slug }).from(councils).where(sql`${councils.upiVpa} IS NOT NULL AND ${councils.upiName} IS NOT NULL`)).map(
        (r) => r.slug,
      ),
    )
    parsed.events.forEach((e, i) => {
      const where = `events[${i}] "${e.slug}"`
      const was = storedBySlug.get(e.slug)
      if (was?.paid && was.fee !== e.fee) problems.push(`${where}.fee: cannot change from ${was.fee}: students have paid or are paying this fee`)
      if (e.fee <= 0) return
      if (e.payment.methods?.includes('RAZORPAY') && !options.razorpay)
        problems.push(`${where}.payment.methods: RAZORPAY is not available: the server has no Razorpay keys (RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET)`)
      if (e.payment.methods?.includes('UPI') && !upiCouncils.has(e.organizer))
        problems.push(`${where}.payment.methods: UPI needs the council "${e.organizer}" to have upi_vpa and upi_name`)
    })
    // The draw window cannot change once the event has reached TICKET_OPEN (as in the console).
    parsed.events.forEach((e, i) => {
      const was = storedBySlug.get(e.slug)
      if (!was || e.fair_start === undefined) return
      const window = e.fair_start?.window_seconds ?? 0
      if (window !== was.fairWindowSeconds && (was.state === 'TICKET_OPEN' || was.fairDrawAt || was.fairDrawnAt))
        problems.push(`events[${i}] "${e.slug}".fair_start: cannot change once tickets have opened (it is ${was.fairWindowSeconds} s)`)
    })
    // An event given a parent must not itself be the parent of a stored or listed event.
    const parents = new Set([...parentOf.values()].filter((p): p is string => typeof p === 'string'))
    for (const e of parsed.eventRefs) {
      if (e.parent && e.parent !== e.slug && parents.has(e.slug)) {
        problems.push(`events[${e.index}] "${e.slug}".parent: this event has child events, so it must stay top-level`)
      }
    }

    // Live state is never undone silently (issue 10): a re-imported file must not move an event students take part
    // in to another state, or clear its images, unless the operator says so (--force).
    if (!options.force && parsed.events.length) {
      const counts = await tx.select({ eventId: participants.eventId, n: sql<number>`count(*)::int` }).from(participants).groupBy(participants.eventId)
      const taking = new Map(counts.map((r) => [r.eventId, Number(r.n)]))
      parsed.events.forEach((e) => {
        const was = storedBySlug.get(e.slug)
        const n = was ? (taking.get(was.id) ?? 0) : 0
        if (!was || n === 0) return
        const changes: string[] = []
        if (e.state !== was.state) changes.push(`would change its state from ${was.state} to ${e.state}`)
        if (was.eventPageImageUrl && !e.event_page_image_url) changes.push('would clear its event_page_image_url')
        if (was.bannerUrl && !e.banner_url) changes.push('would clear its banner_url')
        if (changes.length) {
          problems.push(
            `event "${e.slug}" has ${n} participant${n === 1 ? '' : 's'}: the file ${changes.join(' and ')} (run the import with --force to apply it anyway)`,
          )
        }
      })
    }

    // An event's activity points name one of the college's categories (issue 26), in its spelling.
    const { categories } = await settingsOf(tx)
    parsed.events.forEach((e, i) => {
      const index = parsed.eventRefs.find((r) => r.slug === e.slug)?.index ?? i
      if (!e.activity_points) return
      const category = categories.find((c) => c.toLowerCase() === e.activity_points!.category.trim().toLowerCase())
      if (category) e.activity_points.category = category
      else problems.push(`events[${index}] "${e.slug}".activity_points.category: must be one of the college's categories (${categories.join(', ')})`)
    })

    if (problems.length) throw new CatalogueError([...new Set(problems)])

    const result: ImportResult = { councils: {}, events: {} }
    if (parsed.councils.length) {
      const rows = await tx
        .insert(councils)
        .values(parsed.councils.map((c) => ({ slug: c.slug, name: c.name, photoUrl: c.photo_url, phoneNumber: c.phone_number, email: c.email })))
        .onConflictDoUpdate({
          target: councils.slug,
          set: {
            name: sql`excluded.name`,
            photoUrl: sql`excluded.photo_url`,
            phoneNumber: sql`excluded.phone_number`,
            email: sql`excluded.email`,
          },
        })
        .returning({ id: councils.id, slug: councils.slug })
      for (const r of rows) result.councils[r.slug] = r.id
    }

    const councilIds = new Map(Object.entries(result.councils))
    if (knownCouncils.size) {
      for (const r of await tx
        .select({ id: councils.id, slug: councils.slug })
        .from(councils)
        .where(inArray(councils.slug, [...knownCouncils]))) {
        councilIds.set(r.slug, r.id)
      }
    }
    const eventIds = new Map(stored.map((r) => [r.slug, r.id]))
    /** The window a new event is inserted with: the file's, or 60 s with tickets; 0 otherwise. */
    const newWindow = (e: EventInput) => {
      const window = storedBySlug.has(e.slug) ? 0 : (windowOf(e, true) ?? 0)
      return { fairWindowSeconds: window, fairSeed: window > 0 ? newFairSeed() : null }
    }
    const upsertEvents = async (list: EventInput[]) => {
      if (!list.length) return
      const rows = await tx
        .insert(events)
        .values(
          list.map((e) => ({
            slug: e.slug,
            name: e.name,
            description: e.description,
            longDescription: e.long_description,
            eventPageImageUrl: e.event_page_image_url,
            bannerUrl: e.banner_url,
            dates: e.dates,
            venue: e.venue,
            tags: e.tags,
            organizerId: councilIds.get(e.organizer)!,
            parentId: e.parent === null ? null : eventIds.get(e.parent)!,
            state: e.state,
            fee: e.fee,
            maPpt: e.ma_ppt,
            registrationType: e.registration_type,
            externalRegistrationLink: e.external_registration_link,
            startInEventActivity: e.start_in_event_activity,
            inEventActivity: e.in_event_activity,
            isTicketFeatureEnabled: e.is_ticket_feature_enabled,
            ticketCount: e.ticket_count,
            reentry: e.reentry,
            activityPoints: e.activity_points,
            transferClosesMinutes: e.transfer_closes_minutes,
            rotatingCodes: e.rotating_codes,
            payWithinMinutes: e.payment.pay_within_minutes,
            refundUntilHours: e.payment.refund_until_hours,
            paymentMethods: PAYMENT_METHODS.filter((m) => e.payment.methods?.includes(m) ?? true),
            // A new event's draw window goes in with the row, so that one imported straight into TICKET_OPEN opens
            // with it like any other (the events_fair_window trigger sets draw_at = now() + window on insert). A
            // stored event keeps its own: these two are not in the update below.
            ...newWindow(e),
          })),
        )
        // tickets_sold is not part of the file: an update keeps the tickets already claimed.
        .onConflictDoUpdate({
          target: events.slug,
          set: Object.fromEntries(
            (
              [
                'name',
                'description',
                'longDescription',
                'eventPageImageUrl',
                'bannerUrl',
                'dates',
                'venue',
                'tags',
                'organizerId',
                'parentId',
                'state',
                'fee',
                'maPpt',
                'registrationType',
                'externalRegistrationLink',
                'startInEventActivity',
                'inEventActivity',
                'isTicketFeatureEnabled',
                'ticketCount',
                'reentry',
                'activityPoints',
                'transferClosesMinutes',
                'rotatingCodes',
                'payWithinMinutes',
                'refundUntilHours',
                'paymentMethods',
              ] as const
            ).map((k) => [k, sql.raw(`excluded."${events[k].name}"`)]),
          ),
        })
        .returning({ id: events.id, slug: events.slug })
      for (const r of rows) {
        result.events[r.slug] = r.id
        eventIds.set(r.slug, r.id)
      }
    }
    // Parents first, so that the children can name their ids.
    await upsertEvents(parsed.events.filter((e) => e.parent === null))
    await upsertEvents(parsed.events.filter((e) => e.parent !== null))
    // A stored event's draw window: the file's if it says one; the seed is fixed the first time (a re-import keeps
    // it). An event that has reached TICKET_OPEN keeps its window (the file is refused above if it differs). New
    // events got theirs with the insert.
    for (const e of parsed.events) {
      if (!storedBySlug.has(e.slug)) continue
      const window = windowOf(e, false)
      if (window === undefined) continue
      await tx.execute(sql`
        UPDATE ${events} SET fair_window_seconds = ${window}, fair_seed = coalesce(fair_seed, ${window > 0 ? newFairSeed() : null})
          WHERE id = ${result.events[e.slug]} AND fair_window_seconds <> ${window}
            AND state <> 'TICKET_OPEN' AND fair_draw_at IS NULL AND fair_drawn_at IS NULL`)
    }
    return result
  })
}

/** An event's draw window from the file: its fair_start, else 60 s for a new event with tickets (undefined: keep). */
function windowOf(e: EventInput, isNew: boolean): number | undefined {
  if (e.fair_start !== undefined) return e.fair_start?.window_seconds ?? 0
  if (isNew) return e.is_ticket_feature_enabled ? DEFAULT_FAIR_WINDOW_SECONDS : 0
  return undefined
}

/** Whether any council exists yet: the demo data is imported only into an empty catalogue. */
export async function hasCouncils(db: Db): Promise<boolean> {
  const rows = await db.select({ id: councils.id }).from(councils).limit(1)
  return rows.length > 0
}
