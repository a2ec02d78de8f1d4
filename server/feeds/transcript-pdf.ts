// The activity points transcript (issue 26): A4 portrait pages made with pdf-lib as the certificate is
// (certificate-pdf.ts: the same logo, standard fonts, and Noto Sans for Indian scripts through textWriter), listing
// every entry of the student's record with its verification code, which the public /verify page confirms.
import type { Color, PDFFont, PDFPage } from 'pdf-lib'
import { TIME_ZONE } from '../../contract/constants.ts'
import type { PointKind } from '../../contract/points.ts'
import type { Transcript } from '../db/points/points.ts'
import { branchFromWire } from '../../contract/profile-options.ts'
import { centred, certificateDate, latin, pdfLine, type Run, textWriter } from './certificate-pdf.ts'
import { printedCode } from './secrets.ts'

export const KIND_LABELS: Record<PointKind, string> = { ATTENDED: 'Attended', WINNER: 'Winner', VOLUNTEER: 'Volunteer', ORGANISER: 'Organiser' }

const MARGIN = 40
const ROW = 30

/** Writes runs from x at y, shrunk until they fit `maxWidth`, then cut with an ellipsis at 7 pt. */
function left(page: PDFPage, runs: Run<PDFFont>[], x: number, y: number, size: number, color: Color, maxWidth: number) {
  const widthAt = (s: number) => runs.reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, s), 0)
  let s = size
  while (s > 7 && widthAt(s) > maxWidth) s -= 0.5
  let cx = x
  for (const r of runs) {
    let t = r.text
    // Cut to fit; the ellipsis only where the standard fonts write the text (a script font's subset may lack it).
    const ellipsis = latin(r.text) === r.text ? '…' : ''
    while (t.length > 1 && cx + r.font.widthOfTextAtSize(t, s) > x + maxWidth) t = [...t].slice(0, ellipsis ? -2 : -1).join('') + ellipsis
    page.drawText(t, { x: cx, y, size: s, font: r.font, color })
    cx += r.font.widthOfTextAtSize(t, s)
    if (cx >= x + maxWidth) break
  }
}

