// Configuration from the environment (API.md "Configuration"), read once at start.
import { isIP } from 'node:net'
import { RAZORPAY_API_URL, RAZORPAY_CHECKOUT_URL, type RazorpaySettings } from './payments/razorpay.ts'
import type { PushEndpoints } from './push/endpoint.ts'

/**
 * Whom the app believes about the client address (X-Forwarded-For): nobody (`false`, the default: the socket's
 * address is the client's), the last N hops, or the proxies at these addresses / CIDR ranges.
 */
export type TrustProxy = false | number | string[]
export interface Config {
  port: number
  /** Where to listen (HOST, default every interface): the server, and the metrics' own port when set. */
  host: string
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
  /** Megabytes of stored images one organiser may keep (UPLOAD_QUOTA_MB, default 100; issue 21 item 9). */
  uploadQuotaMb?: number
  /** TRUST_PROXY (docs/deployment.md "Proxy"): off unless set. */
  trustProxy: TrustProxy
  /** REFRESH_REUSE_GRACE_SECONDS (API.md, refresh-token): default 10, 0 turns the grace off. */
  refreshReuseGraceSeconds?: number
  /** Minutes a freed place is held for the first on the waitlist (WAITLIST_HOLD_MINUTES, default 30). */
  waitlistHoldMinutes?: number
  /** Web Push keys (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT): required in production; elsewhere generated into DATA_DIR. */
  vapid?: { publicKey: string; privateKey: string; subject?: string }
  /**
   * PUSH_ENDPOINTS: 'public' (the default in production) takes only https push services at public addresses;
   * 'any' (the default elsewhere: development and tests run their push service on this machine) any http(s) URL.
   */
  pushEndpoints: PushEndpoints
  /**
   * Prometheus metrics (docs/deployment.md "Metrics"): METRICS_TOKEN, the bearer token /api/v1/metrics then
   * requires; METRICS_PORT, a port of their own (on HOST) where /metrics answers without a token.
   */
  metrics: { token?: string; port?: number }
  /**
   * ADMIN_EMAILS (issue 37 item 4): accounts signing in with one of these e-mails (compared without case) become
   * admins at sign-in, so a fresh deployment's first admin needs no command line and no restart.
   */
  adminEmails: string[]
  /**
   * Razorpay (issue 35, API.md Part 4): RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET, RAZORPAY_API_URL
   * (default https://api.razorpay.com; tests point it at a stand-in), RAZORPAY_CHECKOUT_URL (the checkout's script).
   * Without the keys Razorpay is not offered.
   */
  razorpay?: RazorpaySettings
  /** BACKUP_PASSPHRASE: seals the embedded database's backups (AES-256-GCM; server/backup/sealed.ts); restore needs it. */
  backupPassphrase?: string
}

function graceSeconds(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0 || n > 60) throw new Error(`REFRESH_REUSE_GRACE_SECONDS must be a whole number from 0 to 60, not "${raw}"`)
  return n
}

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

function proxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true
  const [address, bits, ...rest] = entry.split('/')
  if (rest.length > 0) return false
  const kind = isIP(address)
  if (kind === 0) return false
  if (bits === undefined) return true
  if (!/^[0-9]{1,3}$/.test(bits)) return false
  return Number(bits) <= (kind === 4 ? 32 : 128)
}

