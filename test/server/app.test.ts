import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp, type TestApp } from './helpers.ts'

describe('app shell', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  })
  afterAll(() => t.close())

  it('answers unknown API calls with a JSON 404, not an HTML page', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/nope', headers: { 'content-type': 'application/json' }, payload: 'true' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: true, message: 'No such API call.', code: 'NOT_FOUND' })
  })

  it('refuses a malformed JSON body with a readable 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/nope', headers: { 'content-type': 'application/json' }, payload: '{"a":' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe(true)
  })

  it('refuses a body over 16 KB with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/nope',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ x: 'a'.repeat(17 * 1024) }),
    })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({ error: true, message: 'The request is too large.', code: 'BODY_TOO_LARGE' })
  })
})
