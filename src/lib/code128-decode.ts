// Code 128 (ISO/IEC 15417) reader for camera frames, written in-house: the door must read tickets on browsers
// without BarcodeDetector (iOS Safari, Firefox, desktops), and a general-purpose reading library is many times
// the size for the one symbology we print. Pure: pixels in, text out, no DOM.
//
// How a frame is read: scanlines at several angles and offsets from the centre outwards, each a profile of
// brightness averaged across the line; edges where the slope peaks above the frame's noise, placed where the
// profile crosses halfway between the local dark and light levels (which keeps narrow elements narrow under
// blur); each symbol measured edge to similar edge (bar start to bar start), which cancels ink spread and glare
// that widen bars or spaces, in modules of its own width, so perspective is followed along the line. A read
// needs a quiet zone, a start symbol, symbols of consistent size, the stop pattern with its termination bar, a
// quiet zone after it and a valid check symbol; anything else is refused rather than guessed. Each line is read
// both ways, so a ticket upside down reads too.
import { checkSymbol, PATTERNS, START, STOP } from './code128.ts'

/** Grey (one byte a pixel) or RGBA (four) pixels, rows top to bottom: an ImageData fits. */
export interface PixelFrame {
  data: Uint8Array | Uint8ClampedArray
  width: number
  height: number
}

export interface ScanOptions {
  /** Scanline angles in degrees (0 = left to right); each line is also read right to left. */
  angles?: readonly number[]
  /** Parallel lines per angle, spread over the frame from its centre outwards. */
  linesPerAngle?: number
}

/**
 * Lines every 10° up to ±20° of horizontal, for a ticket held tilted, and the same around vertical, for a phone
 * turned sideways. A 60-module-high ticket symbol reads when a line is within about 20° of its axis.
 */
const DEFAULT_ANGLES = [0, 10, -10, 20, -20, 90, 80, 100, 70, 110] as const
const DEFAULT_LINES = 24

/** ISO 15417 asks for 10 modules of quiet zone; 8 leaves room for blur and the measuring error of a module. */
const QUIET_MODULES = 8
/** Edges must be this many times the frame's typical small difference (see edgeFloor). */
const NOISE_FACTOR = 6
/** Largest change of symbol width from one symbol to the next (perspective changes it gradually). */
const SYMBOL_DRIFT = 0.25

// Symbol value by its four edge-to-similar-edge distances (each 2–7 modules): all 107 are distinct, so the
// distances alone identify a symbol (the stop's first six elements included).
const BY_DISTANCES = new Int8Array(6 * 6 * 6 * 6).fill(-1)
const distanceKey = (e1: number, e2: number, e3: number, e4: number) => (((e1 - 2) * 6 + e2 - 2) * 6 + e3 - 2) * 6 + e4 - 2
PATTERNS.forEach((pattern, value) => {
  const w = Array.from(pattern, Number)
  BY_DISTANCES[distanceKey(w[0] + w[1], w[1] + w[2], w[2] + w[3], w[3] + w[4])] = value
})

/**
 * The text of the first Code 128 symbol found in `frame`, or null. Throws RangeError when `data` is neither
 * grey nor RGBA for the given size (a caller's mistake, not a bad picture).
 */
export function decodeCode128(frame: PixelFrame, options: ScanOptions = {}): string | null {
  const { width, height } = frame
  const grey = greyOf(frame)
  const angles = options.angles ?? DEFAULT_ANGLES
  const lines = Math.max(1, options.linesPerAngle ?? DEFAULT_LINES)
  const profile = new Float32Array(Math.ceil(Math.hypot(width, height)) + 2)
  const reader = new LineReader(profile.length, edgeFloor(grey, width, height))
  // From the centre outwards, every angle at each distance: the door screen asks students to centre the code.
  for (let step = 0; step <= lines / 2; step++) {
    for (const degrees of angles) {
      const dx = Math.cos((degrees * Math.PI) / 180)
      const dy = Math.sin((degrees * Math.PI) / 180)
      // The frame's extent across the line, divided among the lines.
      const spacing = (width * Math.abs(dy) + height * Math.abs(dx)) / lines
      for (const side of step === 0 ? [0] : [1, -1]) {
        const n = sampleLine(grey, width, height, dx, dy, side * step * spacing, profile)
        const text = n > 0 ? reader.read(profile, n) : null
        if (text !== null) return text
      }
    }
  }
  return null
}

