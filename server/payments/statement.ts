// A bank statement's CSV as the treasurer downloads it (issue 35 item 3), read into the credits it lists: the header
// row is found by the names banks give their columns (a few lines of account details often come first), the UTR
// taken from its column (the 12 digits, wherever they sit in the cell: "UPI/412345678901/..." too), the amount in
// rupees made whole paise without a float. Pure: no database, no HTTP; a file it cannot read is a StatementError
// with the words the treasurer reads.

export class StatementError extends Error {}

/** One statement row with a UTR column: its line in the file, the UTR found in it and the credit in paise. */
export interface StatementRow {
  line: number
  utr: string | null
  /** Paise; null when the row credits nothing (a debit) or its amount cannot be read. */
  amount: number | null
  problem: 'NO_UTR' | 'NOT_A_CREDIT' | 'BAD_AMOUNT' | null
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()

// Best first: a UTR column is preferred to a reference column, a credit column to an amount column.
const UTR_HEADERS = ['utr', 'utr no', 'utr number', 'upi ref no', 'upi ref', 'upi reference', 'upi reference no', 'upi transaction id', 'rrn']
const REF_HEADERS = ['reference', 'reference no', 'ref no', 'chq ref no', 'cheque ref no', 'transaction id', 'txn id', 'transaction reference']
const AMOUNT_HEADERS = [
  'credit',
  'credit amount',
  'credit amt',
  'cr amount',
  'deposit',
  'deposit amount',
  'deposits',
  'amount',
  'amount inr',
  'amount rs',
  'txn amount',
  'transaction amount',
]

/** A column saying which way the money went, where one amount column holds both (ICICI's "Cr/Dr"). */
const DIRECTION_HEADERS = ['cr dr', 'dr cr', 'type', 'transaction type', 'txn type', 'debit credit']

const MAX_ROWS = 20_000

/** The cells of a CSV (RFC 4180: quotes, doubled quotes, CRLF or LF, commas inside quotes), line numbers kept. */
export function csvRows(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = []
  let cells: string[] = []
  let cell = ''
  let quoted = false
  let line = 1
  let start = 1
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else {
        if (c === '\n') line++
        cell += c
      }
      continue
    }
    if (c === '"' && cell.trim() === '') {
      cell = ''
      quoted = true
    } else if (c === ',') {
      cells.push(cell)
      cell = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      cells.push(cell)
      rows.push({ line: start, cells })
      if (rows.length > MAX_ROWS) throw new StatementError(`The statement has more than ${MAX_ROWS.toLocaleString('en-IN')} rows: import it a month at a time.`)
      cells = []
      cell = ''
      line++
      start = line
    } else cell += c
  }
  if (quoted) throw new StatementError(`The statement could not be read: a quote opened on line ${start} is never closed.`)
  if (cell !== '' || cells.length > 0) {
    cells.push(cell)
    rows.push({ line: start, cells })
  }
  return rows
}

/** Rupees as a bank writes them ("1,250.00", "₹300", "300", "INR 49.5", "300 Cr") in paise; null when not a credit amount. */
export function paiseOf(text: string): number | null {
  const s = text
    .replace(/₹|inr|rs\.?|cr\.?$/gi, '')
    .replace(/[,\s]/g, '')
    .trim()
  const m = /^\+?(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s)
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

function columnOf(headers: string[], names: string[]): number {
  for (const name of names) {
    const i = headers.indexOf(name)
    if (i >= 0) return i
  }
  return -1
}

/**
 * The statement's rows: the header row is the first of the first 30 naming a UTR (or reference) column and an amount
 * column; every row after it with any cell is a row. A file without such a header, or with no row, is refused.
 */
export function readStatement(bytes: Buffer): StatementRow[] {
  if (bytes.includes(0)) throw new StatementError('The statement is not a CSV file: export it from your bank as CSV and upload that.')
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '')
  if (text.includes('\uFFFD')) throw new StatementError('The statement is not UTF-8 text: export it from your bank as CSV and upload that.')
  const rows = csvRows(text)
  let head = -1
  let utrAt = -1
  let amountAt = -1
  let directionAt = -1
  for (let i = 0; i < Math.min(rows.length, 30) && head < 0; i++) {
    const names = rows[i].cells.map(norm)
    const u = columnOf(names, UTR_HEADERS) >= 0 ? columnOf(names, UTR_HEADERS) : columnOf(names, REF_HEADERS)
    const a = columnOf(names, AMOUNT_HEADERS)
    if (u >= 0 && a >= 0) [head, utrAt, amountAt, directionAt] = [i, u, a, columnOf(names, DIRECTION_HEADERS)]
  }
  if (head < 0)
    throw new StatementError(
      'No header row names a UTR column (UTR, UPI Ref No, Reference or Transaction ID) and an amount column (Amount, Credit or Deposit): check the file is the bank statement’s CSV.',
    )
  const out: StatementRow[] = []
  for (const { line, cells } of rows.slice(head + 1)) {
    if (cells.every((c) => c.trim() === '')) continue
    // Some banks pad the reference with zeros to 16 digits (HDFC's Chq./Ref.No.): the UTR is its last 12.
    const utr = /(?<!\d)0*(\d{12})(?!\d)/.exec(cells[utrAt] ?? '')?.[1] ?? null
    const raw = (cells[amountAt] ?? '').trim()
    const amount = raw === '' ? null : paiseOf(raw)
    const debit = directionAt >= 0 && /^\s*(dr|debit|d)\b/i.test(cells[directionAt] ?? '')
    const problem = !utr ? 'NO_UTR' : raw === '' || amount === 0 || debit ? 'NOT_A_CREDIT' : amount === null ? 'BAD_AMOUNT' : null
    out.push({ line, utr, amount: debit ? null : amount || null, problem })
  }
  if (out.length === 0) throw new StatementError('The statement has a header row but no transactions below it.')
  return out
}
