// The editor's activity points (issue 26) as a form: the numbers as typed, checked with contract/points.ts's words
// (activityPointsInput; test/dom/console-rules.test.ts holds the two to the same answer). Whether the category is
// one of the college's is the server's check: its message names the field too.
import type { ActivityPoints, ActivityPointsInput } from '../../../contract/types.ts'

export const POINT_FIELDS = ['points', 'winner', 'volunteer', 'organiser'] as const

/** null: the event gives no points. */
export type PointsForm = { category: string; per_day: boolean } & Record<(typeof POINT_FIELDS)[number], string>

export const toPointsForm = (ap?: ActivityPoints | null): PointsForm | null =>
  ap ? { ...ap, points: `${ap.points}`, winner: `${ap.winner}`, volunteer: `${ap.volunteer}`, organiser: `${ap.organiser}` } : null

const whole = (s: string) => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : Number.NaN)

export function toPointsInput(f: PointsForm | null): ActivityPointsInput | null {
  if (!f) return null
  const out = { category: f.category, per_day: f.per_day } as ActivityPointsInput & object
  for (const k of POINT_FIELDS) out[k] = whole(f[k])
  return out
}

/** The first message, as the contract words it. */
export function pointsError(f: PointsForm | null): string | undefined {
  if (!f) return
  if (!f.category.trim()) return 'activity_points.category is a required field'
  if (f.category.length > 60) return 'activity_points.category must be at most 60 characters'
  for (const k of POINT_FIELDS) {
    const n = whole(f[k])
    if (!(n >= 0 && n <= 100)) return `activity_points.${k} must be a whole number from 0 to 100`
  }
}
