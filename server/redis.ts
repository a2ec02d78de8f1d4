// A tiny Redis client (RESP2 over one TCP connection, commands pipelined in order). The server needs three
// commands — EVAL/EVALSHA for atomic counters and PING for health — so ~100 lines here replace a package
// and its dependency tree. It reconnects on the next command after a failure and never waits forever:
// every command has a deadline, so a Redis outage turns into an error the caller decides about.
import { connect, type Socket } from 'node:net'

export type RedisReply = string | number | null | RedisReply[]

export class RedisError extends Error {}

export interface Redis {
  command(args: (string | number)[]): Promise<RedisReply>
  /** Runs a Lua script by its SHA, loading it once (NOSCRIPT) when this Redis has not seen it yet. */
  script(source: string): (keys: string[], args: (string | number)[]) => Promise<RedisReply>
  close(): Promise<void>
}

interface Pending {
  resolve(value: RedisReply): void
  reject(err: Error): void
  timer: NodeJS.Timeout
}

export function createRedis(url: string, { timeoutMs = 1000 } = {}): Redis {
  const u = new URL(url)
  const host = u.hostname || '127.0.0.1'
  const port = Number(u.port || 6379)
  const password = u.password ? decodeURIComponent(u.password) : undefined
  const username = u.username ? decodeURIComponent(u.username) : undefined
  const dbIndex = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0

  let socket: Socket | null = null
  let buffer = Buffer.alloc(0)
  const queue: Pending[] = []
  let closed = false
  // Encoded commands per connection, waiting for the write at the end of this turn of the event loop.
  const outboxes = new WeakMap<Socket, Buffer[]>()

  function failAll(err: Error) {
    for (const p of queue.splice(0)) {
      clearTimeout(p.timer)
      p.reject(err)
    }
  }

  function open(): Socket {
    const s = connect({ host, port })
    s.setNoDelay(true)
    s.on('data', (chunk) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk
      for (;;) {
        let parsed: ReturnType<typeof parse>
        try {
          parsed = parse(buffer, 0)
        } catch (err) {
          s.destroy(err as Error) // not Redis speaking: fail the pending commands, reconnect next time
          return
        }
        if (!parsed) break
        buffer = buffer.subarray(parsed.end)
        const p = queue.shift()
        if (!p) continue
        clearTimeout(p.timer)
        if (parsed.value instanceof RedisError) p.reject(parsed.value)
        else p.resolve(parsed.value as RedisReply)
      }
    })
    const drop = (err?: Error) => {
      if (socket === s) socket = null
      buffer = Buffer.alloc(0)
      failAll(new RedisError(`Redis connection lost${err ? `: ${err.message}` : ''}`))
    }
    s.on('error', drop)
    s.on('close', () => drop())
    // The handshake is pipelined ahead of the caller's command, so its replies come back first.
    const hello: (string | number)[][] = []
    if (password) hello.push(username ? ['AUTH', username, password] : ['AUTH', password])
    if (dbIndex) hello.push(['SELECT', dbIndex])
    for (const args of hello) send(s, args).catch(() => s.destroy())
    return s
  }

  function send(s: Socket, args: (string | number)[]): Promise<RedisReply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // A reply that never comes leaves the pipeline out of step: drop the connection and start again.
        reject(new RedisError(`Redis did not answer within ${timeoutMs} ms`))
        s.destroy()
      }, timeoutMs)
      queue.push({ resolve, reject, timer })
      // Commands issued in the same turn of the event loop go out in one write: under load (a rate-limit
      // check per request in the ticket rush) one socket write each was the server's largest single cost.
      let out = outboxes.get(s)
      if (!out) {
        outboxes.set(s, (out = []))
        setImmediate(() => {
          outboxes.delete(s)
          if (!s.destroyed) s.write(out!.length === 1 ? out![0] : Buffer.concat(out!))
        })
      }
      out.push(encode(args))
    })
  }

  const redis: Redis = {
    command(args) {
      if (closed) return Promise.reject(new RedisError('Redis client is closed'))
      if (!socket) socket = open()
      return send(socket, args)
    },
    script(source) {
      let sha: string | null = null
      return async (keys, args) => {
        if (sha) {
          try {
            return await redis.command(['EVALSHA', sha, keys.length, ...keys, ...args])
          } catch (err) {
            if (!(err instanceof RedisError && err.message.startsWith('NOSCRIPT'))) throw err
          }
        }
        sha = String(await redis.command(['SCRIPT', 'LOAD', source]))
        return redis.command(['EVALSHA', sha, keys.length, ...keys, ...args])
      }
    },
    async close() {
      closed = true
      const s = socket
      socket = null
      if (!s) return
      await new Promise<void>((resolve) => {
        s.once('close', () => resolve())
        s.end()
        setTimeout(() => s.destroy(), 500).unref()
      })
    },
  }
  return redis
}

function encode(args: (string | number)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)]
  for (const a of args) {
    const b = Buffer.from(String(a))
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'))
  }
  return Buffer.concat(parts)
}

/** One RESP2 value starting at `at`, or null when the buffer does not hold all of it yet. */
function parse(buf: Buffer, at: number): { value: RedisReply | RedisError; end: number } | null {
  const eol = buf.indexOf('\r\n', at)
  if (eol < 0) return null
  const line = buf.toString('utf8', at + 1, eol)
  const next = eol + 2
  switch (buf[at]) {
    case 0x2b: // +
      return { value: line, end: next }
    case 0x2d: // -
      return { value: new RedisError(line), end: next }
    case 0x3a: // :
      return { value: Number(line), end: next }
    case 0x24: {
      // $
      const n = Number(line)
      if (n < 0) return { value: null, end: next }
      if (buf.length < next + n + 2) return null
      return { value: buf.toString('utf8', next, next + n), end: next + n + 2 }
    }
    case 0x2a: {
      // *
      const n = Number(line)
      if (n < 0) return { value: null, end: next }
      const items: RedisReply[] = []
      let pos = next
      for (let i = 0; i < n; i++) {
        const item = parse(buf, pos)
        if (!item) return null
        if (item.value instanceof RedisError) return item
        items.push(item.value)
        pos = item.end
      }
      return { value: items, end: pos }
    }
    default:
      throw new RedisError(`Unexpected byte from Redis: ${buf[at]}`)
  }
}
