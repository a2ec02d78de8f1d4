// The calls of the door (API.md Part 2 "At the door"), declared the way contract/api.ts declares Part 1 (docs/architecture.md): built from
// define.ts and entities.ts only (never from api.ts, which joins this file into CALLS).
import type { CallSpec } from './define.ts'

export const DOOR_CALLS = {} as const satisfies Record<string, CallSpec>
