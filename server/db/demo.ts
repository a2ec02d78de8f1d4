// Demo data for a first start outside production (issue 2): councils and events in every state, so every
// screen has something real to show. demo.json is an ordinary import file (API.md), written around the day
// DEMO_ANCHOR; on import its dates are moved by whole days so that the events sit around today.
import { readFileSync } from 'node:fs'
import { inArray } from 'drizzle-orm'
import type { Db } from './index.ts'
import { events, participants, users } from './schema.ts'
import { newTicketCode } from './tickets/claims.ts'
import { hasCouncils, importCatalogue, type ImportResult } from './events/catalogue.ts'

/** The day (in Asia/Kolkata) that demo.json's dates were written around. */
export const DEMO_ANCHOR = '2026-11-21'

/**
 * Tickets already held at these demo events ('all' for a sold-out event, otherwise a count), so the app shows a
 * sold-out and a half-full event. They are held by demo attendees (accounts no one can sign in to), because
 * tickets_sold is the count of tickets held, kept by the database (migration 0004).
 */
const DEMO_TICKETS_SOLD: Record<string, number | 'all'> = {
  'standup-comedy-night': 'all',
  'garba-night': 137,
  'ai-ml-talk': 150,
}

const IST_OFFSET_MS = 330 * 60_000
const DAY_MS = 86_400_000

export function loadDemoCatalogue(): { councils: unknown[]; events: { dates: string[] }[] } {
  return JSON.parse(readFileSync(new URL('./demo.json', import.meta.url), 'utf8'))
}

/** Whole days from DEMO_ANCHOR to the Asia/Kolkata date of `now`. */
export function daysSinceAnchor(now: Date): number {
  const today = Math.floor((now.getTime() + IST_OFFSET_MS) / DAY_MS)
  return today - Date.parse(`${DEMO_ANCHOR}T00:00:00Z`) / DAY_MS
}

/** An ISO date-time moved by whole days, written in Asia/Kolkata time (+05:30; India has no DST). */
export function shiftDate(iso: string, days: number): string {
  const local = new Date(Date.parse(iso) + days * DAY_MS + IST_OFFSET_MS)
  return local.toISOString().replace(/\.\d{3}Z$/, '+05:30')
}

/** The demo catalogue with every date moved so that the anchor day becomes today. */
export function demoCatalogue(now = new Date()) {
  const data = loadDemoCatalogue()
  const days = daysSinceAnchor(now)
  return { ...data, events: data.events.map((e) => ({ ...e, dates: e.dates.map((d) => shiftDate(d, days)) })) }
}

/**
 * Imports the demo data when the catalogue is empty (the first start); later starts leave it alone, so an
 * operator's own data is never mixed with the demo. Returns the id map, or null when nothing was done.
 */
export async function seedDemoData(db: Db, now = new Date()): Promise<ImportResult | null> {
  if (await hasCouncils(db)) return null
  const ids = await importCatalogue(db, demoCatalogue(now))
  const ticketed = await db
    .select({ id: events.id, slug: events.slug, count: events.ticketCount })
    .from(events)
    .where(inArray(events.slug, Object.keys(DEMO_TICKETS_SOLD)))
  const held = new Map(ticketed.map((e) => [e.id, Math.min(e.count, DEMO_TICKETS_SOLD[e.slug] === 'all' ? e.count : (DEMO_TICKETS_SOLD[e.slug] as number))]))
  const most = Math.max(0, ...held.values())
  if (most === 0) return ids
  const attendees = await db
    .insert(users)
    .values(
      Array.from({ length: most }, (_, i) => ({
        issuer: 'demo',
        subject: `attendee-${i + 1}`,
        email: `attendee${i + 1}@demo.invalid`,
        name: `Demo Attendee ${i + 1}`,
      })),
    )
    .returning({ id: users.id })
  for (const [eventId, n] of held) {
    if (n === 0) continue
    await db
      .insert(participants)
      .values(attendees.slice(0, n).map((a) => ({ eventId, userId: a.id, ticketCollected: true, ticketCode: newTicketCode(), ticketCollectedAt: now })))
  }
  return ids
}
