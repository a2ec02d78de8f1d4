// The image encoder's process (server/uploads/encoder.ts) is replaced when it dies, and the old one's exit fails only
// its own requests. The exit of a killed encoder can come after the next upload has gone to its successor (its IPC
// channel closes first): that upload failed with "the image encoder stopped", a 500 (CI, upload.test under load 11).
// Deterministic here: the processes are fakes whose events the test fires in that order.
import { EventEmitter } from 'node:events'
import { afterEach, expect, it, vi } from 'vitest'

class FakeEncoder extends EventEmitter {
  connected = true
  pid = 2_000_000_000 // no such process: setPriority fails, as in a sandbox, and the encoder runs on
  sent: { id: number }[] = []
  channel = { ref() {}, unref() {} }
  send(message: { id: number }, done?: (err: Error | null) => void) {
    this.sent.push(message)
    done?.(null)
    return true
  }
  unref() {}
  kill() {}
  answer(id: number) {
    const bytes = new Uint8Array([1])
    this.emit('message', { id, ok: true, encoded: { details: bytes, card: bytes, width: 1, height: 1, cardWidth: 1, cardHeight: 1 } })
  }
}

const forked: FakeEncoder[] = []
vi.mock('node:child_process', () => ({
  fork: () => {
    const encoder = new FakeEncoder()
    forked.push(encoder)
    return encoder
  },
}))

afterEach(() => {
  forked.length = 0
})

const settle = () => new Promise((r) => setTimeout(r, 0))

it("a dead encoder's late exit fails its own request, not the next one sent to its successor", async () => {
  const { encode } = await import('../../server/uploads/encoder.ts')
  const first = encode(Buffer.from('a'))
  await settle()
  const [a] = forked
  a.answer(a.sent[0].id)
  expect((await first).width).toBe(1)

  // Killed while working: its channel closes first; a request it held fails when it exits.
  const held = encode(Buffer.from('b'))
  await settle()
  a.connected = false
  a.emit('exit', null, 'SIGKILL')
  await expect(held).rejects.toThrow('the image encoder stopped')

  // Its successor answers, then is killed idle: its channel closes at once, and the next upload goes to a new process
  // before the old one's exit arrives. That exit must not fail it.
  const second = encode(Buffer.from('c'))
  await settle()
  const b = forked[1]
  b.answer(b.sent[0].id)
  expect((await second).width).toBe(1)
  b.connected = false
  const next = encode(Buffer.from('d'))
  await settle()
  const c = forked[2]
  expect(c.sent).toHaveLength(1)
  b.emit('exit', null, 'SIGKILL')
  await settle()
  c.answer(c.sent[0].id)
  expect((await next).width).toBe(1)
})
