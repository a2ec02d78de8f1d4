// The council directory.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { declared } from './declare.ts'

const councilRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...declared(CALLS.councils),
    handler: async () => ({ error: false as const, councils: await app.councilsRepository.list() }),
  })
}

export default councilRoutes
