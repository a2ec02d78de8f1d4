// Certificates (issue 13 "Certificates", API.md Part 2): GET /event/p/certificate/{event_id} gives a one-page PDF to
// a participant checked in at a COMPLETED event (its text, extracted with pdf.js, shows the name, the event, the
// council and the verification code); anyone else gets 403 with a message, an unknown event 404; the code stays
// the same across downloads; /verify/{code} confirms it as a page and as JSON, and says 404 for an unknown code.
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { latin } from '../../server/feeds/certificate-pdf.ts'
import { normalCode } from '../../server/feeds/secrets.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

// pdf.js reads the metrics of the 14 standard fonts from files of its own.
const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url))

async function pdfText(data: Buffer): Promise<{ pages: number; text: string }> {
  const doc = await getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise
  let text = ''
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent()
    text += `${content.items.map((item) => ('str' in item ? item.str : '')).join('\n')}\n`
  }
  const pages = doc.numPages
  await doc.destroy()
  return { pages, text }
}

describe.each(DB_KINDS)('certificates on %s', (kind) => {
  let t: TestApp
  let council: number
  beforeAll(async () => {
    t = await testApp({ kind })
    ;[{ id: council }] = await t.database.db
      .insert(schema.councils)
      .values({ slug: `cert-${kind}`, name: 'Robotics Council' })
      .returning({ id: schema.councils.id })
  }, 180_000)
  afterAll(() => t.close())

  let n = 0
  async function event(state: 'COMPLETED' | 'ONGOING' | 'DRAFT' = 'COMPLETED') {
    n += 1
    const [row] = await t.database.db
      .insert(schema.events)
      .values({
        slug: `cert-${kind}-${n}`,
        name: `RoboWars ${n}`,
        organizerId: council,
        state,
        isTicketFeatureEnabled: true,
        ticketCount: 100,
        dates: ['2026-11-20T10:00:00+05:30', '2026-11-21T10:00:00+05:30'],
      })
      .returning({ id: schema.events.id })
    return row.id
  }
  async function attend(eventId: number, userId: number, checkedIn: boolean) {
    await t.database.db.insert(schema.participants).values({
      eventId,
      userId,
      ticketCollected: true,
      ticketCode: `T-${eventId}-${userId}`,
      ticketCollectedAt: new Date(),
      checkedInAt: checkedIn ? new Date() : null,
    })
  }
  const download = (eventId: number | string, auth?: { authorization: string }) =>
    t.app.inject({ method: 'GET', url: `/api/v1/event/p/certificate/${eventId}`, headers: { ...auth } })

  it('a checked-in participant of a completed event downloads a one-page PDF with name, event, council, date and code', async () => {
    const student = await t.student({ name: 'Zoë D’Souza' })
    const id = await event()
    await attend(id, student.id, true)
    const started = performance.now()
    const res = await download(id, student.auth)
    const ms = performance.now() - started
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-disposition']).toBe(`attachment; filename="certificate-${id}.pdf"`)
    const { pages, text } = await pdfText(res.rawPayload)
    expect(pages).toBe(1)
    expect(text).toContain('Zoë D’Souza')
    expect(text).toContain(`RoboWars ${n}`)
    expect(text).toContain('Robotics Council')
    expect(text).toContain('20–21 November 2026')
    const code = /Verification code: ([0-9A-Z]{5}-[0-9A-Z]{5})/.exec(text)?.[1]
    expect(code).toBeDefined()
    expect(text).toContain(`http://app.test/api/v1/verify/${code}`)
    console.log(`certificate: ${ms.toFixed(0)} ms for the first download (code made), ${res.rawPayload.length} bytes, on ${kind}`)

    // The same code on every download.
    const again = await download(id, student.auth)
    expect((await pdfText(again.rawPayload)).text).toContain(`Verification code: ${code}`)

    // The public check: a page, and JSON when asked.
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${code}` })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('Certificate verified')
    expect(page.body).toContain('Zoë D’Souza')
    expect(page.body).toContain('20–21 November 2026')
    const json = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${code!.toLowerCase().replace('-', '')}`, headers: { accept: 'application/json' } })
    expect(json.statusCode).toBe(200)
    expect(json.json()).toEqual({
      error: false,
      certificate: { code, name: 'Zoë D’Souza', event: `RoboWars ${n}`, council: 'Robotics Council', date: '2026-11-20T10:00:00+05:30' },
    })
  })

  it('refuses with 403 a participant not checked in, a student not registered, and an event not completed; 404 an unknown event; 401 without a token', async () => {
    const [present, absent, stranger] = [await t.student(), await t.student(), await t.student()]
    const done = await event()
    const running = await event('ONGOING')
    await attend(done, present.id, true)
    await attend(done, absent.id, false)
    await attend(running, present.id, true)

    const notIn = await download(done, absent.auth)
    expect(notIn.statusCode).toBe(403)
    expect(notIn.json().message).toMatch(/checked in/)
    expect((await download(done, stranger.auth)).statusCode).toBe(403)
    const early = await download(running, present.auth)
    expect(early.statusCode).toBe(403)
    expect(early.json().message).toMatch(/completed/)
    for (const id of ['2147483647', '0', 'abc', '99999999999']) expect((await download(id, present.auth)).statusCode).toBe(404)
    const draft = await event('DRAFT')
    await attend(draft, present.id, true)
    expect((await download(draft, present.auth)).statusCode).toBe(404)
    expect((await download(done)).statusCode).toBe(401)
    // Refusals made no code.
    const codes = await t.database.db
      .select()
      .from(schema.certificates)
      .innerJoin(schema.participants, eq(schema.participants.id, schema.certificates.participantId))
    expect(codes.every((c) => c.participants.userId !== absent.id && c.participants.userId !== stranger.id)).toBe(true)
  })

  it('an unknown or malformed code is a 404: a page for a browser, the JSON error for anything else', async () => {
    for (const code of ['ZZZZZ-ZZZZZ', 'nope', '%3Cscript%3E']) {
      const page = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${code}`, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
      expect(page.statusCode).toBe(404)
      expect(page.body).toContain('Unknown certificate')
      expect(page.body).not.toContain('<script>')
      for (const accept of ['application/json', undefined]) {
        const json = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${code}`, headers: accept ? { accept } : {} })
        expect(json.statusCode).toBe(404)
        expect(json.json()).toEqual({ error: true, message: 'No certificate has this code.' })
      }
    }
  })
})

describe('certificate text', () => {
  it('keeps Latin-1, strips accents it lacks, and writes other scripts as ?', () => {
    expect(latin('Zoë D’Souza')).toBe('Zoë D’Souza')
    expect(latin('Łukasz')).toBe('?ukasz')
    expect(latin('Ǎnanya')).toBe('Ananya')
    expect(latin('आशा')).toBe('???')
  })
  it('reads codes the way people type them', () => {
    expect(normalCode('abcde-12345')).toBe('ABCDE12345')
    expect(normalCode('ABCDE 1234O')).toBe('ABCDE12340')
    expect(normalCode('ABCDE-1234')).toBeNull()
  })
})
