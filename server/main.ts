// Starts the server: configuration, database (migrated, demo data on first start), listen, graceful shutdown.
import closeWithGrace from 'close-with-grace'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/index.ts'
import { seedDemoData } from './db/demo.ts'
import { buildApp } from './app.ts'
import { announceStart, loggerFor } from './console-output.ts'

const config = loadConfig()
const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir })
const demo = config.production ? null : await seedDemoData(database.db)
const app = await buildApp({ config, database, logger: loggerFor() })

// SIGTERM/SIGINT: finish the requests in flight, close the database, exit 0; past 9 s, exit 1 whatever is left
// (the proxy's grace is 10 s). A second signal exits at once.
closeWithGrace({ delay: 9_000, logger: app.log }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error')
  else app.log.info({ signal }, 'shutting down: finishing requests in flight')
  // Fastify closes the idle keep-alive connections once, when closing starts; a connection whose request
  // finishes later would stay open until the client's keep-alive timer. Close those as they go idle.
  setInterval(() => app.server.closeIdleConnections(), 100).unref()
  await app.close()
  await database.close()
})

await app.listen({ port: config.port, host: config.host })
announceStart(app, { config, demo })
