// The OpenAPI document (issue 9): GET /api/v1/openapi.json is valid OpenAPI 3.1; every route the server registers
// under /api/v1 is a call of the contract registry (contract/api.ts) and is in the document with its method, its
// bearer security or none, its request and every answer; /api/docs shows it under a CSP of its own, while the
// app's pages keep theirs.
import { Validator } from '@seriousme/openapi-schema-validator'
import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALLS } from '../../contract/api.ts'
import { REFUSAL_CODES } from '../../contract/refusal-codes.ts'
import { testApp, type TestApp } from './helpers.ts'

/** Fastify's `/event/p/get/:id` as OpenAPI writes it: `/event/p/get/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}')

describe('the OpenAPI document', () => {
  let t: TestApp
  let doc: any
  const routes: { method: string; url: string }[] = []

  beforeAll(async () => {
    t = await testApp({
      app: {
        onRoute: (route: RouteOptions) => {
          for (const method of [route.method].flat()) routes.push({ method, url: route.url })
        },
      },
    })
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
    expect(res.statusCode).toBe(200)
    doc = res.json()
  })
  afterAll(() => t.close())

  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0')
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('every route registered under /api/v1 is a call of the contract registry, and in the document', () => {
    const api = routes.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD')
    expect(api.length).toBeGreaterThanOrEqual(Object.keys(CALLS).length)
    const declared = new Set(Object.values(CALLS).map((c) => `${c.method} /api/v1${c.path}`))
    for (const { method, url } of api) {
      expect(declared, `${method} ${url} is registered but not declared in contract/api.ts`).toContain(`${method} ${url}`)
      expect(doc.paths[openApiPath(url)]?.[method.toLowerCase()], `${method} ${url} is missing from the document`).toBeDefined()
    }
  })

  it.each(Object.entries(CALLS))('%s: its security, request and every answer are in the document', (_name, call) => {
    const op = doc.paths[openApiPath(`/api/v1${call.path}`)][call.method.toLowerCase()]
    expect(op.summary).toBe(call.summary)
    if (call.auth === 'bearer') expect(op.security).toEqual([{ bearer: [] }])
    else expect(op.security ?? []).toEqual([])
    if ('body' in call && call.method === 'POST') expect(op.requestBody.content['application/json'].schema).toBeDefined()
    if ('params' in call) expect(op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual(call.path.match(/(?<=:)\w+/g))
    for (const status of Object.keys(call.answers)) expect(op.responses[status], `answer ${status}`).toBeDefined()
    for (const [status, answer] of Object.entries(op.responses) as [string, any][]) {
      // A refusal is the error shape; the door's check-in adds its result to it (409 ALREADY_CHECKED_IN, 404 UNKNOWN_TICKET).
      const schema = answer.content?.['application/json']?.schema ?? {}
      if (Number(status) >= 400 && !schema.anyOf) expect(schema).toEqual({ $ref: '#/components/schemas/Error' })
      if (Number(status) >= 400 && schema.anyOf) expect(schema.anyOf).toContainEqual({ $ref: '#/components/schemas/Error' })
    }
  })

  it('declares the bearer scheme and the error shape once, with every refusal code (issue 38 item 3)', () => {
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    expect(doc.components.schemas.Error).toMatchObject({
      type: 'object',
      properties: { error: { type: 'boolean', const: true }, message: { type: 'string' }, code: { type: 'string', enum: [...REFUSAL_CODES] } },
      required: ['error', 'message', 'code'],
    })
  })

  it('every refusal the document names carries a declared code; a door answer’s code is its result', () => {
    const refusals = Object.entries(doc.components.schemas as Record<string, any>).filter(([, schema]) => schema.properties?.error?.const === true)
    expect(refusals.map(([name]) => name)).toEqual(expect.arrayContaining(['Error', 'AlreadyCheckedIn', 'UnknownTicket', 'NotInside', 'ExpiredCode']))
    for (const [name, schema] of refusals) {
      expect(schema.required, name).toContain('code')
      const codes: unknown[] = schema.properties.code.enum ?? [schema.properties.code.const]
      for (const code of codes) expect(REFUSAL_CODES, name).toContain(code)
      if (schema.properties.result) expect(schema.properties.code.const, name).toBe(schema.properties.result.const)
    }
  })
})

describe('/api/docs', () => {
  let t: TestApp
  beforeAll(async () => (t = await testApp()))
  afterAll(() => t.close())

  it('serves the reference page under a CSP that lets its own scripts run, and nothing from elsewhere', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toMatch(/script-src 'self'/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toContain('upgrade-insecure-requests')
    const script = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' })
    expect(script.statusCode).toBe(200)
  })

  it('the API keeps the app’s strict policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' })
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'")
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'")
  })
})
