// The participation certificate: one A4 landscape page made with pdf-lib, with the chapter's logo (the app icon,
// public/icons/icon-192.png), the student's name, the event, its council and date, and the verification code
// and address. The standard fonts need no file and keep the PDF small (~10 KB plus the logo); they cover
// Latin-1. Words they cannot write (a name in Hindi or Marathi, Tamil, Bengali, Kannada, Malayalam, Telugu,
// Gujarati, Punjabi in Gurmukhi, Odia, or with a Latin letter beyond Latin-1 such as Ł) are written with Noto
// Sans for their script instead, embedded as a subset and shaped (certificate-fonts.ts, loaded on the first such
// name; see runsOf()). Characters no font here has (Urdu, Chinese, …) are written as their closest Latin letter,
// or '?' (latin()).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
// pdf-lib (about 25 MB resident) is loaded at the first certificate, not at start (issue 15 item 6).
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib'
import { TIME_ZONE } from '../../contract/constants.ts'
import type { Certificate } from '../db/events/feeds.ts'
import { printedCode } from './secrets.ts'

/** The logo's bytes: from the built app (STATIC_DIR), else from public/ in a checkout; null when neither exists. */
export async function loadLogo(staticDir: string | undefined): Promise<Uint8Array | null> {
  const candidates = [
    ...(staticDir ? [join(staticDir, 'icons/icon-192.png')] : []),
    fileURLToPath(new URL('../../public/icons/icon-192.png', import.meta.url)),
    fileURLToPath(new URL('../../../public/icons/icon-192.png', import.meta.url)),
  ]
  for (const file of candidates) {
    try {
      return await readFile(file)
    } catch {}
  }
  return null
}

// WinAnsi (the standard fonts' encoding) beyond Latin-1.
const WIN_ANSI_EXTRA = '–—‘’‚“”„•…€'

/** Text the standard fonts can write: accents kept where Latin-1 has them, else dropped; anything else '?'. */
export function latin(text: string): string {
  return [...text]
    .map((c) => {
      const code = c.codePointAt(0)!
      if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(c)) return c
      const bare = c.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
      return /^[\x20-\x7e]+$/.test(bare) ? bare : '?'
    })
    .join('')
}

/**
 * A line of the student's text as the PDF writes it (issue 21 item 3: a tab, CR/LF, U+2028, U+2003 or U+3000 in a
 * name was a 500, "WinAnsi cannot encode"): any run of whitespace or separators one space, control, format and
 * surrogate characters dropped (the zero-width joiners, which Indic words need, kept), the ends trimmed. Only the
 * PDF's copy: the stored name stays as the student wrote it.
 */
export function pdfLine(text: string): string {
  return text
    .replace(/[\s\p{Z}\u0085]+/gu, ' ')
    .replace(/[\p{Cc}\p{Cs}]|(?![\u200c\u200d])\p{Cf}/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim()
}

/** The event's date, or its first to last date, as an Indian reader writes it: "21–22 November 2026". */
export function certificateDate(dates: string[]): string {
  const times = dates.map((d) => Date.parse(d)).filter(Number.isFinite)
  if (times.length === 0) return ''
  const format = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: TIME_ZONE })
  const first = Math.min(...times)
  const last = Math.max(...times)
  return format.format(first) === format.format(last) ? format.format(first) : format.formatRange(first, last)
}

/** A part of a line in one font. */
export interface Run<F> {
  text: string
  font: F
}

/**
 * Splits a line into runs of one font each (`null`: the standard fonts; a number: that script font), word by word
 * so that a word keeps one typeface: a word the standard fonts can write stays in them; any other word goes whole
 * to the first script font that has every character of it, else character by character, a combining sign with
 * the letter before it. Spaces go with the word before them when its font has them. A character no font has is
 * written as latin() writes it.
 */
export function runsOf(text: string, fonts: { covers(char: string): boolean }[]): Run<number | null>[] {
  const runs: Run<number | null>[] = []
  const push = (t: string, font: number | null) => {
    const last = runs.at(-1)
    if (last && last.font === font) last.text += t
    else runs.push({ text: t, font })
  }
  const fontBefore = () => runs.at(-1)?.font ?? null
  for (const token of text.split(/(\s+)/)) {
    if (!token) continue
    const chars = [...token]
    if (/^\s+$/.test(token)) {
      const before = fontBefore()
      push(token, before !== null && chars.every((c) => fonts[before].covers(c)) ? before : null)
    } else if (latin(token) === token) push(token, null)
    else {
      const whole = fonts.findIndex((f) => chars.every((c) => f.covers(c)))
      if (whole >= 0) push(token, whole)
      else
        for (const c of chars) {
          const before = fontBefore()
          if (/[\p{M}\u200c\u200d]/u.test(c) && before !== null && fonts[before].covers(c)) push(c, before)
          else if (latin(c) === c) push(c, null)
          else {
            const found = fonts.findIndex((f) => f.covers(c))
            if (found >= 0) push(c, found)
            else push(latin(c), null)
          }
        }
    }
  }
  return runs
}

/** Writes the runs of a line centred at height `y`, shrunk until it fits `maxWidth`. */
export function centred(page: PDFPage, runs: Run<PDFFont>[], y: number, size: number, color: Color, maxWidth = 700) {
  const widthAt = (s: number) => runs.reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, s), 0)
  let s = size
  while (s > 8 && widthAt(s) > maxWidth) s -= 1
  let x = (page.getWidth() - widthAt(s)) / 2
  for (const r of runs) {
    page.drawText(r.text, { x, y, size: s, font: r.font, color })
    x += r.font.widthOfTextAtSize(r.text, s)
  }
}

export type Weight = 'regular' | 'bold'

