// Issue 27: what the metrics cost a claim, measured apart from the rush's noise. A claim's answer runs two metric
// updates (server/plugins/metrics.ts): the request histogram's observe (method, route, status) from the route's
// onResponse hook, and the claims counter's inc (result). This times each in a tight loop, and the whole
// request path of a bare Fastify route with and without the metrics plugin's hooks (inject, alternating blocks),
// and prints ns per claim beside the claim's server CPU from `npm run bench:rush` for the ratio. (Under a shared
// machine's load, pairs of bench:rush runs with and without the metrics differ by more than the metrics cost.)
//   npx tsx bench/rush/metrics-cost.ts
import { Writable } from 'node:stream'
import Fastify, { type FastifyInstance } from 'fastify'
import { HANDLER_TIMEOUT_MS } from '../../server/app.ts'
import { loggerOptions, RequestLog, requestChildLogger } from '../../server/plugins/logging.ts'
import { createMetrics, metricsPlugin } from '../../server/plugins/metrics.ts'
import type { Database } from '../../server/db/index.ts'
import { uptime } from '../support.ts'

const N = 1_000_000
const route = '/api/v1/event/p/claim-ticket'

function nsPer(n: number, run: () => void): number {
  const started = process.cpuUsage()
  run()
  const used = process.cpuUsage(started)
  return ((used.user + used.system) * 1000) / n
}

const metrics = createMetrics({ processMetrics: false })
const app0 = Fastify()
// The plugin on a bare app (no database is read unless /metrics is scraped).
await app0.register(metricsPlugin, { metrics, database: { kind: 'pglite', poolMax: 1 } as unknown as Database })
app0.post(route, async () => ({ error: false }))
await app0.ready()

// 1. The two updates alone (warmed up first).
const histogram = metrics.registry.getSingleMetric('http_request_duration_seconds') as unknown as {
  observe(labels: Record<string, string | number>, v: number): void
}
for (let i = 0; i < 100_000; i++) histogram.observe({ method: 'POST', route, status_code: 409 }, 0.05)
const observe = nsPer(N, () => {
  for (let i = 0; i < N; i++) histogram.observe({ method: 'POST', route, status_code: i % 5 === 0 ? 200 : 409 }, 0.001 + (i % 100) / 1000)
})
const claimOutcomes = [{ ok: true as const }, { ok: false as const, refusal: 'soldOut' as const }]
const inc = nsPer(N, () => {
  for (let i = 0; i < N; i++) metrics.claim(claimOutcomes[i % 5 === 0 ? 0 : 1])
})

// 2. A whole request through Fastify's inject, with and without the plugin's hooks, alternating blocks, on Fastify
// set up as server/app.ts sets it up (its logger at info into nowhere, its log controller, the handler timeout):
// what a request costs there besides the metrics is the same in both.
const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() })
async function app(withMetrics: boolean, handlerTimeout = HANDLER_TIMEOUT_MS): Promise<FastifyInstance> {
  const a = Fastify({
    logger: { ...loggerOptions(), stream: nowhere },
    logController: new RequestLog(),
    childLoggerFactory: requestChildLogger,
    ...(handlerTimeout ? { handlerTimeout } : {}),
  })
  if (withMetrics)
    await a.register(metricsPlugin, { metrics: createMetrics({ processMetrics: false }), database: { kind: 'pglite', poolMax: 1 } as unknown as Database })
  a.post(route, async () => ({ error: false }))
  await a.ready()
  return a
}
// (and, for the record, without the handler timeout issue 27 also added: its AbortController and timer per request)
const apps = { with: await app(true), without: await app(false), noTimeout: await app(false, 0) }
const per = { with: [] as number[], without: [] as number[], noTimeout: [] as number[] }
const BLOCK = 20_000
const orders = [
  ['with', 'without', 'noTimeout'],
  ['noTimeout', 'without', 'with'],
  ['without', 'noTimeout', 'with'],
] as const
for (let block = 0; block < 9; block++) {
  for (const kind of orders[block % 3]) {
    const started = process.cpuUsage()
    for (let i = 0; i < BLOCK; i++) await apps[kind].inject({ method: 'POST', url: route, payload: { event_id: 1 } })
    const used = process.cpuUsage(started)
    per[kind].push(((used.user + used.system) * 1000) / BLOCK)
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const claimCpuNs = Number(process.env.CLAIM_CPU_MS ?? 0.065) * 1e6

console.log(`metrics' cost per claim (${N.toLocaleString()} updates each; ${uptime()})`)
console.log(`  histogram observe (method, route, status):  ${observe.toFixed(0)} ns`)
console.log(`  claims counter inc (result):                ${inc.toFixed(0)} ns`)
const signed = (ns: number) => `${ns >= 0 ? '+' : '−'}${Math.abs(ns).toFixed(0)} ns`
console.log(
  `  a whole request through inject (Fastify as server/app.ts sets it up; medians of 9 blocks of ${BLOCK.toLocaleString()}): with the metrics' hooks ${median(per.with).toFixed(0)} ns, without ${median(per.without).toFixed(0)} ns (${signed(median(per.with) - median(per.without))}); without the handler timeout either ${median(per.noTimeout).toFixed(0)} ns (the timeout: ${signed(median(per.without) - median(per.noTimeout))})`,
)
// The timer the handler timeout sets and clears for each request (its AbortController is made only when asked for).
const timer = nsPer(N, () => {
  for (let i = 0; i < N; i++) clearTimeout(setTimeout(() => {}, 10_000))
})
console.log(`  (the handler timeout's timer, set and cleared: ${timer.toFixed(0)} ns)`)
const added = observe + inc
console.log(
  `  the metrics' updates of a claim, ${added.toFixed(0)} ns, against a claim's server CPU of ${(claimCpuNs / 1e6).toFixed(3)} ms (CLAIM_CPU_MS, from npm run bench:rush): ${((added / claimCpuNs) * 100).toFixed(2)}% (target ≤ 5%); the hooks' dispatch is inside the inject figures, whose difference is within their noise`,
)
await Promise.all([app0.close(), apps.with.close(), apps.without.close(), apps.noTimeout.close()])
