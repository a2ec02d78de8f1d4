// Every call of SPEC §7 / API.md in one object, as the tests build it and the stores type their dependencies
// (`Api['register']`). The app itself imports each area where it is used (calls.ts at start, detail-calls.ts,
// team-calls.ts, account-calls.ts with their screens), so that no screen downloads another's calls.
import type { Client } from './client.ts'
import { createAccountCalls } from './account-calls.ts'
import { createStartCalls, noCopies } from './calls.ts'
import { createDetailCalls } from './detail-calls.ts'
import type { LastKnown } from './last-known.ts'
import { createTeamCalls } from './team-calls.ts'

export { WRITE_RETRIES } from './retry.ts'

export function createCalls(client: Client, lastKnown: Pick<LastKnown, 'remember'> = noCopies) {
  return {
    ...createStartCalls(client, lastKnown),
    ...createDetailCalls(client),
    ...createTeamCalls(client),
    ...createAccountCalls(client, lastKnown),
  }
}

export type Api = ReturnType<typeof createCalls>
