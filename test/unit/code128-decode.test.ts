// The in-house Code 128 reader (src/lib/code128-decode.ts) on pictures drawn here, pixel by pixel
// (test/fixtures/barcode-scene.ts): every symbol of every code set, the encoder's output read back, camera-like
// pictures (scaled, blurred, tilted, noisy, low contrast, on a phone screen), and what it must refuse.
import { describe, expect, test } from 'vitest'
import { checkSymbol, CODE, encode, SHIFT, START, STOP } from '../../src/lib/code128.ts'
import { decodeCode128, textOfSymbols, type PixelFrame } from '../../src/lib/code128-decode.ts'
import { renderScene, rgbaOf, seededRandom, widthsOf, type Scene } from '../fixtures/barcode-scene.ts'

/** Start, data, the right check symbol and the stop. */
const symbol = (start: number, ...data: number[]) => {
  const values = [start, ...data]
  return [...values, checkSymbol(values), STOP]
}

/** A clean picture of symbol values, just large enough: 2 px a module, 24 rows, quiet zones of 10 modules. */
function picture(values: readonly number[], scene: Partial<Scene> = {}): PixelFrame {
  const widths = widthsOf(values)
  const modulePx = scene.modulePx ?? 2
  const width = Math.ceil((widths.reduce((a, b) => a + b) + 2 * (scene.quietZone ?? 10) + 8) * modulePx)
  const frame = { width, height: 24, modulePx, barHeight: 60, ...scene }
  return { data: renderScene({ ...frame, widths }), width: frame.width, height: frame.height }
}

const read = (values: readonly number[], scene?: Partial<Scene>) => decodeCode128(picture(values, scene))
const ascii = (c: number) => String.fromCharCode(c)

describe('every symbol of the three code sets reads as ISO 15417 defines it', () => {
  // Code set A: values 0–63 are ASCII 32–95, 64–95 the control characters 0–31.
  test.each(Array.from({ length: 96 }, (_, v) => [v, ascii(v < 64 ? v + 32 : v - 64)]))('Start A, value %i → %j', (v, text) => {
    expect(read(symbol(START.A, v))).toBe(text)
  })
  // Code set B: values 0–95 are ASCII 32–127.
  test.each(Array.from({ length: 96 }, (_, v) => [v, ascii(v + 32)]))('Start B, value %i → %j', (v, text) => {
    expect(read(symbol(START.B, v))).toBe(text)
  })
  // Code set C: values 0–99 are the digit pairs 00–99.
  test.each(Array.from({ length: 100 }, (_, v) => [v, String(v).padStart(2, '0')]))('Start C, value %i → %j', (v, text) => {
    expect(read(symbol(START.C, v))).toBe(text)
  })

  test.each([
    ['SHIFT in A reads one character of B', [START.A, 33, SHIFT, 65, 33], 'AaA'],
    ['SHIFT in B reads one character of A', [START.B, 65, SHIFT, 73, 65], 'a\ta'],
    ['CODE B (100) in A switches to B', [START.A, 33, CODE.B, 65], 'Aa'],
    ['CODE A (101) in B switches to A', [START.B, 65, CODE.A, 73], 'a\t'],
    ['CODE C (99) in A and in B switches to C', [START.A, 33, CODE.C, 12, CODE.B, 65, CODE.C, 34], 'A12a34'],
    ['CODE A (101) in C switches to A', [START.C, 12, CODE.A, 64], '12\0'],
    ['CODE B (100) in C switches to B', [START.C, 12, CODE.B, 95], '12\x7f'],
    ['a switch as the last symbol changes nothing read', [START.B, 65, CODE.C], 'a'],
  ])('%s', (_, data, text) => {
    const [start, ...rest] = data
    expect(read(symbol(start, ...rest))).toBe(text)
  })

  test.each([
    ['FNC3 (96) in A', [START.A, 96, 33]],
    ['FNC2 (97) in B', [START.B, 97, 33]],
    ['FNC4 (101) in A', [START.A, 101, 33]],
    ['FNC4 (100) in B', [START.B, 100, 33]],
    ['FNC1 (102) in C', [START.C, 102, 12]],
    ['FNC1 (102) in B', [START.B, 33, 102]],
    ['a SHIFT with nothing after it', [START.B, 65, SHIFT]],
    ['a SHIFT followed by a switch', [START.B, 65, SHIFT, CODE.C, 12]],
    ['a start symbol inside the data', [START.B, 65, START.C, 12]],
    ['no data at all', [START.C]],
  ])('refuses %s (no ticket carries it; its meaning would be a guess)', (_, data) => {
    const [start, ...rest] = data
    expect(read(symbol(start, ...rest))).toBeNull()
  })

  test('the three start codes each begin a symbol', () => {
    expect(read(symbol(START.A, 33, 95))).toBe('A\x1f')
    expect(read(symbol(START.B, 33, 95))).toBe('A\x7f')
    expect(read(symbol(START.C, 33, 95))).toBe('3395')
  })

  test('the check symbol takes every value 0–102 and reads', () => {
    for (let check = 0; check < 103; check++) {
      // (105 + d + 2e) mod 103: some pair of digit pairs gives each check value.
      const d = ((check - 2 + 103 * 2) % 103) % 100
      const e = (((((check - 105 - d) % 103) + 103) % 103) * 52) % 103 // 52 = 1/2 modulo 103
      const values = [START.C, d, e, check, STOP]
      expect(checkSymbol(values.slice(0, 3)), `check ${check}`).toBe(check)
      expect(read(values), `check ${check}`).toBe(String(d).padStart(2, '0') + String(e).padStart(2, '0'))
    }
  })
})

