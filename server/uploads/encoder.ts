// The server's side of the image encoder: one child process per instance (./encoder-process.ts), started at the
// first upload, niced (ENCODER_NICE) so that re-encoding yields the CPU to the students' calls, and asked one image
// at a time (uploads queue here: a burst of them costs one core, at low priority, for a while). Written here: a
// worker pool library would add threads at the server's own priority, which is what this avoids.
import { type ChildProcess, fork } from 'node:child_process'
import { getPriority, setPriority } from 'node:os'
import { fileURLToPath } from 'node:url'

/** The encoder's nice value above the server's: 10 more gets about a tenth of a contended core against it. */
export const ENCODER_NICE = 10

export type EncoderRequest = { id: number; op: 'pixels' | 'encode'; buffer: Uint8Array }
/** An upload re-encoded: the details' and the card's WebP, and their sizes. */
export interface Encoded {
  details: Buffer
  card: Buffer
  width: number
  height: number
  cardWidth: number
  cardHeight: number
}

export type EncoderAnswer = { id: number; ok: true; pixels?: number | null; encoded?: Encoded } | { id: number; ok: false; message: string }

let child: ChildProcess | undefined
let nextId = 1
/** The requests awaiting an answer, each with the process it was sent to (which alone can answer or fail it). */
const pending = new Map<number, { encoder: ChildProcess; resolve: (answer: EncoderAnswer) => void; reject: (err: Error) => void }>()

function encoderProcess(): ChildProcess {
  if (child && child.connected) return child
  // Compiled (build/server/uploads/encoder.js) the child is plain JavaScript; from source (tests, npm run dev:api)
  // it is TypeScript, run through tsx as the server is.
  const file = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './encoder-process.ts' : './encoder-process.js', import.meta.url))
  const started = fork(file, [], {
    serialization: 'advanced',
    execArgv: file.endsWith('.ts') ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  try {
    if (started.pid) setPriority(started.pid, Math.min(19, getPriority() + ENCODER_NICE))
  } catch {
    // Not allowed to lower it (a sandbox): the encoder still runs, at the server's priority.
  }
  started.on('message', (answer: EncoderAnswer) => {
    const waiting = pending.get(answer.id)
    pending.delete(answer.id)
    waiting?.resolve(answer)
  })
  // A send to a process that has just died: forgotten, the requests waiting on it refused (exit does the same).
  started.on('error', () => {
    if (child === started) child = undefined
    started.kill('SIGKILL')
  })
  // Only this process's requests fail with it: one that died is replaced at the next request (it is no longer
  // connected), and its exit can come after a request went to its successor, which must not fail for it.
  started.on('exit', () => {
    if (child === started) child = undefined
    for (const [id, waiting] of pending) {
      if (waiting.encoder !== started) continue
      pending.delete(id)
      waiting.reject(new Error('the image encoder stopped'))
    }
  })
  // The encoder never keeps the server's process alive (tests, a shutdown): it ends when the server does.
  started.unref()
  started.channel?.unref()
  child = started
  return started
}

function ask(op: EncoderRequest['op'], buffer: Buffer): Promise<EncoderAnswer> {
  const encoder = encoderProcess()
  // While an answer is awaited, the channel keeps the server's loop alive (else a test could end under it).
  encoder.channel?.ref()
  const settled = () => {
    if (pending.size === 0) encoder.channel?.unref()
  }
  return new Promise<EncoderAnswer>((resolve, reject) => {
    const id = nextId++
    pending.set(id, { encoder, resolve, reject })
    encoder.send({ id, op, buffer } satisfies EncoderRequest, (err) => {
      if (!err || !pending.delete(id)) return
      reject(err)
    })
  }).finally(settled)
}

let queue: Promise<unknown> = Promise.resolve()

/** One request after another: the encoder works on one image at a time. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = queue.then(work)
  queue = turn.catch(() => {})
  return turn
}

/** The image's pixels from its header alone, or null when the header cannot be read. */
export function pixelsOf(buffer: Buffer): Promise<number | null> {
  return inTurn(async () => {
    const answer = await ask('pixels', buffer)
    if (!answer.ok) throw new Error(answer.message)
    return answer.pixels ?? null
  })
}

/** Decodes and re-encodes, after the images before it; throws when the bytes are not a readable image. */
export function encode(buffer: Buffer): Promise<Encoded> {
  return inTurn(async () => {
    const answer = await ask('encode', buffer)
    if (!answer.ok || !answer.encoded) throw new Error(answer.ok ? 'no image' : answer.message)
    const { details, card } = answer.encoded
    // Buffers come back as Uint8Arrays from the advanced serialisation.
    return { ...answer.encoded, details: Buffer.from(details), card: Buffer.from(card) }
  })
}

/** The encoder's process id while it runs (tests: its priority). */
export const encoderPid = () => (child?.connected ? child.pid : undefined)
