// Says loudly, at the start and the end of a run, when the concurrency suites could not run on PostgreSQL (issue 23 item 6): without
// TEST_DATABASE_URL they run on PGlite only, which runs statements one at a time, so a race there proves nothing.
export default function setup() {
  if (process.env.TEST_DATABASE_URL) return
  const line = '='.repeat(100)
  const say = () =>
    console.warn(
      `\n${line}\nPOSTGRESQL SUITES SKIPPED: TEST_DATABASE_URL is not set, so the concurrency suites (claims, teams, waitlist, door,\n` +
        `fair draw, transfers, backups...) ran on PGlite alone, where nothing races. Run them where races happen:\n` +
        `  TEST_DATABASE_URL=postgres://root@127.0.0.1:5432/test npm run test:unit   (.ci/run does)\n${line}\n`,
    )
  say()
  // Again at the end, where it is read.
  return say
}
