// A route as contract/api.ts declares it: method, path, and the schemas Fastify validates the request with and
// serialises the answers by (through the zod type provider, so the handler's input and answer are typed), plus
// what the OpenAPI document shows. A route file spreads this and adds its handler and rate limit.
import type { CallSpec } from '../../contract/api.ts'

export function declared<C extends CallSpec>(call: C) {
  // The bearer check is registered once, for the scope of the /p/ paths (app.ts); the contract must agree.
  if ((call.auth === 'bearer') !== call.path.includes('/p/')) throw new Error(`${call.path}: only /p/ paths take a bearer token`)
  const schema = {
    summary: call.summary,
    tags: [call.tag],
    security: call.auth === 'bearer' ? [{ bearer: [] }] : [],
    params: call.params as C['params'],
    querystring: call.querystring as C['querystring'],
    body: call.body as C['body'],
    response: call.answers as C['answers'],
  }
  // A key present but undefined reads to Fastify as a schema it cannot find.
  for (const key of ['params', 'querystring', 'body'] as const) if (schema[key] === undefined) delete schema[key]
  return { method: call.method, url: call.path, schema, ...(call.bodyLimit ? { bodyLimit: call.bodyLimit } : {}) }
}
