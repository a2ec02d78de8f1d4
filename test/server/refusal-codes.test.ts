// Every refusal carries a stable code beside its message (issue 38 item 3): each row of the outcome table
// (server/routes/outcomes.ts) answers its own code through the one error handler, whatever words it is given; the
// table's codes are unique and declared in contract/refusal-codes.ts, which declares each code once.
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUSAL_CODES } from '../../contract/refusal-codes.ts'
import type { Refusal } from '../../server/db/outcomes.ts'
import { errors } from '../../server/plugins/errors.ts'
import { REFUSALS, refusal } from '../../server/routes/outcomes.ts'

const names = Object.keys(REFUSALS) as Refusal[]

describe('the refusal codes', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = Fastify()
    await app.register(errors)
    // A refusal by name, as a route throws it; `words` stand for a message that names the field or question at hand.
    app.post('/refuse/:name', async (request) => {
      const { name } = request.params as { name: Refusal }
      const { words, retryAfter } = (request.body ?? {}) as { words?: string; retryAfter?: number }
      throw refusal(name, words, retryAfter)
    })
  })
  afterAll(() => app.close())

  const refuse = (name: Refusal, body: { words?: string; retryAfter?: number } = {}) => app.inject({ method: 'POST', url: `/refuse/${name}`, payload: body })

  it.each(names)('%s answers its status, its words and its code', async (name) => {
    const { status, code, message } = REFUSALS[name]
    const res = await refuse(name)
    expect(res.statusCode).toBe(status)
    expect(res.json()).toEqual({ error: true, message, code })
  })

  it.each(names)('%s keeps its code when its words vary', async (name) => {
    const res = await refuse(name, { words: 'Other words, naming the field at hand.' })
    expect(res.json()).toEqual({ error: true, message: 'Other words, naming the field at hand.', code: REFUSALS[name].code })
  })

  it('a refusal the domain times (drawRunning) says when to try again', async () => {
    const res = await refuse('drawRunning', { retryAfter: 1 })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('1')
    expect(res.json()).toEqual({ error: true, message: REFUSALS.drawRunning.message, code: 'DRAW_RUNNING' })
  })

  it('no two refusals of the table share a code, and each is declared', () => {
    const codes = names.map((name) => REFUSALS[name].code)
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of codes) expect(REFUSAL_CODES).toContain(code)
  })

  it('the contract declares each code once, in SCREAMING_SNAKE_CASE', () => {
    expect(new Set(REFUSAL_CODES).size).toBe(REFUSAL_CODES.length)
    for (const code of REFUSAL_CODES) expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/)
  })
})
