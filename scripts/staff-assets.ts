// The files only organisers and door volunteers load (issues 11 and 12): the lazy routes under /manage and /door
// (and src/lib/door-*.ts, which the door loads lazily), what only they import, and the scanner's worker. A student's
// phone never needs them, so the service worker does not precache them and the budget counts them apart from the
// student's total (budget.json `staffTotal`).
export interface StaffManifestChunk {
  file: string
  src?: string
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

// With the door's own modules it loads lazily (src/lib/door-*.ts: issue 25's offline time-code check).
export const STAFF_ROUTE = /^src\/(pages\/(manage|door)\/|lib\/door-)/

/** Asset paths (relative to dist, no leading slash) that only the staff screens load. */
export function staffAssets(manifest: Record<string, StaffManifestChunk>, distFiles: string[] = []): Set<string> {
  const reach = (roots: string[], skipStaff: boolean) => {
    const files = new Set<string>()
    const seen = new Set<string>()
    const visit = (key: string, dynamic: boolean) => {
      if (seen.has(key)) return
      seen.add(key)
      const chunk = manifest[key]
      if (!chunk) return
      files.add(chunk.file)
      for (const css of chunk.css ?? []) files.add(css)
      for (const imported of chunk.imports ?? []) visit(imported, dynamic)
      if (!dynamic) return
      for (const imported of chunk.dynamicImports ?? []) if (!(skipStaff && STAFF_ROUTE.test(manifest[imported]?.src ?? imported))) visit(imported, dynamic)
    }
    for (const root of roots) visit(root, true)
    return files
  }
  const keys = Object.keys(manifest)
  const staffRoots = keys.filter((key) => STAFF_ROUTE.test(manifest[key].src ?? key))
  // Everything a student can reach: the entries and every lazy route outside /manage and /door, with what they
  // load lazily themselves, except the router's lazy imports of the staff routes (a chunk a student screen also
  // imports stays a student file).
  const studentRoots = keys.filter((key) => !STAFF_ROUTE.test(manifest[key].src ?? key) && (manifest[key].isDynamicEntry || !key.startsWith('_')))
  const student = reach(studentRoots, true)
  const staff = new Set([...reach(staffRoots, false)].filter((file) => !student.has(file)))
  // The scanner's worker is emitted beside the chunks (new Worker(new URL(...))), not as a manifest entry.
  for (const file of distFiles) if (/^assets\/worker-[\w-]+\.js$/.test(file)) staff.add(file)
  return staff
}
