// Code 128 (ISO/IEC 15417) for ticket barcodes, written in-house: ASCII 0–127, code sets A/B/C chosen by
// dynamic programming for the fewest symbols, modulo-103 check symbol, stop pattern and quiet zones.

/** Bar/space widths of symbol values 0–106 (106 = stop, 7 elements incl. the final 2-module bar). */
export const PATTERNS: readonly string[] = (
  '212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 ' +
  '122231 113222 123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 ' +
  '322112 322211 212123 212321 232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 ' +
  '112133 112331 132131 113123 113321 133121 313121 211331 231131 213113 213311 213131 311123 311321 ' +
  '331121 312113 312311 332111 314111 221411 431111 111224 111422 121124 121421 141122 141221 112214 ' +
  '112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 111242 121142 121241 114212 ' +
  '124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 114311 411113 ' +
  '411311 113141 114131 311141 411131 211412 211214 211232 2331112'
).split(' ')

export const START = { A: 103, B: 104, C: 105 } as const
export const STOP = 106
export const SHIFT = 98
/** The "switch to set X" symbol, valid in each set other than X. */
export const CODE = { A: 101, B: 100, C: 99 } as const

type CodeSet = 'A' | 'B' | 'C'
const SETS: CodeSet[] = ['A', 'B', 'C'] // tie order: with equal lengths A, then B, then C

const isDigit = (c: number) => c >= 48 && c <= 57

/** The value of character code `c` in set A or B, or -1 if the set lacks it. */
function valueIn(set: 'A' | 'B', c: number): number {
  if (set === 'A') return c < 32 ? c + 64 : c < 96 ? c - 32 : -1
  return c >= 32 && c < 128 ? c - 32 : -1
}

/** Modulo-103 check symbol: start value plus each following value times its position. */
export function checkSymbol(values: readonly number[]): number {
  let sum = values[0]
  for (let i = 1; i < values.length; i++) sum += values[i] * i
  return sum % 103
}

interface Step {
  cost: number
  /** Symbols emitted from this state, the position and set they lead to. */
  emit: number[]
  next: number
  set: CodeSet
}

/**
 * Symbol values of `text`: start, data, check, stop. Throws RangeError for an empty text or a character
 * outside ASCII (we print ticket codes, never arbitrary text, so there is no FNC4 extended mode).
 */
export function encode(text: string): number[] {
  const n = text.length
  if (n === 0) throw new RangeError('Code 128: nothing to encode')
  const codes = Array.from(text, (ch) => ch.charCodeAt(0))
  codes.forEach((c, i) => {
    if (c > 127) throw new RangeError(`Code 128: character ${JSON.stringify(text[i])} at ${i} is not ASCII`)
  })

  // best[i][s]: fewest symbols encoding text[i..] while the current set is s. Going backwards, each state
  // tries, in tie-break order: a character (or digit pair) in s, a SHIFT to the other of A/B for one
  // character, then a switch to another set followed by one character there.
  const best: Record<CodeSet, Step>[] = new Array(n + 1)
  const done = (set: CodeSet): Step => ({ cost: 0, emit: [], next: n, set })
  best[n] = { A: done('A'), B: done('B'), C: done('C') }

  /** Options that consume at i without changing set: the char itself, or a shifted char. */
  const inSet = (i: number, s: CodeSet): Step[] => {
    const c = codes[i]
    if (s === 'C') {
      return i + 1 < n && isDigit(c) && isDigit(codes[i + 1])
        ? [{ cost: 1 + best[i + 2].C.cost, emit: [(c - 48) * 10 + codes[i + 1] - 48], next: i + 2, set: 'C' }]
        : []
    }
    const out: Step[] = []
    const v = valueIn(s, c)
    if (v >= 0) out.push({ cost: 1 + best[i + 1][s].cost, emit: [v], next: i + 1, set: s })
    const other = s === 'A' ? 'B' : 'A'
    const w = valueIn(other, c)
    if (v < 0 && w >= 0) out.push({ cost: 2 + best[i + 1][s].cost, emit: [SHIFT, w], next: i + 1, set: s })
    return out
  }
  const cheapest = (steps: Step[]) => steps.reduce<Step | undefined>((m, x) => (m && m.cost <= x.cost ? m : x), undefined)

  for (let i = n - 1; i >= 0; i--) {
    const stay = {} as Record<CodeSet, Step | undefined>
    for (const s of SETS) stay[s] = cheapest(inSet(i, s))
    best[i] = {} as Record<CodeSet, Step>
    for (const s of SETS) {
      const options: Step[] = stay[s] ? [stay[s]] : []
      for (const t of SETS) {
        const there = stay[t]
        if (t !== s && there) options.push({ ...there, cost: 1 + there.cost, emit: [CODE[t], ...there.emit] })
      }
      // Every ASCII character is in A or B, so some option always exists.
      best[i][s] = cheapest(options)!
    }
  }

  // The start symbol costs the same for every set, so the cheapest start state wins (ties: A, B, C).
  const first = cheapest(SETS.map((s) => ({ ...best[0][s], set: s })))!
  const values: number[] = [START[first.set]]
  for (let i = 0, s = first.set; i < n; ) {
    const step = best[i][s]
    values.push(...step.emit)
    i = step.next
    s = step.set
  }
  values.push(checkSymbol(values), STOP)
  return values
}

/** Alternating bar/space widths in modules, starting with a bar and ending with the stop's final bar. */
export function modules(text: string): number[] {
  return encode(text).flatMap((v) => Array.from(PATTERNS[v], Number))
}

export interface BarcodeModel {
  /** Total width in modules, quiet zones included. */
  width: number
  quietZone: number
  /** Bars as [x, width] in modules from the left edge of the symbol including the left quiet zone. */
  bars: [number, number][]
}

/** Geometry for drawing: bars placed after a left quiet zone, with the same zone on the right. */
export function barcodeSvgModel(text: string, { quietZone = 10 }: { quietZone?: number } = {}): BarcodeModel {
  const bars: [number, number][] = []
  let x = quietZone
  modules(text).forEach((w, i) => {
    if (i % 2 === 0) bars.push([x, w])
    x += w
  })
  return { width: x + quietZone, quietZone, bars }
}

/** One SVG path of filled rectangles, `height` modules tall. */
export const barsPath = (bars: readonly [number, number][], height: number) => bars.map(([x, w]) => `M${x} 0h${w}v${height}h-${w}z`).join('')
