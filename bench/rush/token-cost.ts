// Issue 23 item 7: what verifying a student's access token costs the server (server/auth/tokens.ts, fast-jwt since
// the hand-written verifier went): CPU per token the first time an instance sees it, and per call once remembered
// (every later call of that student's app). Compare with a claim's server CPU from `npm run bench:rush`.
//   npx tsx bench/rush/token-cost.ts   (TOKENS=5000)
import { randomBytes, randomUUID } from 'node:crypto'
import { accessTokens } from '../../server/auth/tokens.ts'
import { uptime } from '../support.ts'

const TOKENS = Number(process.env.TOKENS ?? 5000)
const tokens = accessTokens(randomBytes(48), 900)
const signed = await Promise.all(Array.from({ length: TOKENS }, (_, i) => tokens.sign(i + 1, randomUUID())))

const microsPer = (n: number, run: () => void) => {
  const started = process.cpuUsage()
  run()
  const used = process.cpuUsage(started)
  return (used.user + used.system) / n
}
console.log(`token-cost: ${TOKENS} access tokens (HS256, with a session id), one process; ${uptime()}`)
const first = microsPer(TOKENS, () => {
  for (const token of signed) if (!tokens.claims(token)) throw new Error('a token was refused')
})
const rounds = 20
const remembered = microsPer(TOKENS * rounds, () => {
  for (let r = 0; r < rounds; r++) for (const token of signed) tokens.claims(token)
})
console.log(`  first sight of a token (fast-jwt verifies it): ${first.toFixed(1)} µs CPU`)
console.log(`  a remembered token (the same string again):   ${remembered.toFixed(2)} µs CPU`)
