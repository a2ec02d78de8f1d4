// The organiser console's calls (contract/org.ts, API.md Part 2 "Organiser calls").
// Calls not built yet answer 404 'This call is not available yet.', exactly as an unregistered path did, so that
// the OpenAPI document and the contract stay in step while the calls land one by one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { ORG_CALLS } from '../../contract/org.ts'
import { notFound } from '../errors.ts'
import { declared } from './declare.ts'

const orgRoutes: FastifyPluginAsyncZod = async (app) => {
  const built = new Set<string>()
  for (const name of Object.keys(ORG_CALLS) as (keyof typeof ORG_CALLS)[]) {
    if (built.has(name)) continue
    app.route({
      ...declared(CALLS[name]),
      handler: async () => {
        throw notFound('This call is not available yet.')
      },
    })
  }
}

export default orgRoutes
