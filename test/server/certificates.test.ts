// Certificates (issue 13 "Certificates", API.md Part 2): GET /event/p/certificate/{event_id} gives a one-page PDF to
// a participant checked in at a COMPLETED event (its text, extracted with pdf.js, shows the name, the event, the
// council and the verification code); anyone else gets 403 with a message, an unknown event 404; the code stays
// the same across downloads; /verify/{code} confirms it as a page and as JSON, and says 404 for an unknown code.
// A Devanagari or Tamil name is written with an embedded subset of Noto Sans for its script, not as '?'.
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { scriptFonts } from '../../server/feeds/certificate-fonts.ts'
import { certificatePdf, latin, pdfLine, runsOf } from '../../server/feeds/certificate-pdf.ts'
import { normalCode } from '../../server/feeds/secrets.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

// pdf.js reads the metrics of the 14 standard fonts from files of its own.
const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url))

async function pdfText(data: Buffer): Promise<{ pages: number; text: string; lines: string[] }> {
  const doc = await getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise
  let text = ''
  // The text drawn at one height, left to right: a line written in several fonts comes out of pdf.js in parts.
  const rows = new Map<number, { x: number; str: string }[]>()
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent()
    text += `${content.items.map((item) => ('str' in item ? item.str : '')).join('\n')}\n`
    for (const item of content.items) {
      if (!('str' in item) || !item.str) continue
      const y = Math.round(item.transform[5])
      rows.set(y, [...(rows.get(y) ?? []), { x: item.transform[4], str: item.str }])
    }
  }
  const lines = [...rows.values()].map((parts) =>
    parts
      .sort((a, b) => a.x - b.x)
      .map((p) => p.str)
      .join(''),
  )
  const pages = doc.numPages
  await doc.destroy()
  return { pages, text, lines }
}

/** The fonts a PDF embeds or names: the BaseFont of each, and the bytes of its embedded font file (0: none). */
async function pdfFonts(data: Buffer): Promise<{ name: string; fileBytes: number }[]> {
  const pdf = await PDFDocument.load(new Uint8Array(data))
  const fonts: { name: string; fileBytes: number }[] = []
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue
    const file = object.lookup(PDFName.of('FontFile2'))
    fonts.push({ name: String(object.get(PDFName.of('FontName'))), fileBytes: file instanceof PDFRawStream ? file.contents.length : 0 })
  }
  const standard = pdf.context
    .enumerateIndirectObjects()
    .filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of('Subtype')) === PDFName.of('Type1'))
    .map(([, o]) => ({ name: String((o as PDFDict).get(PDFName.of('BaseFont'))), fileBytes: 0 }))
  return [...standard, ...fonts].sort((a, b) => a.name.localeCompare(b.name))
}

/** The characters of a text, sorted: the same for a Devanagari line in its logical order and in the visual order
 * of its glyphs (the i-matra before its consonant, the reph after), which is how text comes out of a PDF. In NFD:
 * a two-part vowel sign (Odia ୌ) is shaped, and read back, as its two parts. */
