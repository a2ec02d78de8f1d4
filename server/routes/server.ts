// What the server says about itself: the proxy's health check (200 while this instance takes requests;
// plugins/overload.ts answers 503 first when it would refuse them) and the OpenAPI document.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { declared } from './declare.ts'

export const HEALTH_PATH = `/api/v1${CALLS.health.path}`

const serverRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({ ...declared(CALLS.health), handler: async () => ({ error: false as const, status: 'ok' as const }) })
  app.route({ ...declared(CALLS.openApi), handler: async () => app.swagger() as unknown as Record<string, unknown> })
}

export default serverRoutes
