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
  }
}
