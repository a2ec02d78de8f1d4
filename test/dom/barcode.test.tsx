// The Barcode component: SVG structure, accessibility, black-on-white paper, and a scan of what it drew.
import { BinaryBitmap, Code128Reader, HybridBinarizer, RGBLuminanceSource } from '@zxing/library'
import { render } from 'preact'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { Barcode } from '../../src/components/barcode/index.tsx'
import { barcodeSvgModel, barsPath } from '../../src/lib/code128.ts'

let root: HTMLElement
beforeEach(() => {
  root = document.createElement('div')
  document.body.append(root)
})
afterEach(() => {
  render(null, root)
  root.remove()
})

/** Reads the bars back out of a rendered path ('M{x} 0h{w}v{h}h-{w}z' runs) and decodes them with ZXing. */
function scanPath(d: string, widthModules: number): string {
  const px = 3
  const height = 40
  const width = widthModules * px
  const lum = new Uint8ClampedArray(width * height).fill(255)
  const runs = [...d.matchAll(/M(\d+) 0h(\d+)v(\d+)h-(\d+)z/g)]
  expect(runs.map((r) => r[0]).join('')).toBe(d) // nothing but rectangle runs in the path
  for (const [, x, w] of runs) for (let y = 0; y < height; y++) lum.fill(0, y * width + +x * px, y * width + (+x + +w) * px)
  return new Code128Reader().decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(lum, width, height)))).getText()
}

describe('Barcode', () => {
  test('one crisp path of bars in a module-unit viewBox, on a white rectangle that covers the quiet zones', () => {
    render(<Barcode value="K7Q2X9M4P8Z1" height={50} />, root)
    const model = barcodeSvgModel('K7Q2X9M4P8Z1')
    const svg = root.querySelector('svg')!
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${model.width} 50`)
    expect(svg.getAttribute('shape-rendering')).toBe('crispEdges')
    const paths = svg.querySelectorAll('path')
    expect(paths).toHaveLength(1)
    expect(paths[0].getAttribute('d')).toBe(barsPath(model.bars, 50))
    expect(paths[0].getAttribute('fill')).toBe('#000')
    const rect = svg.querySelector('rect')!
    expect([rect.getAttribute('width'), rect.getAttribute('height'), rect.getAttribute('fill')]).toEqual([String(model.width), '50', '#fff'])
    // The first bar starts after 10 white modules, the last ends 10 before the edge.
    expect(model.bars[0][0]).toBe(10)
  })

  test('what it draws scans back to the exact value', () => {
    for (const value of ['K7Q2X9M4P8Z1', '4006381333931234', 'Ab9xZ']) {
      render(<Barcode value={value} />, root)
      const svg = root.querySelector('svg')!
      const width = Number(svg.getAttribute('viewBox')!.split(' ')[2])
      expect(scanPath(svg.querySelector('path')!.getAttribute('d')!, width)).toBe(value)
    }
  })

  test('an image with an accessible name that includes the value, and the value in text beneath', () => {
    render(<Barcode value="K7Q2X9M4P8Z1" label="Ticket barcode" />, root)
    const svg = root.querySelector('svg')!
    expect(svg.getAttribute('role')).toBe('img')
    expect(svg.getAttribute('aria-label')).toBe('Ticket barcode: K7Q2X9M4P8Z1')
    const caption = root.querySelector('figcaption')!
    expect(caption.textContent).toBe('K7Q2X9M4P8Z1')
    expect(svg.compareDocumentPosition(caption) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    render(<Barcode value="X1" />, root)
    expect(root.querySelector('svg')!.getAttribute('aria-label')).toBe('Barcode: X1')
  })

  test('black on white whatever the theme (colours are literal, not theme tokens)', () => {
    render(<Barcode value="K7Q2X9M4P8Z1" />, root)
    const figure = root.querySelector('figure')!
    expect(figure.style.background).toMatch(/#fff|rgb\(255, 255, 255\)/)
    expect(figure.style.color).toMatch(/#000|rgb\(0, 0, 0\)/)
    expect(root.innerHTML).not.toContain('var(')
  })

  test('a value that cannot be encoded shows its text instead of breaking the screen', () => {
    render(<Barcode value="₹150" />, root)
    expect(root.querySelector('svg')).toBeNull()
    expect(root.querySelector('figcaption')!.textContent).toBe('₹150')
    expect(root.querySelector('figcaption')!.hasAttribute('aria-hidden')).toBe(false)
  })
})
