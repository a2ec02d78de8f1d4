// Starts the server: configuration, database (migrated, demo data on first start), listen, graceful shutdown.
import { loadConfig } from './config.ts'
import { openDatabase } from './db/index.ts'
import { seedDemoData } from './db/demo.ts'
import { buildApp } from './app.ts'
import { announceStart, loggerFor } from './console-output.ts'

const config = loadConfig()
const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir })
const demo = config.production ? null : await seedDemoData(database.db)
const app = await buildApp({ config, database, logger: loggerFor() })

let closing = false
async function shutdown(signal: string) {
  if (closing) return
  closing = true
  app.log.info({ signal }, 'shutting down: finishing requests in flight')
  const force = setTimeout(() => process.exit(1), 9_000)
  force.unref()
  // Fastify closes the idle keep-alive connections once, when closing starts; a connection whose request
  // finishes later would stay open until the client's keep-alive timer. Close those as they go idle.
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100)
  sweep.unref()
  try {
    await app.close()
    await database.close()
  } finally {
    process.exit(0)
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))

await app.listen({ port: config.port, host: process.env.HOST ?? '0.0.0.0' })
announceStart(app, { config, demo })
