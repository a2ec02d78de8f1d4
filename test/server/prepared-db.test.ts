// Issue 15 item 6: a first start on a new data folder unpacks the prepared database (a gzipped tar of a migrated
// PGlite data folder, made at build time by scripts/prepare-db.ts) into the folder, then opens it as a later
// start would, instead of handing the archive to PGlite (which unpacked it in memory: ~140 MB more at the peak).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, unpackDataDir } from '../../server/db/index.ts'

const dirs: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'prepared-db-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** One ustar header block for `name` (the checksum is not read by the unpacker). */
function header(name: string, size: number, type: string): Buffer {
  const block = Buffer.alloc(512)
  block.write(name, 0, 'latin1')
  block.write(size.toString(8).padStart(11, '0'), 124, 'latin1')
  block.write(type, 156, 'latin1')
  block.write('ustar', 257, 'latin1')
  return block
}

describe('the prepared database', () => {
  it('unpacked into a new folder, it opens as a migrated database with its data', async () => {
    // What the build does: a migrated database, dumped.
    const source = await openDatabase({})
    await source.db.execute(sql`INSERT INTO councils (slug, name) VALUES ('prepared', 'Prepared Council')`)
    const client = (source.db as unknown as { $client: { dumpDataDir(c: 'gzip'): Promise<Blob> } }).$client
    const archive = join(temp(), 'initial.tar.gz')
    writeFileSync(archive, Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer()))
    await source.close()

    const dataDir = join(temp(), 'data')
    unpackDataDir(archive, dataDir)
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/)
    expect(existsSync(join(dataDir, 'base'))).toBe(true)

    const opened = await openDatabase({ dataDir })
    try {
      const rows = (await opened.db.execute(sql`SELECT name FROM councils WHERE slug = 'prepared'`)) as unknown as { rows?: unknown[] } | unknown[]
      const list = Array.isArray(rows) ? rows : (rows.rows ?? [])
      expect(list).toEqual([{ name: 'Prepared Council' }])
    } finally {
      await opened.close()
    }
  })

  it('refuses an entry that would leave the folder, and entries other than folders and files', () => {
    const escape = join(temp(), 'escape.tar.gz')
    writeFileSync(escape, gzipSync(Buffer.concat([header('../evil', 0, '0'), Buffer.alloc(1024)])))
    const target = join(temp(), 'data')
    expect(() => unpackDataDir(escape, target)).toThrow('the prepared database has a bad entry: ../evil')
    expect(existsSync(join(target, '..', 'evil'))).toBe(false)

    const link = join(temp(), 'link.tar.gz')
    writeFileSync(link, gzipSync(Buffer.concat([header('pg_link', 0, '2'), Buffer.alloc(1024)])))
    expect(() => unpackDataDir(link, join(temp(), 'data'))).toThrow('the prepared database has an entry of type 2: pg_link')
  })
})
