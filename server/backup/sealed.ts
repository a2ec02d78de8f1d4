// A backup sealed with a passphrase (issue 36 item 1, BACKUP_PASSPHRASE): a backup holds the JWT secret and the VAPID
// keys, so whoever reads the file could sign an admin's token. AES-256-GCM (authenticated: a wrong passphrase or a
// changed byte is refused, never restored), its key from the passphrase by scrypt with a random salt. node:crypto
// does both; the file is the magic, the salt, the nonce, the ciphertext and the 16-byte tag, streamed both ways.
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'

const MAGIC = Buffer.from('CEBACKUP-AES256GCM-1\n')
const SALT = 16
const NONCE = 12
const TAG = 16
/** scrypt's cost: ~100 ms and 32 MiB once per backup or restore, so a stolen file is slow to guess. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

/** A wrong passphrase, or a sealed file changed since it was written: nothing of it is trusted. */
export class SealBroken extends Error {}

const keyOf = (passphrase: string, salt: Buffer) =>
  new Promise<Buffer>((resolve, reject) => scrypt(passphrase.normalize('NFC'), salt, 32, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))))

/** Whether the file at `path` is a sealed backup (it starts with the magic). */
export async function isSealed(path: string): Promise<boolean> {
  const file = await open(path, 'r')
  try {
    const head = Buffer.alloc(MAGIC.length)
    const { bytesRead } = await file.read(head, 0, MAGIC.length, 0)
    return bytesRead === MAGIC.length && head.equals(MAGIC)
  } finally {
    await file.close()
  }
}

/** A stream that seals what passes through it with the passphrase. */
export async function sealing(passphrase: string): Promise<Transform> {
  const salt = randomBytes(SALT)
  const nonce = randomBytes(NONCE)
  const cipher = createCipheriv('aes-256-gcm', await keyOf(passphrase, salt), nonce)
  let started = false
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!started) {
        started = true
        this.push(Buffer.concat([MAGIC, salt, nonce]))
      }
      done(null, cipher.update(chunk))
    },
    flush(done) {
      if (!started) this.push(Buffer.concat([MAGIC, salt, nonce]))
      this.push(cipher.final())
      done(null, cipher.getAuthTag())
    },
  })
}

/**
 * Opens the sealed file `from` into `to` (created 0600): the whole file is checked against its tag at the end, and on
 * a wrong passphrase or a changed byte `to` is removed by the caller's cleanup and SealBroken is thrown.
 */
export async function unseal(from: string, to: string, passphrase: string): Promise<void> {
  const file = await open(from, 'r')
  let header: Buffer
  try {
    header = Buffer.alloc(MAGIC.length + SALT + NONCE)
    const { bytesRead } = await file.read(header, 0, header.length, 0)
    if (bytesRead < header.length || !header.subarray(0, MAGIC.length).equals(MAGIC)) throw new SealBroken('not a sealed backup')
  } finally {
    await file.close()
  }
  const salt = header.subarray(MAGIC.length, MAGIC.length + SALT)
  const nonce = header.subarray(MAGIC.length + SALT)
  const decipher = createDecipheriv('aes-256-gcm', await keyOf(passphrase, salt), nonce)
  // The tag is the file's last 16 bytes: every chunk is held back by 16 bytes until the end shows which they are.
  let held = Buffer.alloc(0)
  const opening = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const all = Buffer.concat([held, chunk])
      held = all.subarray(Math.max(0, all.length - TAG))
      done(null, decipher.update(all.subarray(0, Math.max(0, all.length - TAG))))
    },
    flush(done) {
      if (held.length !== TAG) return done(new SealBroken('the file ends before its tag'))
      try {
        decipher.setAuthTag(held)
        done(null, decipher.final())
      } catch {
        done(new SealBroken('wrong passphrase or changed file'))
      }
    },
  })
  await pipeline(createReadStream(from, { start: header.length }), opening, createWriteStream(to, { mode: 0o600 }))
}