describe("the encoder's symbols read back to the exact text", () => {
  const rand = seededRandom(1280)
  const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('')
  const everyAscii = Array.from({ length: 128 }, (_, c) => ascii(c)).join('')
  const cases = [
    ...['PJJ123C', 'Wikipedia', 'HI345678', '12345', 'a\tb', 'AB123456CD', 'ab\t\t\tcd', '\t\ta\t', '0000000000000000'],
    ...Array.from({ length: 30 }, () => pick('0123456789', 16)), // ticket codes: 16 digits, all set C
    ...Array.from({ length: 20 }, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 12)),
    // Any ASCII, any length: the encoder's every set, switch and shift.
    ...Array.from({ length: 40 }, () => pick(everyAscii, 1 + Math.floor(rand() * 20))),
  ]
  test(`${cases.length} texts: fixed references, ticket codes, mixed codes and random ASCII`, () => {
    for (const text of cases) expect(read(encode(text)), JSON.stringify(text)).toBe(text)
  })
})

describe('camera-like pictures', () => {
  const rand = seededRandom(2024)
  const ticket = () => Array.from({ length: 16 }, () => Math.floor(rand() * 10)).join('')
  // A 640×480 frame with the ticket's symbol somewhere near the middle: the door camera's view.
  const base: Omit<Scene, 'text'> = { width: 640, height: 480, modulePx: 2.5 }
  const rows: [string, Partial<Scene>][] = [
    ['1.5 px a module (small in the frame)', { modulePx: 1.5 }],
    ['2 px a module', { modulePx: 2 }],
    ['4 px a module (close up)', { modulePx: 4 }],
    ['not in the middle of the frame', { centre: [230, 140] }],
    ['Gaussian blur, σ 0.4 module', { blur: 1 }],
    ['Gaussian blur, σ 0.45 module at 4 px', { modulePx: 4, blur: 1.8 }],
    ['box blur over 3 px (motion)', { modulePx: 3, boxBlur: 3 }],
    ['tilted 7°', { angle: 7 }],
    ['tilted −13°', { angle: -13 }],
    ['tilted 20°', { angle: 20 }],
    ['tilted −20°', { angle: -20 }],
    ['upside down', { angle: 180 }],
    ['upside down and tilted 15°', { angle: 195 }],
    ['turned sideways (bars horizontal)', { angle: 90, modulePx: 2 }],
    ['sideways and tilted', { angle: -75, modulePx: 2 }],
    ['sensor noise σ 12', { noise: 12 }],
    ['sharpened by the camera: halos beside every edge', { modulePx: 4, blur: 1, sharpen: 2, noise: 2, angle: 7 }],
    ['low contrast: bars 100, white 150', { paper: 150, ink: 100, screen: 135, background: 110, noise: 3 }],
    ['dim: bars 15, white 70', { paper: 70, ink: 15, screen: 55, background: 20, noise: 3 }],
    ['glare beside the code: the screen brighter than its white', { paper: 215, ink: 40, screen: 250 }],
    ['uneven light: 70% darker at the right of the frame', { falloff: 0.7, modulePx: 2, blur: 0.8, noise: 3 }],
    ['on a grey phone screen in a dark room', { screen: 200, paper: 230, ink: 40, background: 25 }],
    ['on a dark-mode screen, white box around the code', { screen: 30, screenMargin: [20, 30], background: 60 }],
    ['in a cluttered room', { clutter: 300 }],
    ['all at once: 2 px, tilted 12°, blur, noise, grey screen, clutter', { modulePx: 2, angle: 12, blur: 0.7, noise: 6, screen: 190, clutter: 200 }],
  ]
  test.each(rows)('%s', (_, scene) => {
    const text = ticket()
    const s = { ...base, ...scene, text, seed: 7 }
    expect(decodeCode128({ data: renderScene(s), width: s.width, height: s.height })).toBe(text)
  })

  test('single scanlines under blur: at least 295 of 300 read (1.5–4 px a module, σ 0.3–0.5 module, noise σ ≤ 6), none wrong', () => {
    // Five rows: every line of the frame crosses the same bars, so each picture is one chance, not a hundred.
    // Edges placed at the slope's peak instead of the halfway crossing read 286.
    const random = seededRandom(300)
    let read = 0
    for (let k = 0; k < 300; k++) {
      const modulePx = 1.5 + random() * 2.5
      const [blur, noise] = [(0.3 + random() * 0.2) * modulePx, random() * 6]
      const text = Array.from({ length: 16 }, () => Math.floor(random() * 10)).join('')
      const width = Math.ceil(170 * modulePx)
      const got = decodeCode128({ data: renderScene({ width, height: 5, text, modulePx, blur, noise, seed: k }), width, height: 5 })
      if (got !== null) expect(got).toBe(text)
      if (got === text) read++
    }
    expect(read).toBeGreaterThanOrEqual(295)
  })

  test('RGBA pixels (a canvas ImageData) read like grey ones', () => {
    const text = ticket()
    const grey = renderScene({ ...base, text, angle: 5, blur: 0.8, noise: 4 })
    expect(decodeCode128({ data: rgbaOf(grey), width: 640, height: 480 })).toBe(text)
  })
})