export async function transcriptPdf(t: Transcript, options: { verifyBase: string; chapter: string; logo: Uint8Array | null; now?: Date }): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib')
  const RED = rgb(0.784, 0.063, 0.18)
  const INK = rgb(0.12, 0.12, 0.14)
  const MUTED = rgb(0.38, 0.38, 0.42)
  const RULE = rgb(0.85, 0.85, 0.87)
  const pdf = await PDFDocument.create()
  const name = pdfLine(t.name)
  pdf.setTitle(`Activity points transcript: ${name}`)
  pdf.setAuthor(pdfLine(options.chapter))
  pdf.setCreator('Campus Events')
  pdf.setProducer('Campus Events')
  const standard = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) }
  const lines = [
    name,
    options.chapter,
    ...t.entries.flatMap((e) => [pdfLine(e.event.name), pdfLine(e.event.council), pdfLine(e.category), pdfLine(e.title ?? '')]),
  ]
  const { fixed, text } = await textWriter(pdf, standard, lines)
  const logo = options.logo ? await pdf.embedPng(options.logo) : null
  const issued = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: TIME_ZONE }).format(options.now ?? new Date())

  let page = pdf.addPage([595, 842])
  const width = page.getWidth()
  let y = page.getHeight() - MARGIN
  if (logo) page.drawImage(logo, { x: MARGIN, y: y - 48, width: 48, height: 48 })
  left(page, await text(pdfLine(options.chapter), 'regular'), MARGIN + 60, y - 16, 11, MUTED, width - 2 * MARGIN - 60)
  left(page, fixed('Activity points transcript', 'bold'), MARGIN + 60, y - 40, 20, RED, width - 2 * MARGIN - 60)
  y -= 76
  left(page, await text(name, 'bold'), MARGIN, y, 16, INK, width - 2 * MARGIN)
  y -= 18
  const about = [
    t.roll_number ? `Student ID ${t.roll_number}` : null,
    t.branch ? branchFromWire(t.branch) : null,
    t.year ? `graduating ${t.year}` : null,
    t.record.lateral_entry ? 'lateral entry' : null,
  ].filter(Boolean)
  if (about.length > 0) left(page, await text(pdfLine(about.join(' · ')), 'regular'), MARGIN, y, 10, MUTED, width - 2 * MARGIN)
  y -= 26
  left(page, fixed(`Activity points: ${t.record.total} of ${t.record.target}`, 'bold'), MARGIN, y, 14, INK, width - 2 * MARGIN)
  y -= 16
  const categories = t.record.by_category.filter((c) => c.points > 0).map((c) => `${pdfLine(c.category)} ${c.points}`)
  if (categories.length > 0) left(page, await text(categories.join(' · '), 'regular'), MARGIN, y, 10, MUTED, width - 2 * MARGIN)
  y -= 14
  left(
    page,
    fixed(`Issued ${issued}. Each entry is computed from the door's check-ins, the event's roles and its winners.`, 'regular'),
    MARGIN,
    y,
    9,
    MUTED,
    width - 2 * MARGIN,
  )
  y -= 24

  // Columns: event (and council, date), category, role, points, code.
  const cols = { event: MARGIN, category: MARGIN + 235, role: MARGIN + 335, points: MARGIN + 400, code: MARGIN + 440 }
  const header = (p: PDFPage, at: number) => {
    for (const [key, label] of [
      ['event', 'Event'],
      ['category', 'Category'],
      ['role', 'Role'],
      ['points', 'Points'],
      ['code', 'Verification code'],
    ] as const)
      left(p, fixed(label, 'bold'), cols[key], at, 9, MUTED, 100)
    p.drawLine({ start: { x: MARGIN, y: at - 6 }, end: { x: width - MARGIN, y: at - 6 }, thickness: 0.75, color: RULE })
  }
  header(page, y)
  y -= 22
  if (t.entries.length === 0) left(page, fixed('No activity points yet.', 'regular'), MARGIN, y, 10, MUTED, width - 2 * MARGIN)
  for (const e of t.entries) {
    if (y < MARGIN + 50) {
      page = pdf.addPage([595, 842])
      y = page.getHeight() - MARGIN
      header(page, y)
      y -= 22
    }
    left(page, await text(pdfLine(e.event.name), 'bold'), cols.event, y, 10, INK, 225)
    const when = certificateDate(e.event.dates)
    left(page, await text(pdfLine(`${e.event.council}${when ? `, ${when}` : ''}`), 'regular'), cols.event, y - 11, 8, MUTED, 225)
    left(page, await text(pdfLine(e.category), 'regular'), cols.category, y, 9, INK, 95)
    const role = `${KIND_LABELS[e.kind]}${e.days !== null ? ` (${e.days} day${e.days === 1 ? '' : 's'})` : ''}`
    left(page, fixed(role, 'regular'), cols.role, y, 9, INK, 62)
    if (e.title) left(page, await text(pdfLine(e.title), 'regular'), cols.role, y - 11, 8, MUTED, 62)
    left(page, fixed(String(e.points), 'bold'), cols.points, y, 10, INK, 36)
    left(page, fixed(printedCode(e.code), 'regular'), cols.code, y, 9, INK, width - MARGIN - cols.code)
    page.drawLine({ start: { x: MARGIN, y: y - 17 }, end: { x: width - MARGIN, y: y - 17 }, thickness: 0.5, color: RULE })
    y -= ROW
  }
  const pages = pdf.getPages()
  pages.forEach((p, i) =>
    centred(p, fixed(`Check any code at ${options.verifyBase}/CODE · page ${i + 1} of ${pages.length}`, 'regular'), 24, 8, MUTED, width - 2 * MARGIN),
  )
  return pdf.save()
}
