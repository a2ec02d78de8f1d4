// The council directory (prefix /api/v1/council).
import { asc } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Council } from '../../contract/types.ts'
import type { Deps } from '../deps.ts'
import { requireUser } from '../auth/hook.ts'
import { councils } from '../db/schema.ts'

export default async function councilsRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  await app.register(async (p) => {
    p.addHook('onRequest', requireUser(deps.tokens))

    p.post('/p/get', async () => {
      const list: Council[] = await deps.db
        .select({
          id: councils.id,
          name: councils.name,
          photo_url: councils.photoUrl,
          phone_number: councils.phoneNumber,
          email: councils.email,
        })
        .from(councils)
        .orderBy(asc(councils.name), asc(councils.id))
      return { error: false, councils: list }
    })
  })
}