describe('refuses rather than guesses', () => {
  const ticketValues = encode('4006381333931234')
  const body = ticketValues.slice(0, -2) // start and data, without check and stop

  test.each([
    ['a wrong check symbol', [...body, (checkSymbol(body) + 1) % 103, STOP]],
    ['a check symbol of another text', [...body.slice(0, -1), 35, checkSymbol(body), STOP]],
    ['no check symbol', [...body, STOP]],
    ['no stop pattern', [...body, checkSymbol(body)]],
  ])('%s', (_, values) => {
    expect(read(ticketValues)).toBe('4006381333931234') // the same picture, drawn right, reads
    expect(read(values)).toBeNull()
  })

  test('a stop pattern without its termination bar', () => {
    const widths = widthsOf(ticketValues).slice(0, -2) // 2331112 → 23311, the last space joins the quiet zone
    const frame = { width: 400, height: 24, modulePx: 2 }
    expect(decodeCode128({ data: renderScene({ ...frame, widths }), ...frame })).toBeNull()
    expect(decodeCode128({ data: renderScene({ ...frame, widths: widthsOf(ticketValues) }), ...frame })).toBe('4006381333931234')
  })

  test.each([
    ['1 module', 1],
    ['4 modules', 4],
  ])('a termination bar of %s instead of 2', (_, bar) => {
    const widths = [...widthsOf(ticketValues).slice(0, -1), bar]
    const frame = { width: 400, height: 24, modulePx: 2 }
    expect(decodeCode128({ data: renderScene({ ...frame, widths }), ...frame })).toBeNull()
  })

  test('a symbol twice as wide as its neighbours (its values and the check still right)', () => {
    const widths = widthsOf(ticketValues)
    const doubled = [...widths.slice(0, 12), ...widths.slice(12, 18).map((w) => 2 * w), ...widths.slice(18)]
    const frame = { width: 460, height: 24, modulePx: 2 }
    expect(decodeCode128({ data: renderScene({ ...frame, widths }), ...frame })).toBe('4006381333931234')
    expect(decodeCode128({ data: renderScene({ ...frame, widths: doubled }), ...frame })).toBeNull()
  })

  test.each([
    ['its right end outside the frame', [150, 120]],
    ['its left end outside the frame', [90, 120]],
  ] as const)('a partial symbol: %s', (_, centre) => {
    const scene = { width: 240, height: 240, modulePx: 2, text: '4006381333931234' }
    expect(decodeCode128({ data: renderScene({ ...scene, centre }), width: 240, height: 240 })).toBeNull()
    expect(decodeCode128({ data: renderScene({ ...scene, width: 320, centre: [160, 120] }), width: 320, height: 240 })).toBe('4006381333931234')
  })

  test.each([
    ['10 modules (as drawn)', 10, '4006381333931234'],
    ['9 modules', 9, '4006381333931234'],
    ['6 modules', 6, null],
    ['2 modules', 2, null],
  ])('quiet zones of %s against a dark surround', (_, quietZone, expected) => {
    // The screen around the white box as dark as the bars: the quiet zone ends in an edge.
    expect(read(ticketValues, { quietZone, screen: 30, background: 30 })).toBe(expected)
  })

  test.each([
    ['on the left', (w: number[]) => [3, 4, ...w]],
    ['on the right', (w: number[]) => [...w, 4, 3]],
  ])('a quiet zone of 4 modules %s only, the other side 10', (_, around) => {
    const widths = around(widthsOf(ticketValues))
    const frame = { width: 400, height: 24, modulePx: 2 }
    expect(decodeCode128({ data: renderScene({ ...frame, widths }), ...frame })).toBeNull()
  })

  test('garbage: random bars between a real start and stop, a noisy blank, a cluttered room', () => {
    const rand = seededRandom(99)
    const frame = { width: 640, height: 120, modulePx: 2 }
    for (let k = 0; k < 30; k++) {
      const middle = Array.from({ length: 6 * 8 }, () => 1 + Math.floor(rand() * 4))
      const widths = [...widthsOf([START.C]), ...middle, ...widthsOf([STOP])]
      expect(decodeCode128({ data: renderScene({ ...frame, widths, noise: 3, seed: k }), ...frame }), `random bars ${k}`).toBeNull()
    }
    const blank = { width: 320, height: 240, modulePx: 2, widths: [], quietZone: 0, screenMargin: [0, 0] as const }
    expect(decodeCode128({ data: renderScene({ ...blank, noise: 20 }), width: 320, height: 240 })).toBeNull()
    expect(decodeCode128({ data: renderScene({ ...blank, clutter: 400, blur: 0.7, noise: 5 }), width: 320, height: 240 })).toBeNull()
  })

  test('blur beyond reading (σ 1 module) gives no text rather than a wrong one', () => {
    const frame = { width: 640, height: 480, modulePx: 2, blur: 2, text: '4006381333931234' }
    expect(decodeCode128({ data: renderScene(frame), width: 640, height: 480 })).toBeNull()
  })

  test('pixels that match neither grey nor RGBA for the size are a RangeError that names both', () => {
    expect(() => decodeCode128({ data: new Uint8Array(10), width: 4, height: 4 })).toThrow(/10 bytes is neither grey \(16\) nor RGBA \(64\) for 4×4/)
    expect(() => decodeCode128({ data: new Uint8Array(0), width: 0, height: 4 })).toThrow(RangeError)
  })
})

describe('textOfSymbols, the code-set rules alone', () => {
  test.each([
    [[START.C, 40, 6], '4006'],
    [[START.C, 5], '05'],
    [[START.A, 64, 95], '\0\x1f'],
    [[START.B, 0, 95], ' \x7f'],
  ])('%j → %j', (data, text) => {
    const values = symbol(data[0], ...data.slice(1)).slice(0, -1)
    expect(textOfSymbols(values)).toBe(text)
    values[values.length - 1] = (values[values.length - 1] + 1) % 103
    expect(textOfSymbols(values)).toBeNull()
  })
})
