// One gate of `npm run bench:door` (issue 12), run by bench/door/run.ts in a process of its own (fork): a volunteer
// scanning the gate's tickets one after the other at a person's pace (scaled down: THINK_MS between scans), in
// bursts (every BURST_EVERY scans, BURST_SIZE back to back: a queue that bunched up), with a few re-scans of a
// ticket already let in (expect 409 ALREADY_CHECKED_IN) and a few retries of a scan with the same scan_id (a
// lost answer; expect the first answer again). Sends its timings back to the parent and exits.
import { randomUUID } from 'node:crypto'
import { stepOf, timeCode, withTimeCode } from '../../contract/time-code.ts'

export interface GateJob {
  url: string
  bearer: string
  eventId: number
  gate: string
  codes: string[]
  /** Each code's time-code secret (issue 25): the barcode read carries the time code, which the server checks. */
  secrets: string[]
  thinkMs: [number, number]
  burstEvery: number
  burstSize: number
  /** Every how many scans a re-scan of an earlier ticket, and a retry of the last scan. */
  rescanEvery: number
  retryEvery: number
}

export type Kind = 'scan' | 'rescan' | 'retry'

export interface Timing {
  kind: Kind
  status: number
  result: string
  ms: number
  /** The answer is the one this kind of scan must get. */
  expected: boolean
}

export interface GateReport {
  gate: string
  timings: Timing[]
  seconds: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function checkIn(job: GateJob, ticketCode: string, scanId: string): Promise<{ status: number; result: string; ms: number }> {
  const body = JSON.stringify({ event_id: job.eventId, ticket_code: ticketCode, scan_id: scanId, gate: job.gate })
  const started = performance.now()
  try {
    const res = await fetch(`${job.url}/api/v1/door/p/check-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: job.bearer },
      body,
    })
    const text = await res.text()
    const ms = performance.now() - started
    let result = ''
    try {
      result = JSON.parse(text).result ?? `${JSON.parse(text).message ?? ''}`
    } catch {
      result = text.slice(0, 60)
    }
    return { status: res.status, result, ms }
  } catch (err) {
    return { status: 0, result: `network: ${(err as Error).message}`, ms: performance.now() - started }
  }
}

/** What the camera reads off ticket `i`'s screen now (made on the student's phone: not timed). */
const shown = async (job: GateJob, i: number) => withTimeCode(job.codes[i], await timeCode(job.secrets[i], stepOf(Date.now())))

async function run(job: GateJob): Promise<GateReport> {
  // Warm-up: codes of no ticket (404, nothing recorded) open the connection and load the path; not counted.
  for (let i = 0; i < 5; i++) await checkIn(job, `WARMUP-${job.gate}-${i}`, randomUUID())
  const timings: Timing[] = []
  const admitted: number[] = []
  const started = performance.now()
  let inBurst = 0
  for (let i = 0; i < job.codes.length; i++) {
    if (i > 0 && i % job.burstEvery === 0) inBurst = job.burstSize
    if (inBurst > 0) inBurst--
    else await sleep(job.thinkMs[0] + Math.random() * (job.thinkMs[1] - job.thinkMs[0]))
    const scanId = randomUUID()
    const read = await shown(job, i)
    const a = await checkIn(job, read, scanId)
    timings.push({ kind: 'scan', ...a, expected: a.status === 200 && a.result === 'CHECKED_IN' })
    if (a.status === 200) admitted.push(i)
    if (i % job.retryEvery === job.retryEvery - 1) {
      // The phone lost the answer and sends the same scan again: the first answer, not ALREADY_CHECKED_IN.
      const r = await checkIn(job, read, scanId)
      timings.push({ kind: 'retry', ...r, expected: r.status === a.status && r.result === a.result })
    }
    if (i % job.rescanEvery === Math.floor(job.rescanEvery / 2) && admitted.length > 1) {
      // Someone hands back a ticket that is already in (a screenshot passed on): a new scan, refused.
      await sleep(job.thinkMs[0])
      const r = await checkIn(job, await shown(job, admitted[Math.floor(Math.random() * (admitted.length - 1))]), randomUUID())
      timings.push({ kind: 'rescan', ...r, expected: r.status === 409 && r.result === 'ALREADY_CHECKED_IN' })
    }
  }
  return { gate: job.gate, timings, seconds: (performance.now() - started) / 1000 }
}

process.once('message', async (job: GateJob) => {
  const report = await run(job)
  process.send!(report, () => process.exit(0))
})
