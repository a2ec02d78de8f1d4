// A fair opening's draw, checked on the phone (issue 24, API.md Part 3): the seed's SHA-256 against the commitment
// published before the opening, the student's key HMAC-SHA256(key = seed, message = `<decimal user id>:<nonce>`), and
// where it falls in the sorted list of keys. Web Crypto does the hashing: no bytes of a hash library to download.
const utf8 = (s: string) => new TextEncoder().encode(s)
const hex = (buf: ArrayBuffer) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('')

/** Lowercase hex SHA-256 of the seed's UTF-8 bytes. */
export async function seedHashOf(seed: string, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  return hex(await subtle.digest('SHA-256', utf8(seed)))
}

/** Lowercase hex HMAC-SHA256 with the seed as key and `<decimal user id>:<nonce>` as message (the id alone: no nonce). */
export async function drawKeyOf(seed: string, userId: number, nonce: string | null, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  const key = await subtle.importKey('raw', utf8(seed), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return hex(await subtle.sign('HMAC', key, utf8(nonce === null ? String(userId) : `${userId}:${nonce}`)))
}

/** The key's place in the ascending list (1 is first), or null when it is not in it. */
export function placeOf(keys: readonly string[], key: string): number | null {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys[mid] < key) lo = mid + 1
    else hi = mid
  }
  return keys[lo] === key ? lo + 1 : null
}
