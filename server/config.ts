// Configuration from the environment (API.md "Configuration"), read once at start.
export interface Config {
  port: number
  appUrl: string
  databaseUrl?: string
  dataDir: string
  jwtSecret?: string
  production: boolean
  google?: { clientId: string; clientSecret: string; issuer: string }
  allowedEmailDomains: string[]
  /** Where the built SPA lives; absent in API-only tests. */
  staticDir?: string
  redisUrl?: string
  /** The API's origin when the SPA was built to call another host (VITE_API_HOST), for the CSP. */
  apiOrigin?: string
  /** Per-minute overrides of the rate limits (RATE_LIMIT_WRITES, _SIGN_IN, _REFRESH; docs/deployment.md). */
  rateLimits?: { writes?: number; signIn?: number; refresh?: number }
  /** Requests in flight per instance before 503 (MAX_IN_FLIGHT). */
  maxInFlight?: number
  /** The scheduler's longest wait between ticks, ms (SCHEDULER_INTERVAL_MS, default 1000; 0 turns it off). */
  schedulerIntervalMs?: number
  /** Where uploaded images are stored (UPLOADS_DIR, default DATA_DIR/uploads). */
  uploadsDir?: string
}

function positiveInt(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, not "${raw}"`)
  return n
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${env.PORT}"`)
  const production = env.NODE_ENV === 'production'
  const google =
    env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          issuer: env.GOOGLE_ISSUER || 'https://accounts.google.com',
        }
      : undefined
  if (production && !google) {
    throw new Error('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are required in production (NODE_ENV=production).')
  }
  if (production && !env.JWT_SECRET) throw new Error('JWT_SECRET is required in production (NODE_ENV=production).')
  return {
    port,
    appUrl: (env.APP_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || './data',
    jwtSecret: env.JWT_SECRET || undefined,
    production,
    google,
    allowedEmailDomains: (env.ALLOWED_EMAIL_DOMAINS ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
    staticDir: env.STATIC_DIR || 'dist',
    redisUrl: env.REDIS_URL || undefined,
    apiOrigin: env.VITE_API_HOST ? new URL(env.VITE_API_HOST).origin : undefined,
    rateLimits: {
      writes: positiveInt(env, 'RATE_LIMIT_WRITES'),
      signIn: positiveInt(env, 'RATE_LIMIT_SIGN_IN'),
      refresh: positiveInt(env, 'RATE_LIMIT_REFRESH'),
    },
    maxInFlight: positiveInt(env, 'MAX_IN_FLIGHT'),
    uploadsDir: env.UPLOADS_DIR || `${(env.DATA_DIR || './data').replace(/\/+$/, '')}/uploads`,
    schedulerIntervalMs: env.SCHEDULER_INTERVAL_MS === '0' ? 0 : positiveInt(env, 'SCHEDULER_INTERVAL_MS'),
  }
}
