// Issue 27: GET /metrics scraped during the rush (RUSH_SCRAPE_MS, e.g. 250), as Prometheus would, to show the
// figures an operator watches moving — the three graphs of docs/deployment.md "Metrics": claims per second by
// result, the claim's latency (p50, p99 from the histogram's buckets over each interval), and what the server
// refused (shed, 5xx) — printed as a table, kept in bench-results/rush-metrics.json and drawn in
// bench-results/rush-graphs.svg.
import { sample, total } from '../../test/fixtures/prometheus.ts'

const CLAIM = '/api/v1/event/p/claim-ticket'
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface Scrape {
  at: number
  claimed: number
  soldOut: number
  already: number
  requests: number
  fiveXX: number
  shed: number
  buckets: number[]
  dbActive: number
  cpuSeconds: number
}

function read(text: string, at: number): Scrape {
  const claims = (result: string) => sample(text, `campus_ticket_claims_total{result="${result}"}`) ?? 0
  return {
    at,
    claimed: claims('claimed'),
    soldOut: claims('sold_out'),
    already: claims('already_has_ticket'),
    requests: total(text, 'http_request_duration_seconds_count', { route: CLAIM }),
    fiveXX: ['500', '502', '503', '504'].reduce((n, code) => n + total(text, 'http_request_duration_seconds_count', { status_code: code }), 0),
    shed: total(text, 'campus_shed_requests_total'),
    buckets: BOUNDS.map((le) => total(text, 'http_request_duration_seconds_bucket', { route: CLAIM, le: String(le) })),
    dbActive: sample(text, 'campus_db_pool_connections{state="active"}') ?? 0,
    cpuSeconds: sample(text, 'process_cpu_seconds_total') ?? 0,
  }
}

/** The latency (ms) under which `q` of the interval's claims answered, from the buckets' growth (as histogram_quantile). */
function quantile(before: number[], after: number[], q: number): number | null {
  const counts = after.map((n, i) => n - before[i])
  const all = counts[counts.length - 1]
  if (all <= 0) return null
  const rank = q * all
  for (let i = 0; i < counts.length; i++) {
    if (counts[i] >= rank) {
      const lower = i === 0 ? 0 : BOUNDS[i - 1]
      const below = i === 0 ? 0 : counts[i - 1]
      const inBucket = counts[i] - below
      return Math.round((lower + ((BOUNDS[i] - lower) * (rank - below)) / Math.max(1, inBucket)) * 10000) / 10
    }
  }
  return null
}

export interface Point {
  t: number
  claimedPerSecond: number
  soldOutPerSecond: number
  alreadyPerSecond: number
  p50: number | null
  p99: number | null
  shedPerSecond: number
  fiveXXPerSecond: number
  dbActive: number
  cpuPercent: number
}

export function scraper(url: string, everyMs: number) {
  const scrapes: Scrape[] = []
  const started = performance.now()
  let busy = false
  const timer = setInterval(async () => {
    if (busy) return
    busy = true
    try {
      const res = await fetch(url)
      if (res.ok) scrapes.push(read(await res.text(), (performance.now() - started) / 1000))
    } catch {
      // a missed scrape is a gap in the graph
    } finally {
      busy = false
    }
  }, everyMs)
  return {
    stop(): { points: Point[]; raw: string } {
      clearInterval(timer)
      const points: Point[] = []
      for (let i = 1; i < scrapes.length; i++) {
        const [a, b] = [scrapes[i - 1], scrapes[i]]
        const dt = b.at - a.at
        const rate = (x: number, y: number) => Math.round(((y - x) / dt) * 10) / 10
        points.push({
          t: Math.round(b.at * 100) / 100,
          claimedPerSecond: rate(a.claimed, b.claimed),
          soldOutPerSecond: rate(a.soldOut, b.soldOut),
          alreadyPerSecond: rate(a.already, b.already),
          p50: quantile(a.buckets, b.buckets, 0.5),
          p99: quantile(a.buckets, b.buckets, 0.99),
          shedPerSecond: rate(a.shed, b.shed),
          fiveXXPerSecond: rate(a.fiveXX, b.fiveXX),
          dbActive: b.dbActive,
          cpuPercent: Math.round(((b.cpuSeconds - a.cpuSeconds) / dt) * 1000) / 10,
        })
      }
      return { points, raw: JSON.stringify(scrapes) }
    },
  }
}