/**
 * TRUST_PROXY: unset, empty, `false`, `0` or `off` trusts no proxy; a whole number is the count of proxies in
 * front of the app (the client is that many hops back in X-Forwarded-For); otherwise a comma-separated list of
 * proxy addresses or CIDR ranges (or `loopback`, `linklocal`, `uniquelocal`). `true` (trust every hop, i.e. any
 * client) is refused.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim()
  if (value === '' || /^(false|off|no|0)$/i.test(value)) return false
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value)
    if (hops > 10) throw new Error(`TRUST_PROXY must be a hop count from 1 to 10 or a list of proxy addresses, not "${raw}"`)
    return hops
  }
  if (/^(true|on|yes|\*)$/i.test(value)) {
    throw new Error(
      `TRUST_PROXY="${raw}" would believe any client's X-Forwarded-For: give the number of proxies in front of the app (e.g. 1) or their addresses (e.g. 10.0.0.5,10.0.0.6).`,
    )
  }
  const entries = value.split(',').map((e) => e.trim())
  const bad = entries.filter((e) => !proxyAddress(e))
  if (bad.length > 0) {
    throw new Error(`TRUST_PROXY must be a hop count or a comma-separated list of IP addresses or CIDR ranges; not an address: "${bad[0].slice(0, 60)}"`)
  }
  return entries
}

/** METRICS_TOKEN: a bearer secret; a short one would be guessable from a scraper's network. */
function metricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined
  if (raw.length < 16 || /\s/.test(raw))
    throw new Error('METRICS_TOKEN must be at least 16 characters without spaces: generate one with `openssl rand -hex 32`.')
  return raw
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
  // NODE_ENV=Production (or prod) must not quietly mean development (a sign-in form that trusts any e-mail).
  const nodeEnv = env.NODE_ENV ?? ''
  if (nodeEnv !== 'production' && /^\s*prod(uction)?\s*$/i.test(nodeEnv)) {
    throw new Error(`NODE_ENV must be exactly "production" (lower case), not "${nodeEnv}".`)
  }
  const production = nodeEnv === 'production'
  const pushEndpoints = env.PUSH_ENDPOINTS || (production ? 'public' : 'any')
  if (pushEndpoints !== 'public' && pushEndpoints !== 'any') throw new Error(`PUSH_ENDPOINTS must be "public" or "any", not "${pushEndpoints}".`)
  // Half the Google settings would fall back to the development sign-in form: refuse instead.
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    throw new Error(
      `${env.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID'} is missing: set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither.`,
    )
  }
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
  if (production && !(env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY)) {
    throw new Error(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required in production (NODE_ENV=production): generate them with `npx web-push generate-vapid-keys`.',
    )
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
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
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    refreshReuseGraceSeconds: graceSeconds(env.REFRESH_REUSE_GRACE_SECONDS),
    waitlistHoldMinutes: positiveInt(env, 'WAITLIST_HOLD_MINUTES'),
    uploadQuotaMb: positiveInt(env, 'UPLOAD_QUOTA_MB'),
    vapid:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT || undefined }
        : undefined,
    pushEndpoints,
    metrics: { token: metricsToken(env.METRICS_TOKEN), port: metricsPort(env.METRICS_PORT, port) },
    backupPassphrase: env.BACKUP_PASSPHRASE || undefined,
    razorpay: razorpayOf(env),
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  }
}

/** Razorpay's settings, all three secrets or none (a half-configured gateway would take money it cannot confirm). */
function razorpayOf(env: NodeJS.ProcessEnv): RazorpaySettings | undefined {
  const keyId = env.RAZORPAY_KEY_ID || ''
  const keySecret = env.RAZORPAY_KEY_SECRET || ''
  const webhookSecret = env.RAZORPAY_WEBHOOK_SECRET || ''
  if (!keyId && !keySecret && !webhookSecret) return undefined
  if (!keyId || !keySecret || !webhookSecret)
    throw new Error('Razorpay needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET together (README: "Paid events"); set all three or none.')
  for (const [name, value] of [
    ['RAZORPAY_API_URL', env.RAZORPAY_API_URL],
    ['RAZORPAY_CHECKOUT_URL', env.RAZORPAY_CHECKOUT_URL],
  ] as const)
    if (value && !/^https?:\/\/[^\s]+$/.test(value)) throw new Error(`${name} must be an http(s) URL, not "${value}"`)
  return {
    keyId,
    keySecret,
    webhookSecret,
    apiUrl: env.RAZORPAY_API_URL || RAZORPAY_API_URL,
    checkoutUrl: env.RAZORPAY_CHECKOUT_URL || RAZORPAY_CHECKOUT_URL,
  }
}

/** METRICS_PORT: a port number (0 picks a free one, for tests), never the server's own. */
function metricsPort(raw: string | undefined, serverPort: number): number | undefined {
  if (raw === undefined || raw === '') return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`METRICS_PORT must be a port number, not "${raw}"`)
  if (n !== 0 && n === serverPort) throw new Error(`METRICS_PORT must differ from PORT (${serverPort}): the metrics get a port of their own.`)
  return n
}
