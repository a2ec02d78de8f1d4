// Operations (API.md Part 3 "Operations", issue 27): what an orchestrator, a proxy and Prometheus ask an instance.
// Joined into CALLS by api.ts; like the other area files it imports only define.ts. None of these is a student's
// call: the app never makes them, so nothing here reaches a phone.
import * as z from 'zod/mini'
import { ok, refusals, type CallSpec } from './define.ts'

export const OPS_CALLS = {
  healthLive: {
    method: 'GET',
    path: '/health/live',
    auth: 'public',
    tag: 'server',
    summary:
      'Liveness: 200 while the process runs, even while it sheds load or drains for a shutdown (restart the process only when this fails). Also at /health/live.',
    answers: { 200: ok({ status: z.literal('live') }) },
  },
  healthReady: {
    method: 'GET',
    path: '/health/ready',
    auth: 'public',
    tag: 'server',
    summary:
      'Readiness: 200 when the database answers (within 2 s) and every migration this release knows is applied; 503 otherwise, and while the instance shuts down. Also at /health/ready.',
    answers: { 200: ok({ status: z.literal('ready') }), ...refusals(503) },
  },
  metrics: {
    method: 'GET',
    path: '/metrics',
    auth: 'public',
    tag: 'server',
    summary:
      'Prometheus metrics (text exposition format). With METRICS_TOKEN set, only with `Authorization: Bearer <METRICS_TOKEN>` (else 401); in production without it, or when METRICS_PORT serves them on a port of their own, 404 here. Also at /metrics.',
    answers: {
      200: { description: 'The metrics, Prometheus text format 0.0.4.', content: { 'text/plain': { schema: z.string() } } },
      ...refusals(401, 404),
    },
  },
} as const satisfies Record<string, CallSpec>
