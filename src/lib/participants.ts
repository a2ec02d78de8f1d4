// The participants' screen of the organiser console, as pure functions: the search, teams against min_ppt, the
// ratings' bars and the export's file name.
export interface ParticipantRow {
  user: { id: number; name: string; email: string; roll_number: string | null; phone_number?: string | null; branch: string | null; year: number | null }
  team: { id: number; name: string } | null
  answers?: Record<string, string>
}

/** Whether a participant matches a search: every word in name, roll number, e-mail, branch, team or answers. */
export function matchesSearch(p: ParticipantRow, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return true
  const hay = [p.user.name, p.user.roll_number, p.user.email, p.user.branch, p.user.year, p.team?.name, ...Object.values(p.answers ?? {})]
    .filter((v) => v != null)
    .join(' ')
    .toLowerCase()
  return words.every((w) => hay.includes(w))
}

export interface TeamGroup<P extends ParticipantRow> {
  id: number
  name: string
  members: P[]
  /** Whether the team has at least min_ppt members (and so may collect tickets). */
  complete: boolean
}

/** The teams of an event's participants, by name, with their members and whether they meet the minimum. */
export function teamsOf<P extends ParticipantRow>(participants: readonly P[], minPpt: number): TeamGroup<P>[] {
  const byId = new Map<number, TeamGroup<P>>()
  for (const p of participants) {
    if (!p.team) continue
    let group = byId.get(p.team.id)
    if (!group) byId.set(p.team.id, (group = { id: p.team.id, name: p.team.name, members: [], complete: false }))
    group.members.push(p)
  }
  const teams = [...byId.values()]
  for (const t of teams) t.complete = t.members.length >= Math.max(1, minPpt)
  return teams.sort((a, b) => a.name.localeCompare(b.name))
}

/** The five bars of the ratings' distribution, 5 stars first, each with its share of the largest (0–100). */
export function ratingBars(byStar: readonly number[]): { stars: number; count: number; percent: number }[] {
  const max = Math.max(0, ...byStar)
  return [5, 4, 3, 2, 1].map((stars) => {
    const count = byStar[stars - 1] ?? 0
    return { stars, count, percent: max ? Math.round((count / max) * 100) : 0 }
  })
}

/** The file name of an event's participants export: its name in safe characters. */
export const csvFileName = (eventName: string, id: number) =>
  `${
    eventName
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'event'
  }-${id}-participants.csv`