function greyOf({ data, width, height }: PixelFrame): Uint8Array | Uint8ClampedArray {
  const pixels = width * height
  if (!(width > 0 && height > 0 && Number.isInteger(width) && Number.isInteger(height))) {
    throw new RangeError(`Code 128 frame: width and height must be positive integers, got ${width}×${height}`)
  }
  if (data.length === pixels) return data
  if (data.length !== pixels * 4) {
    throw new RangeError(`Code 128 frame: ${data.length} bytes is neither grey (${pixels}) nor RGBA (${pixels * 4}) for ${width}×${height}`)
  }
  const grey = new Uint8Array(pixels)
  // ITU-R BT.601 luma in integer arithmetic (weights sum to 256).
  for (let i = 0, p = 0; i < pixels; i++, p += 4) grey[i] = (77 * data[p] + 150 * data[p + 1] + 29 * data[p + 2]) >> 8
  return grey
}

/**
 * Samples, one pixel apart, the line in direction (dx, dy) at signed distance `offset` from the frame's centre
 * into `out`, each sample the mean of two bilinear samples half a pixel either side of the line, which averages
 * three rows of pixels across it (less noise; bars, which cross the line, are not blurred). Answers the number of
 * samples (0 when the line misses the frame).
 */
function sampleLine(grey: Uint8Array | Uint8ClampedArray, width: number, height: number, dx: number, dy: number, offset: number, out: Float32Array): number {
  const nx = -dy
  const ny = dx
  const cx = (width - 1) / 2 + nx * offset
  const cy = (height - 1) / 2 + ny * offset
  // Clip the line to the frame, less the half-pixel reach across it and the bilinear neighbour.
  let t0 = -Infinity
  let t1 = Infinity
  for (const [c, d, max] of [
    [cx, dx, width - 1],
    [cy, dy, height - 1],
  ]) {
    const lo = 1
    const hi = max - 2
    if (Math.abs(d) < 1e-9) {
      if (c < lo || c > hi) return 0
      continue
    }
    const a = (lo - c) / d
    const b = (hi - c) / d
    t0 = Math.max(t0, Math.min(a, b))
    t1 = Math.min(t1, Math.max(a, b))
  }
  const n = Math.min(out.length, Math.floor(t1 - t0) + 1)
  if (!(n >= 32)) return 0
  for (let i = 0; i < n; i++) {
    const x = cx + dx * (t0 + i)
    const y = cy + dy * (t0 + i)
    out[i] = (bilinear(grey, width, x - 0.5 * nx, y - 0.5 * ny) + bilinear(grey, width, x + 0.5 * nx, y + 0.5 * ny)) / 2
  }
  return n
}

function bilinear(grey: Uint8Array | Uint8ClampedArray, width: number, x: number, y: number): number {
  const x0 = x | 0
  const y0 = y | 0
  const fx = x - x0
  const fy = y - y0
  const i = y0 * width + x0
  const top = grey[i] + (grey[i + 1] - grey[i]) * fx
  const bottom = grey[i + width] + (grey[i + width + 1] - grey[i + width]) * fx
  return top + (bottom - top) * fy
}

/** Reads one profile; its buffers are reused from line to line (a frame reads a hundred lines or more). */
class LineReader {
  private gradient: Float32Array
  /** Sample index of each edge's slope extremum. */
  private peak: Int32Array
  /** Darkest and lightest sample of each element. */
  private low: Float32Array
  private high: Float32Array
  private position: Float64Array
  private reversed: Float64Array
  private count = 0
  /** Whether edge 0 goes light to dark (starts a bar); edges alternate, so this fixes every edge's kind. */
  private firstFalling = false
  /** Whether the last edge goes dark to light: reversed, it becomes a falling first edge. */
  private lastRising = false

  /** `floor`: the least slope an edge has, above the frame's noise (see edgeFloor). */
  constructor(
    capacity: number,
    private floor: number,
  ) {
    this.gradient = new Float32Array(capacity)
    this.peak = new Int32Array(capacity)
    this.low = new Float32Array(capacity + 1)
    this.high = new Float32Array(capacity + 1)
    this.position = new Float64Array(capacity)
    this.reversed = new Float64Array(capacity)
  }

  read(profile: Float32Array, n: number): string | null {
    this.findEdges(profile, n)
    const count = this.count
    if (count < 26) return null // start, one data symbol, check and stop: 25 elements, 26 edges
    // Right to left is left to right of the reversed edge list: a ticket upside down reads the same.
    for (let i = 0; i < count; i++) this.reversed[i] = n - 1 - this.position[count - 1 - i]
    return readEdges(this.position, count, n, this.firstFalling) ?? readEdges(this.reversed, count, n, this.lastRising)
  }

