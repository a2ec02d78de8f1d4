// Builds the prepared initial embedded database (issue 15 item 6), run by `npm run build:server`: a PGlite
// database with every migration applied, dumped as build/server/db/initial-pglite.tar.gz. A first start on a
// new data folder unpacks it (server/db/index.ts) instead of initialising and migrating, so the first answer
// comes in a fraction of the time and memory. No demo data inside: the demo is placed around the day it starts.
import { writeFileSync } from 'node:fs'
import { dumpMigratedPglite } from '../server/db/index.ts'

const out = process.argv[2] ?? 'build/server/db/initial-pglite.tar.gz'
const dump = await dumpMigratedPglite('gzip')
writeFileSync(out, Buffer.from(await dump.arrayBuffer()))
console.log(`prepared initial database: ${out} (${(dump.size / 1024).toFixed(0)} KB)`)
