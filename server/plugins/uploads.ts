// The uploaded event images (server/uploads/images.ts), served same-origin at /uploads/<name>.webp and
// /uploads/<name>-card.webp from UPLOADS_DIR (default DATA_DIR/uploads). Names are random and never reused, so each
// file is cached for a year as immutable.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import fp from 'fastify-plugin'
import { errorBody } from '../errors.ts'
import type { Config } from '../config.ts'
import { UPLOAD_NAME } from '../uploads/images.ts'
import { sweepUploads } from '../uploads/sweep.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Removes the images nothing uses a day after their upload (hourly on its own; tests call it with a clock). */
    sweepUploads(now?: number): Promise<string[]>
  }
}

/** How often the unused images are looked for (each instance: removing a file twice is harmless). */
const SWEEP_EVERY_MS = 3600 * 1000

/** Where the uploads live: UPLOADS_DIR, else DATA_DIR/uploads. */
export const uploadsDirOf = (config: Config) => config.uploadsDir ?? join(config.dataDir, 'uploads')

export const uploads = fp(
  async (app, { dir }: { dir: string }) => {
    app.decorate('sweepUploads', (now?: number) => sweepUploads({ dir, repo: app.uploadsRepository, now }))
    const sweep = () =>
      void app.sweepUploads().then(
        (removed) => removed.length > 0 && app.log.info({ removed: removed.length }, 'unused uploaded images removed'),
        (err) => app.log.error({ err }, 'sweeping unused uploaded images failed'),
      )
    const first = setTimeout(sweep, 60_000).unref()
    const every = setInterval(sweep, SWEEP_EVERY_MS).unref()
    app.addHook('onClose', async () => {
      clearTimeout(first)
      clearInterval(every)
    })

    app.get('/uploads/:name', { schema: { hide: true } }, async (request, reply) => {
      const { name } = request.params as { name: string }
      const file = join(dir, name)
      const info = UPLOAD_NAME.test(name) ? await stat(file).catch(() => null) : null
      if (!info?.isFile()) return reply.status(404).send(errorBody('NOT_FOUND', 'Not found.'))
      return reply
        .header('content-type', 'image/webp')
        .header('content-length', String(info.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(file))
    })
  },
  { name: 'uploads', dependencies: ['uploads-repository'] },
)