  /**
   * Edges of the profile: extrema of its slope, above the frame's noise and stronger than a quarter of the
   * strongest slope nearby (which drops the ringing of sharpened camera images), alternating in direction: of
   * two neighbours in the same direction the stronger stays (one edge spread by blur, or two steps such as grey
   * screen, white box, bar, where the larger step is the one across the halfway level that ISO 15417's
   * threshold would see). Then each edge is placed where the profile crosses halfway between the darkest and
   * lightest samples of the six elements either side.
   *
   * Why halfway: blur pushes the slope extrema of a narrow bar or space apart (a 1-module element measures 1.2
   * modules or more), while the halfway crossing stays within a few hundredths of a module until the blur
   * erases the element. Six elements either side (about a symbol) hold a wide bar and a wide space, levels the
   * narrow ones no longer reach, at any scale, and are near enough for uneven light not to matter (three read
   * fewer blurred lines; twice as many, fewer lines under light that falls off across the code).
   */
  private findEdges(p: Float32Array, n: number) {
    const g = this.gradient
    // Forward differences: g[i] is the slope between samples i and i + 1. (A central difference spans two
    // samples and merges the two edges of a 1-module element at 1.5 pixels a module.)
    for (let i = 0; i < n - 1; i++) g[i] = p[i + 1] - p[i]
    g[n - 1] = 0
    const floor = this.floor
    const peak = this.peak
    let count = 0
    let lastSign = 0
    for (let i = 2; i < n - 2; i++) {
      const a = Math.abs(g[i])
      if (a < floor) continue
      // A local extremum of the signed slope (neighbours of the other sign are other edges, not rivals).
      if (g[i] < 0 ? g[i] > g[i - 1] || g[i] >= g[i + 1] : g[i] < g[i - 1] || g[i] <= g[i + 1]) continue
      let nearMax = 0
      for (let j = Math.max(1, i - 12), end = Math.min(n - 2, i + 12); j <= end; j++) nearMax = Math.max(nearMax, Math.abs(g[j]))
      if (a < 0.25 * nearMax) continue
      const sign = g[i] < 0 ? -1 : 1
      if (sign === lastSign) {
        if (a <= Math.abs(g[peak[count - 1]])) continue
        count-- // the stronger of two same-direction extrema is the edge
      }
      peak[count++] = i
      lastSign = sign
    }
    // The darkest and lightest sample of each element (segment s ends at edge s; the first and last reach 24
    // samples beyond the outer edges), so each edge's window of twelve elements costs twelve reads.
    const { low, high } = this
    for (let s = 0; s <= count; s++) {
      const from = s === 0 ? Math.max(0, peak[0] - 24) : peak[s - 1]
      const to = s === count ? Math.min(n - 1, peak[count - 1] + 24) : peak[s] + 1
      let lo = Infinity
      let hi = -Infinity
      for (let j = from; j <= to; j++) {
        lo = Math.min(lo, p[j])
        hi = Math.max(hi, p[j])
      }
      low[s] = lo
      high[s] = hi
    }
    for (let k = 0; k < count; k++) {
      let lo = Infinity
      let hi = -Infinity
      for (let s = Math.max(0, k - 5), end = Math.min(count, k + 6); s <= end; s++) {
        lo = Math.min(lo, low[s])
        hi = Math.max(hi, high[s])
      }
      this.position[k] = crossing(p, g, peak[k], (lo + hi) / 2)
    }
    this.count = count
    this.firstFalling = count > 0 && g[peak[0]] < 0
    this.lastRising = count > 0 && g[peak[count - 1]] > 0
  }
}

/**
 * Where the profile crosses `mid`, next to the slope extremum at `i` and in its direction; without such a
 * crossing (a narrow element that no longer reaches halfway), the extremum itself, by a parabola through it.
 */
function crossing(p: Float32Array, g: Float32Array, i: number, mid: number): number {
  const falling = g[i] < 0
  for (const j of [i, i - 1, i + 1]) {
    const a = p[j] - mid
    const b = p[j + 1] - mid
    // In the edge's own direction only: the other crossing near a faint narrow element belongs to its other edge.
    if (falling ? a >= 0 && b < 0 : a < 0 && b >= 0) return j + a / (a - b)
  }
  const curvature = g[i - 1] - 2 * g[i] + g[i + 1]
  return i + 0.5 + (curvature === 0 ? 0 : Math.max(-0.5, Math.min(0.5, (0.5 * (g[i - 1] - g[i + 1])) / curvature)))
}

/**
 * The least slope (grey levels a sample) an edge must have: NOISE_FACTOR times the noise of the frame, at least
 * 6. The noise is the first quartile of the differences between neighbours across and along rows (every fourth
 * row), whichever is smaller: along the bars a symbol is flat, so even a frame the code fills gives its noise
 * one way or the other.
 */
function edgeFloor(grey: Uint8Array | Uint8ClampedArray, width: number, height: number): number {
  const across = new Uint32Array(256)
  const along = new Uint32Array(256)
  let total = 0
  for (let y = 0; y < height - 1; y += 4) {
    for (let i = y * width, end = i + width - 1; i < end; i++) {
      across[Math.abs(grey[i + 1] - grey[i])]++
      along[Math.abs(grey[i + width] - grey[i])]++
    }
    total += width - 1
  }
  const quartile = (histogram: Uint32Array) => {
    let level = 0
    for (let seen = histogram[0]; seen < total / 4; seen += histogram[++level]);
    return level
  }
  return Math.max(6, NOISE_FACTOR * Math.min(quartile(across), quartile(along)))
}

