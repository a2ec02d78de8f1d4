// `npm run bench:certificate` (issue 13: a certificate "in a few hundred milliseconds"): the time to make one
// participation certificate (server/feeds/certificate-pdf.ts, the logo included), for a Latin-1 name (the standard
// fonts), a Devanagari name, event and council, a Tamil name and council (Noto Sans for the script, subset and
// shaped), and a Telugu name whose marks fontkit cannot position (shaped twice), and its size in bytes.
//   cold   the first certificate of a fresh process (the module already imported, as in a running server): for the
//          other scripts this includes loading certificate-fonts.ts (fontkit), reading and parsing the font files.
//          Timed in BENCH_COLD child processes.
//   warm   certificates after the first, BENCH_RUNS of them in this process, one at a time.
// Prints p50/p95 wall ms per row, the p50 of the process's CPU ms (user + system: what the work itself costs,
// less swayed than wall time by other processes), with the 1-minute load average beside it (the machine may be
// shared: wall times taken on a loaded machine are inflated; sizes are exact). Writes bench-results/certificate.json. It reports; it never fails.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Certificate } from '../../server/db/events/feeds.ts'
import { certificatePdf, loadLogo } from '../../server/feeds/certificate-pdf.ts'

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 100))
const COLD = Math.max(1, Number(process.env.BENCH_COLD ?? 5))

const NAMES = {
  latin: { name: 'Zoë D’Souza', event: 'RoboWars 2026', council: 'Robotics Council' },
  devanagari: { name: 'प्रिया शर्मा', event: 'रोबो वॉर्स 2026', council: 'रोबोटिक्स परिषद' },
  tamil: { name: 'கார்த்திக் சுப்ரமணியன்', event: 'RoboWars 2026', council: 'தமிழ் மன்றம்' },
  // A word fontkit cannot position with the font's mark features: laid out again without them (certificate-pdf.ts).
  telugu: { name: 'శ్రీనివాస్ రెడ్డి', event: 'RoboWars 2026', council: 'Robotics Council' },
} as const
type Kind = keyof typeof NAMES

const certificate = (kind: Kind): Certificate =>
  ({ code: 'ABCDE12345', dates: ['2026-11-20T10:00:00+05:30', '2026-11-21T10:00:00+05:30'], ...NAMES[kind] }) as unknown as Certificate
const options = async () => ({
  verifyUrl: 'https://events.example.edu/api/v1/verify/ABCDE-12345',
  chapter: 'KJSCE Students’ Chapter',
  logo: await loadLogo(undefined),
})

/** Wall time, and this process's CPU time (user + system: less swayed by other processes on a shared machine). */
async function timed(kind: Kind, opts: Awaited<ReturnType<typeof options>>): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const pdf = await certificatePdf(certificate(kind), opts)
  const ms = performance.now() - started
  const used = process.cpuUsage(cpu)
  return { ms, cpuMs: (used.user + used.system) / 1000, bytes: pdf.length }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]
}
const load1 = () => Number(loadavg()[0].toFixed(2))

if (process.argv[2] === '--child') {
  // One cold certificate in this fresh process.
  const kind = process.argv[3] as Kind
  const result = await timed(kind, await options())
  process.stdout.write(JSON.stringify(result))
} else {
  const rows: { kind: Kind; when: 'cold' | 'warm'; n: number; p50: number; p95: number; cpuP50: number; bytes: number; loadAverage: number }[] = []
  const self = fileURLToPath(import.meta.url)
  const opts = await options()
  for (const kind of Object.keys(NAMES) as Kind[]) {
    const cold: { ms: number; cpuMs: number; bytes: number }[] = []
    const before = load1()
    for (let i = 0; i < COLD; i++) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--child', kind], { encoding: 'utf8' })
      cold.push(JSON.parse(out))
    }
    const coldMs = cold.map((r) => r.ms)
    rows.push({
      kind,
      when: 'cold',
      n: COLD,
      p50: quantile(coldMs, 0.5),
      p95: quantile(coldMs, 0.95),
      cpuP50: quantile(
        cold.map((r) => r.cpuMs),
        0.5,
      ),
      bytes: cold[0].bytes,
      loadAverage: Math.max(before, load1()),
    })

    await timed(kind, opts) // this process's first, not counted
    const warm: number[] = []
    const warmCpu: number[] = []
    let bytes = 0
    const loadBefore = load1()
    for (let i = 0; i < RUNS; i++) {
      const r = await timed(kind, opts)
      warm.push(r.ms)
      warmCpu.push(r.cpuMs)
      bytes = r.bytes
    }
    rows.push({
      kind,
      when: 'warm',
      n: RUNS,
      p50: quantile(warm, 0.5),
      p95: quantile(warm, 0.95),
      cpuP50: quantile(warmCpu, 0.5),
      bytes,
      loadAverage: Math.max(loadBefore, load1()),
    })
  }
  console.log(`certificate generation, node ${process.version}, ${cpus().length} CPUs`)
  console.log('name        when  runs    p50 ms    p95 ms  cpu p50 ms     bytes  load avg (1 min)')
  for (const r of rows) {
    console.log(
      `${r.kind.padEnd(11)} ${r.when.padEnd(5)} ${String(r.n).padStart(4)} ${r.p50.toFixed(1).padStart(9)} ${r.p95.toFixed(1).padStart(9)} ${r.cpuP50.toFixed(1).padStart(11)} ${String(r.bytes).padStart(9)}  ${r.loadAverage}`,
    )
  }
  mkdirSync('bench-results', { recursive: true })
  writeFileSync('bench-results/certificate.json', JSON.stringify({ node: process.version, cpus: cpus().length, rows }, null, 2))
}
