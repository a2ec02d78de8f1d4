// A paid place's receipt (issue 35 item 6): one A5 page made with pdf-lib as the certificate is (certificate-pdf.ts:
// the same logo, the standard fonts, and Noto Sans for Indian scripts through textWriter): the receipt number, the
// event, the student, the amount in rupees, how it was paid, when, and the council that received it. The standard
// fonts cannot write ₹: the amount reads "Rs. 300.00".
import type { Color, PDFFont, PDFPage } from 'pdf-lib'
import { TIME_ZONE } from '../../contract/constants.ts'
import { pdfLine, type Run, textWriter } from './certificate-pdf.ts'

export interface Receipt {
  receipt: string
  event: string
  council: string
  student: string
  email: string
  roll: string | null
  amount: number
  method: 'RAZORPAY' | 'UPI' | 'DESK'
  deskMode: 'CASH' | 'UPI' | null
  /** The UTR or Razorpay's payment id: what the student's bank shows. */
  reference: string | null
  paidAt: Date
  status: string
}

const METHOD_WORDS = { RAZORPAY: 'Online (Razorpay)', UPI: 'UPI to the council', DESK: 'At the desk' } as const

/** Paise as the receipt writes them: Rs. 1,250.00. */
export const receiptAmount = (paise: number) => `Rs. ${Math.floor(paise / 100).toLocaleString('en-IN')}.${String(paise % 100).padStart(2, '0')}`

function write(page: PDFPage, runs: Run<PDFFont>[], x: number, y: number, size: number, color: Color, maxWidth: number) {
  const widthAt = (s: number) => runs.reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, s), 0)
  let s = size
  while (s > 6 && widthAt(s) > maxWidth) s -= 0.5
  let cx = x
  for (const r of runs) {
    page.drawText(r.text, { x: cx, y, size: s, font: r.font, color })
    cx += r.font.widthOfTextAtSize(r.text, s)
  }
}

export async function receiptPdf(r: Receipt, options: { chapter: string; logo: Uint8Array | null }): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib')
  const RED = rgb(0.784, 0.063, 0.18)
  const INK = rgb(0.12, 0.12, 0.14)
  const MUTED = rgb(0.38, 0.38, 0.42)
  const RULE = rgb(0.85, 0.85, 0.87)
  const pdf = await PDFDocument.create()
  const clean = {
    event: pdfLine(r.event),
    council: pdfLine(r.council),
    student: pdfLine(r.student),
    chapter: pdfLine(options.chapter),
    email: pdfLine(r.email),
    roll: pdfLine(r.roll ?? ''),
    reference: pdfLine(r.reference ?? ''),
  }
  pdf.setTitle(`Receipt ${r.receipt}: ${clean.event}`)
  pdf.setAuthor(clean.council)
  pdf.setCreator('Campus Events')
  pdf.setProducer('Campus Events')
  const standard = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) }
  const { fixed, text } = await textWriter(pdf, standard, Object.values(clean))
  const page = pdf.addPage([420, 595]) // A5 portrait
  const width = page.getWidth()
  const margin = 36
  let y = page.getHeight() - margin
  if (options.logo) {
    page.drawImage(await pdf.embedPng(options.logo), { x: margin, y: y - 40, width: 40, height: 40 })
  }
  write(page, await text(clean.council, 'bold'), margin + 52, y - 16, 13, INK, width - 2 * margin - 52)
  write(page, await text(clean.chapter, 'regular'), margin + 52, y - 32, 9, MUTED, width - 2 * margin - 52)
  y -= 76
  write(page, fixed('Payment receipt', 'bold'), margin, y, 22, RED, width - 2 * margin)
  write(page, fixed(r.receipt, 'bold'), margin, y - 22, 12, INK, width - 2 * margin)
  y -= 44
  page.drawLine({ start: { x: margin, y }, end: { x: width - margin, y }, thickness: 0.75, color: RULE })
  const paid = new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeStyle: 'short', timeZone: TIME_ZONE }).format(r.paidAt)
  const rows: [string, Run<PDFFont>[]][] = [
    ['Received from', await text(clean.student, 'bold')],
    ['E-mail', await text(clean.email, 'regular')],
    ...(r.roll ? ([['Student ID', await text(clean.roll, 'regular')]] as [string, Run<PDFFont>[]][]) : []),
    ['For', await text(clean.event, 'bold')],
    ['Amount', fixed(receiptAmount(r.amount), 'bold')],
    ['Paid', fixed(`${METHOD_WORDS[r.method]}${r.deskMode ? `, ${r.deskMode === 'CASH' ? 'cash' : 'UPI'}` : ''}`, 'regular')],
    ...(r.reference ? ([['Reference', await text(clean.reference, 'regular')]] as [string, Run<PDFFont>[]][]) : []),
    ['On', fixed(`${paid} (IST)`, 'regular')],
    ['Received by', await text(clean.council, 'regular')],
  ]
  for (const [label, value] of rows) {
    y -= 26
    write(page, fixed(label, 'regular'), margin, y, 10, MUTED, 100)
    write(page, value, margin + 110, y, 12, INK, width - 2 * margin - 110)
  }
  if (r.status === 'REFUND_PENDING' || r.status === 'REFUNDED') {
    y -= 40
    write(
      page,
      fixed(r.status === 'REFUNDED' ? 'This payment was refunded.' : 'This payment is being refunded.', 'bold'),
      margin,
      y,
      12,
      RED,
      width - 2 * margin,
    )
  }
  write(page, fixed('A receipt made by Campus Events for the council named above.', 'regular'), margin, margin, 8, MUTED, width - 2 * margin)
  return pdf.save()
}