/**
 * The text of a symbol along one direction of a line: `x` are edge positions (0 … length-1) alternating
 * falling/rising, the first falling when `firstFalling`.
 */
function readEdges(x: Float64Array, count: number, length: number, firstFalling: boolean): string | null {
  for (let start = firstFalling ? 0 : 1; start + 25 < count; start += 2) {
    const values = readSymbolFrom(x, count, length, start)
    if (values) {
      const text = textOfSymbols(values)
      if (text !== null) return text
    }
  }
  return null
}

/** Symbol values from a start symbol whose first bar begins at edge `k` up to the check symbol, or null. */
function readSymbolFrom(x: Float64Array, count: number, length: number, k: number): number[] | null {
  let size = x[k + 6] - x[k]
  const before = k > 0 ? x[k - 1] : 0
  if (x[k] - before < (QUIET_MODULES * size) / 11) return null
  const first = symbolAt(x, k, size)
  if (first < START.A || first > START.C) return null
  const values = [first]
  for (let j = k + 6; j + 7 < count; j += 6) {
    const next = x[j + 6] - x[j]
    if (Math.abs(next - size) > SYMBOL_DRIFT * size) return null
    size = next
    const value = symbolAt(x, j, size)
    if (value < 0) return null
    if (value !== STOP) {
      values.push(value)
      continue
    }
    // The stop's termination bar (2 modules) and the quiet zone after it.
    const module = size / 11
    const bar = x[j + 7] - x[j + 6]
    if (bar < 1.2 * module || bar > 3 * module) return null
    const after = j + 8 < count ? x[j + 8] : length - 1
    if (after - x[j + 7] < QUIET_MODULES * module) return null
    return values.length >= 3 ? values : null
  }
  return null
}

/**
 * The value of the six-element symbol whose first bar starts at edge `j`, `size` wide; -1 if none fits. Its four
 * edge-to-similar-edge distances, in modules, are rounded to whole modules (ISO 15417's reference decode: a
 * distance within half a module of n counts as n) and looked up.
 */
function symbolAt(x: Float64Array, j: number, size: number): number {
  const unit = 11 / size
  const e1 = Math.round((x[j + 2] - x[j]) * unit)
  const e2 = Math.round((x[j + 3] - x[j + 1]) * unit)
  const e3 = Math.round((x[j + 4] - x[j + 2]) * unit)
  const e4 = Math.round((x[j + 5] - x[j + 3]) * unit)
  if (e1 < 2 || e1 > 7 || e2 < 2 || e2 > 7 || e3 < 2 || e3 > 7 || e4 < 2 || e4 > 7) return -1
  return BY_DISTANCES[distanceKey(e1, e2, e3, e4)]
}

/**
 * The text of symbol values `[start, ...data, check]` (no stop), following ISO 15417's code sets: A holds
 * ASCII 0–95, B 32–127, C digit pairs; SHIFT reads one character in the other of A and B; CODE A/B/C switch.
 * Null for a wrong check symbol, a start value inside the data, a SHIFT with no character after it, FNC1–4
 * (no ticket carries them, and their meaning depends on the application) or no text at all.
 */
export function textOfSymbols(values: readonly number[]): string | null {
  const n = values.length
  if (n < 3 || values[n - 1] !== checkSymbol(values.slice(0, -1))) return null
  let set = values[0] === START.A ? 'A' : values[0] === START.B ? 'B' : values[0] === START.C ? 'C' : ''
  if (!set) return null
  let text = ''
  for (let i = 1; i < n - 1; i++) {
    const v = values[i]
    if (v > 102) return null
    if (set === 'C') {
      if (v < 100) text += v < 10 ? `0${v}` : String(v)
      else if (v === 100) set = 'B'
      else if (v === 101) set = 'A'
      else return null // FNC1
      continue
    }
    if (v === 98) {
      // SHIFT: the next symbol is one character of the other set, and must be a character.
      const c = values[++i]
      if (i >= n - 1 || c > 95) return null
      text += charIn(set === 'A' ? 'B' : 'A', c)
    } else if (v === 99) set = 'C'
    else if (v === 100 && set === 'A') set = 'B'
    else if (v === 101 && set === 'B') set = 'A'
    else if (v > 95)
      return null // FNC1–4
    else text += charIn(set, v)
  }
  return text === '' ? null : text
}

const charIn = (set: string, v: number) => String.fromCharCode(set === 'B' ? v + 32 : v < 64 ? v + 32 : v - 64)
