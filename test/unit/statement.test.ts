// A bank statement's CSV read into credits (server/payments/statement.ts, issue 35 item 3): amounts as banks write
// them made whole paise, the header row found by the names banks use, the UTR found in its cell.
import { describe, expect, it } from 'vitest'
import { csvRows, paiseOf, readStatement, StatementError } from '../../server/payments/statement.ts'

describe('paiseOf', () => {
  it.each([
    ['300', 30_000],
    ['300.00', 30_000],
    ['300.5', 30_050],
    ['1,250.75', 125_075],
    ['1,00,000', 10_000_000],
    ['₹300', 30_000],
    ['INR 49.50', 4_950],
    ['Rs. 300', 30_000],
    ['300 Cr', 30_000],
    [' 300 ', 30_000],
    ['-300', null],
    ['300.005', null],
    ['3e2', null],
    ['abc', null],
    ['', null],
  ])('%j → %j', (text, paise) => expect(paiseOf(text)).toBe(paise))
})

describe('csvRows', () => {
  it('reads quotes, doubled quotes, commas and newlines inside quotes, CRLF and LF, keeping line numbers', () => {
    expect(csvRows('a,"b,c","d ""e"""\r\n"x\ny",z\nlast')).toEqual([
      { line: 1, cells: ['a', 'b,c', 'd "e"'] },
      { line: 2, cells: ['x\ny', 'z'] },
      { line: 4, cells: ['last'] },
    ])
  })
})

describe('readStatement', () => {
  const read = (text: string) => readStatement(Buffer.from(text))
  it.each([
    ['UTR,Amount', '412345678901,300'],
    ['UPI Ref No.,Credit', '412345678901,300.00'],
    ['Txn Date,Reference,Deposit Amount', '1/1,UPI/412345678901/x,"300"'],
    ['Transaction ID,Amount (INR)', '412345678901,300'],
    ['Chq./Ref.No.,Withdrawal Amt.,Deposit', '0000412345678901,,300'],
  ])('finds the columns of %j', (head, row) => {
    const [r] = read(`Statement of account\n\n${head}\n${row}\n`)
    expect(r.amount).toBe(30_000)
    expect(r.problem).toBeNull()
    expect(r.line).toBe(4)
  })
  it('prefers a UTR column to a reference column, and says why a row matches nothing', () => {
    expect(read('Reference,UTR,Credit\nREF1,412345678901,300\nREF2,,300\nREF3,412345678902,\nREF4,412345678903,abc\n')).toEqual([
      { line: 2, utr: '412345678901', amount: 30_000, problem: null },
      { line: 3, utr: null, amount: 30_000, problem: 'NO_UTR' },
      { line: 4, utr: '412345678902', amount: null, problem: 'NOT_A_CREDIT' },
      { line: 5, utr: '412345678903', amount: null, problem: 'BAD_AMOUNT' },
    ])
  })
  it('takes a row of one amount column as a debit where its Cr/Dr column says so', () => {
    expect(read('Transaction ID,Transaction Amount,Cr/Dr\n412345678901,300,CR\n412345678902,300,DR\n')).toEqual([
      { line: 2, utr: '412345678901', amount: 30_000, problem: null },
      { line: 3, utr: '412345678902', amount: null, problem: 'NOT_A_CREDIT' },
    ])
  })
  it.each([
    ['Date,Narration\n1,2\n', /No header row/],
    ['UTR,Amount\n\n', /no transactions/],
    ['UTR,Amount\n"1,2\n', /never closed/],
  ])('refuses %j', (text, words) => expect(() => read(text)).toThrow(words))
  it('refuses bytes that are not text', () => {
    expect(() => readStatement(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00]))).toThrow(StatementError)
    expect(() => readStatement(Buffer.from([0x55, 0x54, 0x52, 0xff, 0xfe]))).toThrow(/UTF-8/)
  })
})