/** Three panels (claims/s by result, latency p50/p99, refused per second), one x axis in seconds, as SVG. */
export function graphs(points: Point[], title: string): string {
  const W = 720
  const H = 170
  const pad = { l: 56, r: 130, t: 26, b: 24 }
  const tMax = Math.max(1, ...points.map((p) => p.t))
  const x = (t: number) => pad.l + ((W - pad.l - pad.r) * t) / tMax
  const panel = (index: number, name: string, unit: string, series: { label: string; color: string; values: (number | null)[] }[]) => {
    const top = index * H
    const max = Math.max(1, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)))
    const y = (v: number) => top + pad.t + (H - pad.t - pad.b) * (1 - v / max)
    const lines = series
      .map((s, k) => {
        let d = ''
        s.values.forEach((v, i) => {
          if (v === null) return
          d += `${d === '' || s.values[i - 1] === null ? 'M' : 'L'}${x(points[i].t).toFixed(1)},${y(v).toFixed(1)}`
        })
        return `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.6"/><text x="${W - pad.r + 8}" y="${top + pad.t + 14 + k * 16}" fill="${s.color}">${s.label}</text>`
      })
      .join('')
    return `<text x="${pad.l}" y="${top + 16}" font-weight="bold">${name}</text>
<line x1="${pad.l}" y1="${top + H - pad.b}" x2="${W - pad.r}" y2="${top + H - pad.b}" stroke="#888"/>
<line x1="${pad.l}" y1="${top + pad.t}" x2="${pad.l}" y2="${top + H - pad.b}" stroke="#888"/>
<text x="${pad.l - 6}" y="${top + pad.t + 4}" text-anchor="end">${Math.round(max)}</text><text x="${pad.l - 6}" y="${top + H - pad.b}" text-anchor="end">0</text>
<text x="${pad.l - 40}" y="${top + (H + pad.t - pad.b) / 2}" text-anchor="middle" transform="rotate(-90 ${pad.l - 40} ${top + (H + pad.t - pad.b) / 2})">${unit}</text>
${lines}`
  }
  const body = [
    panel(0, '1. Claims per second, by result', 'claims/s', [
      { label: 'claimed', color: '#1b7f3a', values: points.map((p) => p.claimedPerSecond) },
      { label: 'sold_out', color: '#b35c00', values: points.map((p) => p.soldOutPerSecond) },
      { label: 'already_has_ticket', color: '#6b4fb3', values: points.map((p) => p.alreadyPerSecond) },
    ]),
    panel(1, '2. Claim latency', 'ms', [
      { label: 'p50', color: '#1f5fa8', values: points.map((p) => p.p50) },
      { label: 'p99', color: '#c0282d', values: points.map((p) => p.p99) },
    ]),
    panel(2, '3. Refused by the server', 'requests/s', [
      { label: 'shed (503)', color: '#c0282d', values: points.map((p) => p.shedPerSecond) },
      { label: '5xx', color: '#555', values: points.map((p) => p.fiveXXPerSecond) },
    ]),
  ].join('\n')
  const height = 3 * H + 30
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="sans-serif" font-size="12" role="img" aria-label="${title}">
<rect width="100%" height="100%" fill="#fff"/>
${body}
<text x="${pad.l}" y="${height - 8}" fill="#444">${title}; seconds since the scrapes began: 0 to ${tMax.toFixed(1)}</text>
</svg>
`
}
