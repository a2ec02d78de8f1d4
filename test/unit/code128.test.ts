// Code 128 against published references, an exhaustive shortest-length oracle, and an independent decoder.
import { BinaryBitmap, Code128Reader, HybridBinarizer, RGBLuminanceSource } from '@zxing/library'
import { describe, expect, test } from 'vitest'
import { barcodeSvgModel, barsPath, checkSymbol, CODE, encode, modules, PATTERNS, SHIFT, START, STOP } from '../../src/lib/code128.ts'
import { seededRandom } from '../fixtures/barcode-scene.ts'

const data = (values: number[]) => values.slice(1, -2) // without start, check and stop

describe('published reference symbols', () => {
  test('Wikipedia "Code 128", check digit calculation: PJJ123C with Start A sums to 878, check 54 (V)', () => {
    // https://en.wikipedia.org/wiki/Code_128#Check_digit_calculation
    expect(checkSymbol([103, 48, 42, 42, 17, 18, 19, 35])).toBe(54)
    // Seven characters in A (or B) is already the shortest: Code C for "12" would add two switches.
    expect(encode('PJJ123C')).toEqual([103, 48, 42, 42, 17, 18, 19, 35, 54, STOP])
  })

  test('Wikipedia "Code 128": "X00Y" is 7 symbols in A/B, not 8 with Code C for "00"', () => {
    // Same article, section on code set C: "[Start B] 56 16 16 57 [checksum] [Stop]".
    const v = encode('X00Y')
    expect(v).toHaveLength(7)
    expect(data(v)).toEqual([56, 16, 16, 57])
  })

  test('Barcode Island (barcodeisland.com/code128.phtml): HI345678 = Start A, H, I, Code C, 34, 56, 78, check 67', () => {
    expect(encode('HI345678')).toEqual([103, 40, 41, 99, 34, 56, 78, 67, STOP])
  })

  test('barcoderesource.com "Calculation of Code128 Check Character": ABCDEF (A) 42, abcdef (B) 97, 345678 (C) 73', () => {
    expect(encode('ABCDEF')).toEqual([103, 33, 34, 35, 36, 37, 38, 42, STOP])
    expect(encode('abcdef')).toEqual([104, 65, 66, 67, 68, 69, 70, 97, STOP])
    expect(encode('345678')).toEqual([105, 34, 56, 78, 73, STOP])
  })

  test('"Wikipedia" (the article\'s lead image, Code 128-B): values and check worked out by hand', () => {
    // 104 + 55·1 + 73·2 + 75·3 + 73·4 + 80·5 + 69·6 + 68·7 + 73·8 + 65·9 = 3281 = 31·103 + 88
    expect(encode('Wikipedia')).toEqual([104, 55, 73, 75, 73, 80, 69, 68, 73, 65, 88, STOP])
  })

  test('bit patterns of start, stop and "0" as published (Barcode Island; Wikipedia "Start/stop and bar widths")', () => {
    const bits = (widths: number[]) => widths.map((w, i) => (i % 2 ? '0' : '1').repeat(w)).join('')
    // "1234" → Start C, 12, 34, check (105+12+68)%103 = 82, stop
    const all = bits(modules('1234'))
    expect(all.slice(0, 11)).toBe('11010011100') // Start C
    expect(all.slice(-13)).toBe('1100011101011') // Stop 11000111010 + termination bar 11
    expect(bits(modules('A')).slice(0, 11)).toBe('11010000100') // Start A
    expect(bits(modules('a')).slice(0, 11)).toBe('11010010000') // Start B
    expect(bits(modules('0')).slice(11, 22)).toBe('10011101100') // "0" (value 16)
  })
})

test("our 107 patterns equal ZXing's independent table, and obey the width rules", () => {
  // ZXing's reader carries its own copy of the ISO table; comparing catches a mistyped pattern.
  const zxing = (Code128Reader as unknown as { CODE_PATTERNS: Int32Array[] }).CODE_PATTERNS
  expect(PATTERNS).toHaveLength(107)
  PATTERNS.forEach((p, v) => {
    const w = Array.from(p, Number)
    if (v === STOP) return expect(w).toEqual([2, 3, 3, 1, 1, 1, 2])
    expect(w, `value ${v}`).toEqual([...zxing[v]])
    expect(w.reduce((a, b) => a + b)).toBe(11)
    // Wikipedia, "Start/stop and bar widths": bars sum to an even width, spaces to an odd one.
    expect((w[0] + w[2] + w[4]) % 2, `bars of ${v}`).toBe(0)
  })
  expect(new Set(PATTERNS).size).toBe(107)
})

