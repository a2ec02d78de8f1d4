// Builds the real app on a fresh database for a test file: PGlite in memory by default, or a new
// PostgreSQL database (created and dropped here) when asked for 'postgres' and TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { inject } from 'vitest'
import { buildApp, type AppOptions } from '../../server/app.ts'
import { loadConfig, type Config } from '../../server/config.ts'
import { openDatabase, schema, type Database } from '../../server/db/index.ts'

export type DbKind = 'pglite' | 'postgres'

/** The kinds a suite should run on: PGlite always, PostgreSQL too when TEST_DATABASE_URL names one. */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']

/**
 * The migrated empty embedded database, dumped once for the run (global-setup.ts): each test's PGlite starts from a
 * copy of it (about 1 s) instead of initialising PostgreSQL and running every migration (3-4 s each; issue 23 item 6).
 */
let migratedPglite: Blob | undefined
function migratedPgliteDump(): Blob {
  migratedPglite ??= new Blob([readFileSync(inject('migratedPglite'))])
  return migratedPglite
}

/** A test's database; `url` names the PostgreSQL one (for tools run beside the test: pg_dump, the compiled server). */
export async function testDatabase(kind: DbKind = 'pglite'): Promise<Database & { url?: string }> {
  if (kind === 'pglite') return openDatabase({ from: migratedPgliteDump() })
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: it must name a PostgreSQL database to create test databases from.')
  const { default: postgres } = await import('postgres')
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  // A copy of the migrated database global-setup.ts made: a few tens of ms, where migrating each took 200-300 ms.
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${inject('migratedPostgres')}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), max: 20 })
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close()
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

export interface TestApp {
  app: FastifyInstance
  database: Database
  config: Config
  /** A signed-in student: the user row and a bearer header for it. */
  student(overrides?: Partial<typeof schema.users.$inferInsert>): Promise<{ id: number; auth: { authorization: string } }>
  close(): Promise<void>
}

export async function testApp(
  options: { kind?: DbKind; env?: NodeJS.ProcessEnv; accessTokenSeconds?: number; app?: Partial<AppOptions> } = {},
): Promise<TestApp> {
  const database = await testDatabase(options.kind)
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'campus-test-')),
    APP_URL: 'http://app.test',
    JWT_SECRET: 'test-secret-' + randomBytes(8).toString('hex'),
    STATIC_DIR: join(tmpdir(), 'no-static-here'),
    ...options.env,
  })
  // Rate limits and load shedding are off here: these suites fire hundreds of requests at once, or fifty
  // by one student, to prove the writes hold; the limits themselves are tested in rate-limit/overload tests.
  const app = await buildApp({
    config,
    database,
    accessTokenSeconds: options.accessTokenSeconds,
    rateLimits: false,
    overload: { maxInFlight: Number.MAX_SAFE_INTEGER, maxQueueDelayMs: 0, maxEventLoopDelayMs: 0 },
    // Each app's process metrics would watch the whole process: many apps in one test process need none.
    processMetrics: false,
    ...options.app,
  })
  await app.ready()
  let n = 0
  const { accessTokens } = await import('../../server/auth/tokens.ts')
  const tokens = accessTokens(new TextEncoder().encode(config.jwtSecret!))
  return {
    app,
    database,
    config,
    async student(overrides = {}) {
      n += 1
      const [user] = await database.db
        .insert(schema.users)
        .values({
          issuer: 'test',
          subject: `student-${n}-${randomBytes(4).toString('hex')}`,
          email: `student${n}@example.edu`,
          name: `Student ${n}`,
          // Unique among students (migration 0003): 9000000001, 9000000002, ...
          phoneNumber: String(9_000_000_000 + n),
          rollNumber: `R${n}`,
          college: 'KJSCE',
          ...overrides,
        })
        .returning({ id: schema.users.id })
      return { id: user.id, auth: { authorization: `Bearer ${await tokens.sign(user.id)}` } }
    },
    async close() {
      await app.close()
      await database.close()
    },
  }
}