const letters = (text: string) => [...text.normalize('NFD').replace(/\s/g, '')].sort().join('')

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
    // The short address (issue 37 item 1), the public page beside the app, not the API's path.
    expect(text).toContain(`Check it at http://app.test/verify/${code}`)
    console.log(`certificate: ${ms.toFixed(0)} ms for the first download (code made), ${res.rawPayload.length} bytes, on ${kind}`)
    // Latin-1 text: the standard fonts alone, nothing embedded.
    expect((await pdfFonts(res.rawPayload)).map((f) => f.name)).toEqual(['/Helvetica', '/Helvetica-Bold'])

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

  it('a name with a tab, CR/LF, U+2028, U+2003 or U+3000 gets its certificate (500 before), the whitespace made single spaces in the PDF only', async () => {
    const names = ['Asha\tRao', 'Asha\r\nRao', 'Asha\u2028Rao', 'Asha\u2003Rao', 'Asha\u3000Rao', '\u0007Asha \u0000\u001bRao\u200e ', 'आशा\tराव']
    for (const name of names) {
      // The NUL is refused by the API's input check; stored straight here, it is what a database could hold from elsewhere.
      const student = await t.student({ name: name.replace('\u0000', '') })
      const id = await event()
      await attend(id, student.id, true)
      const res = await download(id, student.auth)
      expect(res.statusCode, `${JSON.stringify(name)}: ${res.body.slice(0, 200)}`).toBe(200)
      const { lines } = await pdfText(res.rawPayload)
      // Devanagari comes out of a PDF in the visual order of its glyphs: compared by its letters.
      if (name.startsWith('आशा')) expect(lines.map(letters), JSON.stringify(name)).toContain(letters('आशा राव'))
      else expect(lines, JSON.stringify(name)).toContain('Asha Rao')
      // The stored name is the student's, unchanged: the verification page shows it as it is.
      const [row] = await t.database.db.select({ name: schema.users.name }).from(schema.users).where(eq(schema.users.id, student.id))
      expect(row.name).toBe(name.replace('\u0000', ''))
    }
  })

  it('an event whose name holds a newline gives every participant a certificate (each got 500 before)', async () => {
    const id = await event()
    await t.database.db.update(schema.events).set({ name: 'Robo\nWars\r\n2026' }).where(eq(schema.events.id, id))
    for (let i = 0; i < 3; i++) {
      const student = await t.student()
      await attend(id, student.id, true)
      const res = await download(id, student.auth)
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
      expect((await pdfText(res.rawPayload)).lines).toContain('Robo Wars 2026')
    }
  })

  it('the verification page isolates the name, event and council in <bdi>: a U+202E in a name reverses nothing around it (issue 21 item 11)', async () => {
    const student = await t.student({ name: 'Eve \u202Eevilname' })
    const id = await event()
    await attend(id, student.id, true)
    const code = /Verification code: ([0-9A-Z]{5}-[0-9A-Z]{5})/.exec((await pdfText((await download(id, student.auth)).rawPayload)).text)?.[1]
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${code}`, headers: { accept: 'text/html' } })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<dt>Name</dt><dd><bdi>Eve \u202Eevilname</bdi></dd>')
    expect(page.body).toMatch(/<dt>Event<\/dt><dd><bdi>RoboWars \d+<\/bdi><\/dd>/)
    expect(page.body).toContain('<dt>Organised by</dt><dd><bdi>Robotics Council</bdi></dd>')
  })

  it('writes a Devanagari name and event with an embedded subset of Noto Sans Devanagari, not as ?', async () => {
    const name = 'प्रिया शर्मा'
    const eventName = 'रोबो वॉर्स'
    const student = await t.student({ name })
    const id = await event()
    await t.database.db.update(schema.events).set({ name: eventName }).where(eq(schema.events.id, id))
    await attend(id, student.id, true)
    const res = await download(id, student.auth)
    expect(res.statusCode, res.body).toBe(200)
    const { pages, text, lines } = await pdfText(res.rawPayload)
    expect(pages).toBe(1)
    expect(text).not.toContain('?')
    // pdf.js gives the glyphs' text in their visual order ("िप्रया शमार्"): every letter is there, none is lost.
    expect(lines.map(letters)).toContain(letters(name))
    expect(lines.map(letters)).toContain(letters(eventName))
    expect(text).toContain('Robotics Council') // a Latin line stays in Helvetica
    const fonts = await pdfFonts(res.rawPayload)
    expect(fonts.map((f) => f.name.replace(/-\d+$/, ''))).toEqual(['/Helvetica', '/Helvetica-Bold', '/NotoSansDevanagari-Bold'])
    // A subset: the font file is 220 KB, the glyphs used a few KB.
    expect(fonts[2].fileBytes).toBeGreaterThan(0)
    expect(fonts[2].fileBytes).toBeLessThan(20_000)
    expect(res.rawPayload.length).toBeLessThan(40_000)
  })

  it('writes a Tamil name and council with a subset of Noto Sans Tamil, the Latin words beside them in Helvetica', async () => {
    const name = 'கார்த்திக் சுப்ரமணியன்'
    const student = await t.student({ name })
    const id = await event()
    const [{ id: tamilCouncil }] = await t.database.db
      .insert(schema.councils)
      .values({ slug: `tamil-${kind}`, name: 'தமிழ் மன்றம்' })
      .returning({ id: schema.councils.id })
    await t.database.db.update(schema.events).set({ organizerId: tamilCouncil }).where(eq(schema.events.id, id))
    await attend(id, student.id, true)
    const res = await download(id, student.auth)
    expect(res.statusCode, res.body).toBe(200)
    const { text, lines } = await pdfText(res.rawPayload)
    expect(text).not.toContain('?')
    expect(lines.map(letters)).toContain(letters(name))
    expect(lines.map(letters)).toContain(letters('organised by தமிழ் மன்றம், on 20–21 November 2026.'))
    const fonts = (await pdfFonts(res.rawPayload)).map((f) => f.name.replace(/-\d+$/, ''))
    expect(fonts).toEqual(['/Helvetica', '/Helvetica-Bold', '/NotoSansTamil-Bold', '/NotoSansTamil-Regular'])
  })

  it('writes Telugu, Gujarati, Gurmukhi and Odia names with their own Noto Sans subsets, not as ?', async () => {
    const names: [string, string][] = [
      ['శ్రీనివాస్ రెడ్డి', '/NotoSansTelugu-Bold'],
      ['હેમાંગ પટેલ', '/NotoSansGujarati-Bold'],
      ['ਗੁਰਪ੍ਰੀਤ ਸਿੰਘ', '/NotoSansGurmukhi-Bold'],
      ['ସୌମ୍ୟ ମହାପାତ୍ର', '/NotoSansOriya-Bold'],
    ]
    for (const [name, font] of names) {
      const student = await t.student({ name })
      const id = await event()
      await attend(id, student.id, true)
      const res = await download(id, student.auth)
      expect(res.statusCode, res.body).toBe(200)
      const { text, lines } = await pdfText(res.rawPayload)
      expect(text, name).not.toContain('?')
      expect(lines.map(letters), name).toContain(letters(name))
      const fonts = (await pdfFonts(res.rawPayload)).map((f) => f.name.replace(/-\d+$/, ''))
      expect(fonts, name).toEqual(['/Helvetica', '/Helvetica-Bold', font])
    }
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
      expect(page.body).toContain('Unknown verification code')
      expect(page.body).not.toContain('<script>')
      for (const accept of ['application/json', undefined]) {
        const json = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${code}`, headers: accept ? { accept } : {} })
        expect(json.statusCode).toBe(404)
        expect(json.json()).toEqual({ error: true, message: 'No certificate has this code.', code: 'UNKNOWN_CERTIFICATE' })
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
  it('splits a line into runs of one font, word by word: Latin-1 in the standard fonts (null), other words in the first script font that has them', async () => {
    // 0 Devanagari (with Latin Extended), 1 Tamil, 2 Bengali, 3 Kannada, 4 Malayalam, 5 Telugu, 6 Gujarati,
    // 7 Gurmukhi, 8 Odia
    const { fonts } = await scriptFonts()
    const runs = (text: string) => runsOf(text, fonts).map((r) => [r.text, r.font])
    expect(runs('Priya प्रिया')).toEqual([
      ['Priya ', null],
      ['प्रिया', 0],
    ])
    expect(runs('Łukasz Kowalski')).toEqual([
      ['Łukasz ', 0],
      ['Kowalski', null],
    ])
    expect(runs('Rāhul शर्मा, KJSCE')).toEqual([
      ['Rāhul शर्मा, ', 0],
      ['KJSCE', null],
    ])
    // The Tamil font has no comma: the word is split, the comma in Helvetica.
    expect(runs('தமிழ், 2026')).toEqual([
      ['தமிழ்', 1],
      [', 2026', null],
    ])
    expect(runs('অর্পিতা ಕನ್ನಡ മലയാളം')).toEqual([
      ['অর্পিতা ', 2],
      ['ಕನ್ನಡ ', 3],
      ['മലയാളം', 4],
    ])
    expect(runs('తెలుగు ગુજરાતી ਪੰਜਾਬੀ ଓଡ଼ିଆ')).toEqual([
      ['తెలుగు ', 5],
      ['ગુજરાતી ', 6],
      ['ਪੰਜਾਬੀ ', 7],
      ['ଓଡ଼ିଆ', 8],
    ])
    // No font here has Urdu (Arabic script).
    expect(runs('اردو')).toEqual([['????', null]])
  })
  it('fuzz: a certificate for names with characters of every Unicode general category, never an error (issue 21 item 3)', async () => {
    const categories = [
      'Lu',
      'Ll',
      'Lt',
      'Lm',
      'Lo',
      'Mn',
      'Mc',
      'Me',
      'Nd',
      'Nl',
      'No',
      'Pc',
      'Pd',
      'Ps',
      'Pe',
      'Pi',
      'Pf',
      'Po',
      'Sm',
      'Sc',
      'Sk',
      'So',
      'Zs',
      'Zl',
      'Zp',
      'Cc',
      'Cf',
      'Cs',
      'Co',
      'Cn',
    ]
    const patterns = categories.map((c) => [c, new RegExp(`^\\p{gc=${c}}$`, 'u')] as const)
    // Every code point's category, once (surrogates are one category: a lone half of a pair).
    const members = new Map<string, number[]>(categories.map((c) => [c, []]))
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp)
      for (const [c, re] of patterns)
        if (re.test(ch)) {
          members.get(c)!.push(cp)
          break
        }
    }
    expect(categories.filter((c) => members.get(c)!.length === 0)).toEqual([])
    // A fixed seed: the same names on every run (a failure can be replayed).
    let seed = 21
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const pick = (c: string) => {
      const list = members.get(c)!
      return String.fromCodePoint(list[random(list.length)])
    }
    const names: string[] = []
    for (const c of categories) {
      // The category's first and last code points, and random ones, between Latin and Devanagari letters.
      const list = members.get(c)!
      const edge = String.fromCodePoint(list[0]) + String.fromCodePoint(list[list.length - 1])
      names.push(`Asha ${edge} Rao`, `${pick(c)}${pick(c)} आशा ${pick(c)}Rao${pick(c)}`, Array.from({ length: 6 }, () => pick(c)).join(''))
    }
    names.push(categories.map(pick).join(''), categories.map(pick).join(' '))
    const logo = null
    const failures: string[] = []
    for (const name of names) {
      for (const field of ['name', 'event', 'council'] as const) {
        const certificate = {
          code: 'ABCDE12345',
          name: 'Asha Rao',
          event: 'RoboWars',
          council: 'Robotics Council',
          dates: ['2026-11-20T10:00:00+05:30'],
          [field]: name,
        }
        try {
          const pdf = await certificatePdf(certificate, { verifyUrl: 'http://app.test/api/v1/verify/ABCDE-12345', chapter: 'CSI-KJSCE chapter', logo })
          expect(pdf.length).toBeGreaterThan(500)
        } catch (err) {
          failures.push(`${field} ${JSON.stringify(name)}: ${(err as Error).message}`)
        }
      }
    }
    expect(failures).toEqual([])
  }, 120_000)

  it('the PDF’s text: whitespace of any kind one space, control and format characters gone, joiners of Indic scripts kept', () => {
    expect(pdfLine('\tAsha\r\n\u2028Rao\u3000 ')).toBe('Asha Rao')
    expect(pdfLine('A\u0000s\u0007h\u001ba\u200b\u202e R\u00adao\ufeff')).toBe('Asha Rao')
    expect(pdfLine('क्\u200dष')).toBe('क्\u200dष')
    expect(pdfLine('\u0085\u00a0Zoë\u2029')).toBe('Zoë')
  })

  it('reads codes the way people type them', () => {
    expect(normalCode('abcde-12345')).toBe('ABCDE12345')
    expect(normalCode('ABCDE 1234O')).toBe('ABCDE12340')
    expect(normalCode('ABCDE-1234')).toBeNull()
  })
})
