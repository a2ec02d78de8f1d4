// The calls of around the event: waitlist, give-back, push, calendar feed, certificates (API.md Part 2 "Around the event"), declared the way contract/api.ts declares Part 1 (docs/architecture.md): built from
// define.ts and entities.ts only (never from api.ts, which joins this file into CALLS).
import type { CallSpec } from './define.ts'

export const AROUND_CALLS = {} as const satisfies Record<string, CallSpec>
