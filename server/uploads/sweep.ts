// Uploaded images no event or council uses are removed a day after their upload (issue 21 item 9): an organiser
// tries a few pictures before saving one, and the others would stay on disk, and count against their quota, for
// ever. A day leaves time to save the event that uses one; what an event or council names is never removed. Files
// are judged by their own age (their modification time), so images stored before the uploads table are swept too,
// and half-written temporary files left by a crash with them.
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { UploadsRepository } from '../db/events/uploads.ts'
import { removeImage } from './images.ts'

export const UNUSED_UPLOAD_MS = 24 * 3600 * 1000

const IMAGE = /^([0-9a-f]{32})(?:-card)?\.webp$/
const TEMPORARY = /^\..*\.tmp$/

/** Removes the images older than `olderThanMs` that nothing uses; answers their names. */
export async function sweepUploads(options: { dir: string; repo: UploadsRepository; now?: number; olderThanMs?: number }): Promise<string[]> {
  const { dir, repo } = options
  const before = (options.now ?? Date.now()) - (options.olderThanMs ?? UNUSED_UPLOAD_MS)
  let files: string[]
  try {
    files = await readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [] // nothing uploaded yet
    throw err
  }
  // An image is as old as the newer of its two files.
  const newest = new Map<string, number>()
  for (const file of files) {
    const image = IMAGE.exec(file)
    if (!image && !TEMPORARY.test(file)) continue
    const info = await stat(join(dir, file)).catch(() => null)
    if (!info?.isFile()) continue
    if (!image) {
      if (info.mtimeMs < before) await rm(join(dir, file), { force: true })
      continue
    }
    newest.set(image[1]!, Math.max(newest.get(image[1]!) ?? 0, info.mtimeMs))
  }
  const old = [...newest].filter(([, at]) => at < before).map(([name]) => name)
  if (old.length === 0) return []
  const used = await repo.referenced()
  const unused = old.filter((name) => !used.has(name))
  for (const name of unused) await removeImage(dir, name)
  await repo.forget(unused)
  return unused
}
