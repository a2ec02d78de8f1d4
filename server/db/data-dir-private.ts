// The data folder is private to the server's user (issue 36 item 1): it holds the database (a council's data in its
// tables and WAL), the JWT secret that signs admins' tokens and the VAPID keys. The folder and its folders 0700, its
// files 0600, whatever the umask: set when a process takes the folder (lockDataDir, at every start and CLI command)
// and after a restore. A file written later inside is out of reach of other users through the 0700 folder.
import { chmodSync, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

export function keepPrivate(dir: string): void {
  chmodSync(dir, 0o700)
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name)
    // A link is left alone (chmod would follow it out of the folder); PGlite writes none.
    if (lstatSync(path).isSymbolicLink()) continue
    chmodSync(path, entry.isDirectory() ? 0o700 : 0o600)
  }
}