describe('code set choice gives the shortest symbol', () => {
  test.each([
    ['even digits → all Code C', '1234', [105, 12, 34]],
    ['two digits → Code C', '12', [105, 12]],
    ['one digit stays in A', '7', [103, 23]],
    ['sixteen digits → eight pairs', '4006381333931234', [105, 40, 6, 38, 13, 33, 93, 12, 34]],
    ['odd digits: one single digit then pairs', '12345', [103, 17, CODE.C, 23, 45]],
    ['four digits between letters: Code C would not be shorter, so stay', 'AB1234CD', [103, 33, 34, 17, 18, 19, 20, 35, 36]],
    ['six digits between letters switch to C and back', 'AB123456CD', [103, 33, 34, CODE.C, 12, 34, 56, CODE.A, 35, 36]],
    ['lower case needs B', 'abc', [104, 65, 66, 67]],
    ['one control character inside B text is a SHIFT', 'a\tb', [104, 65, SHIFT, 73, 66]],
    ['one lower-case letter inside control text is a SHIFT', '\t\ta\t', [103, 73, 73, SHIFT, 65, 73]],
    ['a run of controls switches to A', 'ab\t\t\tcd', [104, 65, 66, CODE.A, 73, 73, 73, CODE.B, 67, 68]],
    ['digits inside a 12-char ticket code', 'K7Q2X9M4P8Z1', [103, 43, 23, 49, 18, 56, 25, 45, 20, 48, 24, 58, 17]],
  ] as const)('%s (%j)', (_, text, expected) => {
    const v = encode(text)
    expect(v[0]).toBe(expected[0])
    expect(data(v)).toEqual(expected.slice(1))
    expect(v.at(-2)).toBe(checkSymbol(v.slice(0, -2)))
    expect(v.at(-1)).toBe(STOP)
  })

  // Exhaustive oracle: every string of length ≤ 5 over an alphabet that exercises all three sets and both
  // shifts; a plain recursive search over every legal symbol sequence gives the true minimum.
  const ALPHABET = ['1', '2', 'A', 'a', '\x01']
  const memo = new Map<string, number>()
  function minimum(text: string, i: number, set: 'A' | 'B' | 'C'): number {
    if (i === text.length) return 0
    const key = `${text}|${i}|${set}`
    if (!memo.has(key)) memo.set(key, search(text, i, set))
    return memo.get(key)!
  }
  function search(text: string, i: number, set: 'A' | 'B' | 'C'): number {
    const c = text.charCodeAt(i)
    const inA = c < 96,
      inB = c >= 32
    const options: number[] = []
    const d = (k: number) => k < text.length && /\d/.test(text[k])
    if (set === 'C' && d(i) && d(i + 1)) options.push(1 + minimum(text, i + 2, 'C'))
    if ((set === 'A' && inA) || (set === 'B' && inB)) options.push(1 + minimum(text, i + 1, set))
    if ((set === 'A' && inB && !inA) || (set === 'B' && inA && !inB)) options.push(2 + minimum(text, i + 1, set))
    for (const t of ['A', 'B', 'C'] as const) {
      if (t === set) continue
      if (t === 'C' && !(d(i) && d(i + 1))) continue
      if ((t === 'A' && !inA) || (t === 'B' && !inB)) continue
      options.push(1 + 1 + minimum(text, t === 'C' ? i + 2 : i + 1, t))
    }
    return Math.min(...options)
  }
  const strings: string[] = []
  const grow = (s: string) => {
    if (s) strings.push(s)
    if (s.length < 5) for (const ch of ALPHABET) grow(s + ch)
  }
  grow('')

  test(`all ${strings.length} strings up to 5 characters: optimal length and a lossless round trip`, () => {
    for (const s of strings) {
      const v = encode(s)
      const best = Math.min(...(['A', 'B', 'C'] as const).map((set) => minimum(s, 0, set)))
      expect(data(v).length, JSON.stringify(s)).toBe(best)
      expect(symbolsToText(v), JSON.stringify(s)).toBe(s)
    }
  })
})

