// The VAPID key pair that signs this server's Web Push requests: from the configuration (required in
// production), otherwise generated once into DATA_DIR/vapid.json so that subscriptions survive restarts.
import { createECDH } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Config } from '../config.ts'

export interface Vapid {
  publicKey: string
  privateKey: string
  subject: string
}

export function loadVapid(config: Config): Vapid {
  const subject = config.vapid?.subject || (config.appUrl.startsWith('https:') ? config.appUrl : 'mailto:events@example.edu')
  if (config.vapid) {
    // Validates the keys now, not at the first send (web-push is loaded here only when keys are configured).
    const webpush = createRequire(import.meta.url)('web-push') as typeof import('web-push')
    webpush.setVapidDetails(subject, config.vapid.publicKey, config.vapid.privateKey)
    return { publicKey: config.vapid.publicKey, privateKey: config.vapid.privateKey, subject }
  }
  if (config.production) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required in production.')
  const file = join(config.dataDir, 'vapid.json')
  try {
    const keys = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string }
    if (keys.publicKey && keys.privateKey) return { ...keys, subject }
  } catch {}
  const keys = generateVapidKeys()
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 })
  return { ...keys, subject }
}

/**
 * A new VAPID key pair, as web-push's generateVAPIDKeys makes it (a P-256 key: the 65-byte uncompressed public
 * key and the 32-byte private key, base64url), with node:crypto: a first start need not load web-push.
 */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const curve = createECDH('prime256v1')
  curve.generateKeys()
  const privateKey = curve.getPrivateKey()
  const padded = Buffer.concat([Buffer.alloc(32 - privateKey.length), privateKey])
  return { publicKey: curve.getPublicKey().toString('base64url'), privateKey: padded.toString('base64url') }
}
