// The VAPID key pair that signs this server's Web Push requests: from the configuration (required in
// production), otherwise generated once into DATA_DIR/vapid.json so that subscriptions survive restarts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import webpush from 'web-push'
import type { Config } from '../config.ts'

export interface Vapid {
  publicKey: string
  privateKey: string
  subject: string
}

export function loadVapid(config: Config): Vapid {
  const subject = config.vapid?.subject || (config.appUrl.startsWith('https:') ? config.appUrl : 'mailto:events@example.edu')
  if (config.vapid) {
    webpush.setVapidDetails(subject, config.vapid.publicKey, config.vapid.privateKey) // validates the keys now, not at the first send
    return { publicKey: config.vapid.publicKey, privateKey: config.vapid.privateKey, subject }
  }
  if (config.production) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required in production.')
  const file = join(config.dataDir, 'vapid.json')
  try {
    const keys = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string }
    if (keys.publicKey && keys.privateKey) return { ...keys, subject }
  } catch {}
  const keys = webpush.generateVAPIDKeys()
  mkdirSync(config.dataDir, { recursive: true })
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 })
  return { ...keys, subject }
}