/** A plain reader of symbol values (the test's own, not the encoder's), following ISO 15417's set rules. */
function symbolsToText(values: number[]): string {
  let set = values[0] === START.A ? 'A' : values[0] === START.B ? 'B' : 'C'
  let out = ''
  let shifted = false
  const body = values.slice(1, -2)
  expect(values.at(-2)).toBe(checkSymbol(values.slice(0, -2)))
  for (const v of body) {
    const cur = shifted ? (set === 'A' ? 'B' : 'A') : set
    shifted = false
    if (cur === 'C') {
      if (v < 100) out += String(v).padStart(2, '0')
      else set = v === 100 ? 'B' : 'A'
    } else if (v === 98) shifted = true
    else if (v === 99) set = 'C'
    else if (v === 100 && cur === 'A') set = 'B'
    else if (v === 101 && cur === 'B') set = 'A'
    else if (cur === 'A') out += String.fromCharCode(v < 64 ? v + 32 : v - 64)
    else out += String.fromCharCode(v + 32)
  }
  return out
}

test('refuses empty and non-ASCII text with a clear message', () => {
  expect(() => encode('')).toThrow(/nothing to encode/)
  expect(() => encode('₹150')).toThrow(/"₹" at 0 is not ASCII/)
})

describe('geometry', () => {
  test('quiet zones of 10 modules on both sides by default, and as asked', () => {
    const widths = modules('AB12')
    const total = widths.reduce((a, b) => a + b)
    expect(total).toBe(11 * (encode('AB12').length - 1) + 13)
    const m = barcodeSvgModel('AB12')
    expect(m.quietZone).toBe(10)
    expect(m.width).toBe(total + 20)
    expect(m.bars[0][0]).toBe(10)
    const [lx, lw] = m.bars.at(-1)!
    expect(lx + lw).toBe(m.width - 10)
    const wide = barcodeSvgModel('AB12', { quietZone: 15 })
    expect(wide.width).toBe(total + 30)
    expect(wide.bars[0][0]).toBe(15)
  })

  test('bars are the odd-position widths, placed end to end with the spaces between', () => {
    const widths = modules('Hi')
    const { bars } = barcodeSvgModel('Hi', { quietZone: 0 })
    expect(bars.map(([, w]) => w)).toEqual(widths.filter((_, i) => i % 2 === 0))
    let x = 0
    widths.forEach((w, i) => {
      if (i % 2 === 0) expect(bars[i / 2][0]).toBe(x)
      x += w
    })
  })

  test('one path of closed rectangles', () => {
    expect(
      barsPath(
        [
          [10, 2],
          [13, 1],
        ],
        40,
      ),
    ).toBe('M10 0h2v40h-2zM13 0h1v40h-1z')
  })
})

describe('ZXing decodes our bars back to the exact text', () => {
  /** Draws the model at `px` pixels per module, `height` rows, black bars on white, and reads it. */
  function scan(text: string, px = 3, height = 60): string {
    const m = barcodeSvgModel(text)
    const width = m.width * px
    const lum = new Uint8ClampedArray(width * height).fill(255)
    for (const [x, w] of m.bars) for (let y = 0; y < height; y++) lum.fill(0, y * width + x * px, y * width + (x + w) * px)
    const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(lum, width, height)))
    return new Code128Reader().decode(bitmap).getText()
  }

  // A seeded generator, so a failing string can be reproduced.
  const rand = seededRandom(128)
  const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('')
  const codes = Array.from({ length: 40 }, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 12))
  const digits = Array.from({ length: 20 }, () => pick('0123456789', 16))

  test.each(['PJJ123C', 'Wikipedia', 'HI345678', '12345', 'a\tb', 'Ab9xZ', '0000000000000000'])('%j', (text) => {
    expect(scan(text)).toBe(text)
  })
  test(`${codes.length} random 12-character [A-Z0-9] ticket codes`, () => {
    for (const c of codes) expect(scan(c)).toBe(c)
  })
  test(`${digits.length} random 16-digit strings`, () => {
    for (const d of digits) expect(scan(d)).toBe(d)
  })
  test('at 2 px per module too', () => {
    for (const c of codes.slice(0, 10)) expect(scan(c, 2, 40)).toBe(c)
  })
})
