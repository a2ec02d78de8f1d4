// The participation certificate: one A4 landscape page made with pdf-lib, with the chapter's logo (the app icon,
// public/icons/icon-192.png), the student's name, the event, its council and date, and the verification code
// and address. The standard fonts need no file and keep the PDF small (~10 KB plus the logo); they cover
// Latin-1, so other characters are written as their closest Latin letter, or '?' (see latin()).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { TIME_ZONE } from '../../contract/constants.ts'
import type { Certificate } from '../db/feeds.ts'
import { printedCode } from './secrets.ts'

const RED = rgb(0.784, 0.063, 0.18) // #c8102e, the logo's red
const INK = rgb(0.12, 0.12, 0.14)
const MUTED = rgb(0.38, 0.38, 0.42)

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

/** The event's date, or its first to last date, as an Indian reader writes it: "21–22 November 2026". */
export function certificateDate(dates: string[]): string {
  const times = dates.map((d) => Date.parse(d)).filter(Number.isFinite)
  if (times.length === 0) return ''
  const format = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: TIME_ZONE })
  const first = Math.min(...times)
  const last = Math.max(...times)
  return format.format(first) === format.format(last) ? format.format(first) : format.formatRange(first, last)
}

/** Writes `text` centred at height `y`, shrunk until it fits `maxWidth`. */
function centred(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color = INK, maxWidth = 700) {
  let s = size
  while (s > 8 && font.widthOfTextAtSize(text, s) > maxWidth) s -= 1
  const width = font.widthOfTextAtSize(text, s)
  page.drawText(text, { x: (page.getWidth() - width) / 2, y, size: s, font, color })
}

export async function certificatePdf(c: Certificate, options: { verifyUrl: string; chapter: string; logo: Uint8Array | null }): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const title = latin(`Certificate of participation: ${c.name}, ${c.event}`)
  pdf.setTitle(title)
  pdf.setAuthor(latin(options.chapter))
  pdf.setSubject(latin(`Verification code ${printedCode(c.code)}`))
  pdf.setCreator('Campus Events')
  pdf.setProducer('Campus Events')
  const page = pdf.addPage([842, 595]) // A4 landscape, in points
  const [regular, bold] = await Promise.all([pdf.embedFont(StandardFonts.Helvetica), pdf.embedFont(StandardFonts.HelveticaBold)])
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
  centred(page, latin(options.chapter), y - 24, regular, 13, MUTED)
  centred(page, 'Certificate of Participation', y - 70, bold, 34, RED)
  centred(page, 'This is to certify that', y - 116, regular, 15, MUTED)
  centred(page, latin(c.name), y - 160, bold, 30)
  centred(page, 'took part in', y - 196, regular, 15, MUTED)
  centred(page, latin(c.event), y - 234, bold, 24)
  const date = certificateDate(c.dates)
  centred(page, latin(`organised by ${c.council}${date ? `, on ${date}` : ''}.`), y - 268, regular, 15, MUTED)

  centred(page, `Verification code: ${printedCode(c.code)}`, 78, bold, 12)
  centred(page, `Check it at ${options.verifyUrl}`, 60, regular, 10, MUTED)
  return pdf.save()
}
