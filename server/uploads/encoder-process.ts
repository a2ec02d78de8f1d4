// The image encoder's own process (forked by ./encoder.ts): sharp decodes and re-encodes here, at a lower CPU priority
// than the server, so an organiser's upload takes only the CPU the students' calls leave (issue 21 item 1: uploads
// beside a student polling raised the student's p99 about 3x when libvips shared the server's priority). A crash in
// libvips on a hostile file ends this process, not the server. Requests and answers arrive over the IPC channel
// (advanced serialisation: buffers are copied, not turned into JSON), one at a time.
import type { EncoderRequest, EncoderAnswer } from './encoder.ts'
import { encodeImage, readPixels } from './sharp-work.ts'

/** Idle this long, the process ends (the next upload starts another): an upload is rare, libvips is ~28 MB. */
const IDLE_MS = 60_000
let idle: NodeJS.Timeout | undefined
const rest = () => {
  if (idle) clearTimeout(idle)
  idle = setTimeout(() => process.exit(0), IDLE_MS)
}

process.on('message', async (message: EncoderRequest) => {
  if (idle) clearTimeout(idle)
  let answer: EncoderAnswer
  try {
    const buffer = Buffer.from(message.buffer.buffer, message.buffer.byteOffset, message.buffer.byteLength)
    answer =
      message.op === 'pixels'
        ? { id: message.id, ok: true, pixels: await readPixels(buffer) }
        : { id: message.id, ok: true, encoded: await encodeImage(buffer) }
  } catch (err) {
    answer = { id: message.id, ok: false, message: err instanceof Error ? err.message : String(err) }
  }
  process.send?.(answer)
  rest()
})
// The server went away: so does its encoder.
process.on('disconnect', () => process.exit(0))
rest()
