// The certificate's fonts for names the standard fonts cannot write (server/feeds/certificate-pdf.ts), all Noto
// Sans under the SIL Open Font Licence 1.1, regular and bold:
//   Devanagari   @expo-google-fonts/noto-sans-devanagari (TTF), which also has Latin and Latin Extended (Ł, ā)
//   Tamil, Bengali, Kannada, Malayalam, Telugu, Gujarati, Gurmukhi, Odia (oriya)   @fontsource/noto-sans-*
//                (WOFF, the script's own range only; unwrapped once to TrueType, see sfntOf())
// Embedded as subsets (only the glyphs used, a few KB) and shaped by fontkit (@pdf-lib/fontkit): conjuncts,
// reordered vowel signs and the reph come out as in print. This module is loaded the first time such a name is
// met; the font files are read and parsed once per process.
//
// @pdf-lib/fontkit's Indic shaper is compiled with regenerator and expects its runtime as a global.
import 'regenerator-runtime/runtime.js'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { inflateSync } from 'node:zlib'
import fontkit from '@pdf-lib/fontkit'
import type { PDFDocument } from 'pdf-lib'

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0]
export type Weight = 'regular' | 'bold'

const require = createRequire(import.meta.url)
const fontsource = (script: string) => ({
  regular: `@fontsource/noto-sans-${script}/files/noto-sans-${script}-${script}-400-normal.woff`,
  bold: `@fontsource/noto-sans-${script}/files/noto-sans-${script}-${script}-700-normal.woff`,
})
/** In order of preference: a character goes to the first font that has it. */
const FILES: Record<Weight, string>[] = [
  {
    regular: '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf',
  },
  fontsource('tamil'),
  fontsource('bengali'),
  fontsource('kannada'),
  fontsource('malayalam'),
  fontsource('telugu'),
  fontsource('gujarati'),
  fontsource('gurmukhi'),
  fontsource('oriya'),
]

export interface ScriptFont {
  bytes: Record<Weight, Uint8Array>
  /** Whether the font has a glyph for this character (the same for both weights). */
  covers(char: string): boolean
}

export interface ScriptFonts {
  fonts: ScriptFont[]
  /** fontkit for PDFDocument.registerFontkit: the font files parsed once, not per certificate. */
  fontkit: Fontkit
}

let loading: Promise<ScriptFonts> | null = null

export function scriptFonts(): Promise<ScriptFonts> {
  loading ??= load().catch((err) => {
    loading = null // a failed read is tried again on the next certificate
    throw err
  })
  return loading
}

async function load(): Promise<ScriptFonts> {
  const parsed = new Map<Uint8Array, ReturnType<Fontkit['create']>>()
  const cached: Fontkit = {
    create(buffer: Uint8Array, postscriptName?: string) {
      let font = parsed.get(buffer)
      if (!font) {
        font = fontkit.create(buffer, postscriptName)
        parsed.set(buffer, font)
      }
      return font
    },
  }
  const fonts = await Promise.all(
    FILES.map(async (files): Promise<ScriptFont> => {
      const [regular, bold] = await Promise.all([files.regular, files.bold].map(async (file) => sfntOf(await readFile(require.resolve(file)))))
      const reference = cached.create(regular)
      return { bytes: { regular, bold }, covers: (char) => reference.hasGlyphForCodePoint(char.codePointAt(0)!) }
    }),
  )
  return { fonts, fontkit: cached }
}

/**
 * A WOFF 1.0 font as the plain TrueType/OpenType file it wraps (its tables inflated once), so that fontkit does
 * not inflate a whole table again on every glyph it reads (it does for WOFF: most of a certificate's time).
 * Any other font is answered as it is.
 */
export function sfntOf(font: Uint8Array): Uint8Array {
  const woff = Buffer.from(font.buffer, font.byteOffset, font.byteLength)
  if (woff.toString('latin1', 0, 4) !== 'wOFF') return font
  const numTables = woff.readUInt16BE(12)
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20
    const offset = woff.readUInt32BE(at + 4)
    const compLength = woff.readUInt32BE(at + 8)
    const origLength = woff.readUInt32BE(at + 12)
    const stored = woff.subarray(offset, offset + compLength)
    const data = compLength < origLength ? inflateSync(stored) : stored
    if (data.length !== origLength) throw new Error(`WOFF table ${woff.toString('latin1', at, at + 4)}: ${data.length} bytes, not ${origLength}`)
    return { tag: woff.subarray(at, at + 4), checksum: woff.readUInt32BE(at + 16), data }
  })
  const pad = (n: number) => (n + 3) & ~3
  const headerBytes = 12 + 16 * numTables
  const out = Buffer.alloc(headerBytes + tables.reduce((n, t) => n + pad(t.data.length), 0))
  const entrySelector = Math.floor(Math.log2(numTables))
  out.writeUInt32BE(woff.readUInt32BE(4), 0) // the flavour: the sfnt version
  out.writeUInt16BE(numTables, 4)
  out.writeUInt16BE(16 * 2 ** entrySelector, 6)
  out.writeUInt16BE(entrySelector, 8)
  out.writeUInt16BE(16 * numTables - 16 * 2 ** entrySelector, 10)
  let offset = headerBytes
  tables.forEach((t, i) => {
    const at = 12 + 16 * i
    t.tag.copy(out, at)
    out.writeUInt32BE(t.checksum, at + 4)
    out.writeUInt32BE(offset, at + 8)
    out.writeUInt32BE(t.data.length, at + 12)
    t.data.copy(out, offset)
    offset += pad(t.data.length)
  })
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
}
