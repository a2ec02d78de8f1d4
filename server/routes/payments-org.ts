// The console's payments (contract/payments-org.ts, issue 35 items 3 and 6): an event's payments and totals, their
// CSV, a UPI payment confirmed or sent back, and a bank statement imported. Who may and every change are the
// repository's (server/db/payments/org.ts); refusals go through the one table (outcomes.ts).
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { STATEMENT_MAX_BYTES, type STATEMENT_REASONS } from '../../contract/payments-org.ts'
import type { OrgPayment } from '../../contract/types.ts'
import type { Config } from '../config.ts'
import { paymentsOrgRepository } from '../db/payments/org.ts'
import { loadLogo } from '../feeds/certificate-pdf.ts'
import { receiptPdf } from '../feeds/receipt-pdf.ts'
import { HttpError } from '../errors.ts'
import { readStatement, StatementError } from '../payments/statement.ts'
import { csvCell, csvLine } from './csv.ts'
import { declared } from './declare.ts'
import { CHAPTER } from './feeds.ts'
import { csvTime } from './org.ts'
import { refusal, valueOf } from './outcomes.ts'

const CSV_COLUMNS = [
  'Payment',
  'Student',
  'E-mail',
  'Student ID',
  'Kind',
  'Status',
  'Method',
  'Desk',
  'Amount (₹)',
  'Amount (paise)',
  'Reference',
  'UTR',
  'Razorpay order',
  'Razorpay payment',
  'Receipt',
  'Second payment of',
  'Held at',
  'Pay by',
  'UTR given at',
  'Paid at',
  'Refunded at',
]

/** A UTR or any long run of digits kept as text by a spreadsheet (it would keep 15 digits of a number). */
const asText = (digits: string | null) => (digits && /^\d{1,40}$/.test(digits) ? `"=""${digits}"""` : csvCell(digits))

function csvRow(p: OrgPayment): string {
  const cells = [
    csvCell(p.id),
    csvCell(p.student?.name ?? ''),
    csvCell(p.student?.email ?? ''),
    csvCell(p.student?.roll_number ?? ''),
    csvCell(p.kind),
    csvCell(p.status),
    csvCell(p.method ?? ''),
    csvCell(p.desk_mode ?? ''),
    csvCell((p.amount / 100).toFixed(2)),
    csvCell(p.amount),
    csvCell(p.reference),
    asText(p.utr),
    csvCell(p.razorpay_order_id ?? ''),
    csvCell(p.razorpay_payment_id ?? ''),
    csvCell(p.receipt ?? ''),
    csvCell(p.double_of ?? ''),
    csvCell(csvTime(p.created_at)),
    csvCell(csvTime(p.pay_by)),
    csvCell(csvTime(p.utr_at)),
    csvCell(csvTime(p.paid_at)),
    csvCell(csvTime(p.refunded_at)),
  ]
  return `${cells.join(',')}\r\n`
}

