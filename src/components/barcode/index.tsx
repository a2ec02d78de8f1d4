// A Code 128 barcode as inline SVG. Always black on white, whatever the theme: scanners need the contrast,
// and the white includes the quiet zones either side.
import { barcodeSvgModel, barsPath } from '../../lib/code128.ts'

export interface BarcodeProps {
  value: string
  /** Bar height in modules (the SVG scales to its container's width). */
  height?: number
  /** What the barcode is, for screen readers: 'Ticket barcode' → 'Ticket barcode: K7Q2X9M4P8Z1'. */
  label?: string
}

const paper = 'background:#fff;color:#000;forced-color-adjust:none;text-align:center;padding:8px 0;margin:0'

export function Barcode({ value, height = 60, label = 'Barcode' }: BarcodeProps) {
  let model
  try {
    model = barcodeSvgModel(value)
  } catch {
    model = null // empty or non-ASCII: show the text alone rather than break the screen
  }
  return (
    <figure style={paper}>
      {model && (
        <svg role="img" aria-label={`${label}: ${value}`} viewBox={`0 0 ${model.width} ${height}`} shape-rendering="crispEdges" style="width:100%;height:auto">
          <rect width={model.width} height={height} fill="#fff" />
          <path d={barsPath(model.bars, height)} fill="#000" />
        </svg>
      )}
      <figcaption style="font:600 1rem/1.5 ui-monospace,monospace;letter-spacing:.1em" aria-hidden={model ? 'true' : undefined}>
        {value}
      </figcaption>
    </figure>
  )
}