/**
 * The mark-positioning features left out. @pdf-lib/fontkit fails on some words of the Telugu and Gurmukhi fonts
 * ("Cannot read properties of null (reading 'xCoordinate')": a mark anchor its GPOS reader leaves null, as in
 * శ్రీనివాస్ or ਗੁਰਪ੍ਰੀਤ); without these features the word is still shaped (conjuncts, reordering), its marks
 * at the font's default place.
 */
const UNPOSITIONED_MARKS: Record<string, boolean> = { abvm: false, blwm: false, mark: false, mkmk: false, dist: false }

/**
 * Writes lines of people's text (names, events, councils) in a PDF: in the standard fonts where they can write them,
 * else in the script fonts (loaded only when `lines` need them), embedded once per font. The certificate and the
 * activity points transcript (transcript-pdf.ts) both write with it.
 */
export async function textWriter(pdf: PDFDocument, standard: Record<Weight, PDFFont>, lines: string[]) {
  const fixed = (text: string, weight: Weight): Run<PDFFont>[] => [{ text, font: standard[weight] }]
  // The script fonts only when a line needs them: Latin-1 documents stay as small and quick as before.
  const scripts = lines.some((text) => latin(text) !== text) ? await (await import('./certificate-fonts.ts')).scriptFonts() : null
  if (scripts) pdf.registerFontkit(scripts.fontkit)
  const embedded = new Map<string, PDFFont>()
  /** Whether fontkit lays the text out in this font (with these features), tried before the font is embedded. */
  const shapes = (bytes: Uint8Array, text: string, features?: Record<string, boolean>) => {
    try {
      scripts!.fontkit.create(bytes).layout(text, features && { ...features })
      return true
    } catch {
      return false
    }
  }
  /** A line of the student's text in the standard fonts where they can write it, else in the script fonts. */
  async function text(line: string, weight: Weight): Promise<Run<PDFFont>[]> {
    if (!scripts || latin(line) === line) return fixed(latin(line), weight)
    const runs: Run<PDFFont>[] = []
    for (const run of runsOf(line, scripts.fonts)) {
      if (run.font === null) {
        runs.push({ text: run.text, font: standard[weight] })
        continue
      }
      const bytes = scripts.fonts[run.font].bytes[weight]
      // A word fontkit cannot position is written with its marks where the font puts them by default, and one it
      // cannot lay out at all in the standard font as latin() writes it: a certificate, never a 500.
      const marks = shapes(bytes, run.text) ? 'positioned' : shapes(bytes, run.text, UNPOSITIONED_MARKS) ? 'unpositioned' : null
      if (marks === null) {
        runs.push({ text: latin(run.text), font: standard[weight] })
        continue
      }
      const key = `${run.font}-${weight}-${marks}`
      let font = embedded.get(key)
      if (!font) {
        font = await pdf.embedFont(bytes, { subset: true, ...(marks === 'unpositioned' ? { features: { ...UNPOSITIONED_MARKS } } : {}) })
        embedded.set(key, font)
      }
      runs.push({ text: run.text, font })
    }
    return runs
  }
  return { fixed, text }
}

export async function certificatePdf(c: Certificate, options: { verifyUrl: string; chapter: string; logo: Uint8Array | null }): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib')
  const RED = rgb(0.784, 0.063, 0.18) // #c8102e, the logo's red
  const INK = rgb(0.12, 0.12, 0.14)
  const MUTED = rgb(0.38, 0.38, 0.42)
  const pdf = await PDFDocument.create()
  const clean = { name: pdfLine(c.name), event: pdfLine(c.event), council: pdfLine(c.council), chapter: pdfLine(options.chapter) }
  // PDF metadata is UTF-16: any script as it is.
  pdf.setTitle(`Certificate of participation: ${clean.name}, ${clean.event}`)
  pdf.setAuthor(clean.chapter)
  pdf.setSubject(`Verification code ${printedCode(c.code)}`)
  pdf.setCreator('Campus Events')
  pdf.setProducer('Campus Events')
  const page = pdf.addPage([842, 595]) // A4 landscape, in points
  const standard: Record<Weight, PDFFont> = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  }
  const date = certificateDate(c.dates)
  const lines = {
    chapter: clean.chapter,
    name: clean.name,
    event: clean.event,
    organised: `organised by ${clean.council}${date ? `, on ${date}` : ''}.`,
  }
  const { fixed, text } = await textWriter(pdf, standard, Object.values(lines))
  const width = page.getWidth()
  const height = page.getHeight()

  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: RED, borderWidth: 3 })
  page.drawRectangle({ x: 32, y: 32, width: width - 64, height: height - 64, borderColor: RED, borderWidth: 0.75 })

  let y = height - 72
  if (options.logo) {
    const logo = await pdf.embedPng(options.logo)
    page.drawImage(logo, { x: (width - 64) / 2, y: y - 64, width: 64, height: 64 })
    y -= 64
  }
  centred(page, await text(lines.chapter, 'regular'), y - 24, 13, MUTED)
  centred(page, fixed('Certificate of Participation', 'bold'), y - 70, 34, RED)
  centred(page, fixed('This is to certify that', 'regular'), y - 116, 15, MUTED)
  centred(page, await text(lines.name, 'bold'), y - 160, 30, INK)
  centred(page, fixed('took part in', 'regular'), y - 196, 15, MUTED)
  centred(page, await text(lines.event, 'bold'), y - 234, 24, INK)
  centred(page, await text(lines.organised, 'regular'), y - 268, 15, MUTED)

  centred(page, fixed(`Verification code: ${printedCode(c.code)}`, 'bold'), 78, 12, INK)
  centred(page, fixed(`Check it at ${options.verifyUrl}`, 'regular'), 60, 10, MUTED)
  return pdf.save()
}