export const paymentsOrgRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const repo = paymentsOrgRepository(app.db)
  const writes = { rateLimit: app.rateLimits.writes }
  const logo = await loadLogo(config.staticDir)

  app.route({
    ...declared(CALLS.paymentReceipt),
    // Making a PDF costs a few milliseconds of CPU: counted with the caller's writes, as the certificate is.
    config: writes,
    handler: async (request, reply) => {
      const m = /^R-(\d{1,9})(?:\.pdf)?$/i.exec(request.params.receipt)
      if (!m) throw refusal('paymentNotFound')
      const receipt = valueOf(await repo.receipt(request.userId, Number(m[1])))
      const pdf = await receiptPdf(receipt, { chapter: CHAPTER, logo })
      return (reply as FastifyReply)
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="receipt-${receipt.receipt}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf))
    },
  })

  app.route({
    ...declared(CALLS.orgPayments),
    handler: async (request) => {
      const event = valueOf(await repo.manage(request.userId, request.body.event_id))
      return { error: false as const, payments: await repo.list(event.id), totals: await repo.totals(event) }
    },
  })

  app.route({
    ...declared(CALLS.orgPaymentsCsv),
    handler: async (request, reply) => {
      const { id } = request.params
      if (id === null) throw refusal('eventNotFound')
      const event = valueOf(await repo.manage(request.userId, id))
      const rows = await repo.list(event.id)
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="payments-${event.id}.csv"`)
        .header('cache-control', 'no-store')
      return `\uFEFF${csvLine(CSV_COLUMNS)}${rows.map(csvRow).join('')}`
    },
  })

  app.route({
    ...declared(CALLS.orgPaymentConfirm),
    config: writes,
    handler: async (request) => {
      const { event_id, payment_id } = request.body
      valueOf(await repo.manage(request.userId, event_id))
      return { error: false as const, ...valueOf(await repo.confirm(request.userId, event_id, payment_id)) }
    },
  })

  app.route({
    ...declared(CALLS.orgPaymentReject),
    config: writes,
    handler: async (request) => {
      const { event_id, payment_id } = request.body
      valueOf(await repo.manage(request.userId, event_id))
      return { error: false as const, payment: valueOf(await repo.reject(request.userId, event_id, payment_id)) }
    },
  })

  // The statement's upload: the file's bytes as the body (text/csv as a browser sends a .csv, or plain text), read
  // whole before anything is written, so a file that cannot be read writes nothing.
  await app.register(statementRoute)
}

/** The statement import, in a scope of its own: its body is the file's bytes, not JSON. */
const statementRoute: FastifyPluginAsyncZod = async (upload) => {
  const repo = paymentsOrgRepository(upload.db)
  const writes = { rateLimit: upload.rateLimits.writes }
  upload.removeAllContentTypeParsers()
  upload.addContentTypeParser(
    ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: STATEMENT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  )
  upload.route({
    ...declared(CALLS.orgPaymentsStatement),
    config: writes,
    handler: async (request) => {
      const { id } = request.params
      if (id === null) throw refusal('eventNotFound')
      const event = valueOf(await repo.manage(request.userId, id))
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      let rows: ReturnType<typeof readStatement>
      try {
        if (raw.length === 0) throw new StatementError('The statement is empty: choose the CSV file your bank gave you.')
        rows = readStatement(raw)
      } catch (err) {
        if (err instanceof StatementError) throw new HttpError(400, 'STATEMENT_UNREADABLE', err.message)
        throw err
      }
      const confirmed: { line: number; utr: string; amount: number; payment_id: number; result: 'paid' | 'refunding' }[] = []
      const unmatched: { line: number; utr: string | null; amount: number | null; reason: (typeof STATEMENT_REASONS)[number] }[] = []
      // One query for the whole file: a row whose UTR no payment of the event and no confirmation has is NO_PAYMENT
      // without a transaction of its own (a statement is mostly other credits).
      const candidates = await repo.statementCandidates(
        event.id,
        rows.flatMap((r) => (r.problem === null && r.utr ? [r.utr] : [])),
      )
      for (const row of rows) {
        if (row.problem || row.utr === null || row.amount === null) {
          unmatched.push({ line: row.line, utr: row.utr, amount: row.amount, reason: row.problem ?? 'BAD_AMOUNT' })
          continue
        }
        if (!candidates.has(row.utr)) {
          unmatched.push({ line: row.line, utr: row.utr, amount: row.amount, reason: 'NO_PAYMENT' })
          continue
        }
        const match = await repo.matchStatementRow(request.userId, event.id, row.utr, row.amount)
        if (match.result === 'paid' || match.result === 'refunding')
          confirmed.push({ line: row.line, utr: row.utr, amount: row.amount, payment_id: match.paymentId, result: match.result })
        else unmatched.push({ line: row.line, utr: row.utr, amount: row.amount, reason: match.result })
      }
      request.log.info({ event: event.id, confirmed: confirmed.length, unmatched: unmatched.length }, 'statement imported')
      return { error: false as const, confirmed, unmatched }
    },
  })
}
