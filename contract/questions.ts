// Registration questions' answers (API.md Part 2 "Registration questions"): one set of rules and messages for the
// student's forms (validated on touch) and the server (400 naming the question's label, nothing written). No zod
// here, so a student screen importing it ships a few hundred bytes.

export type QuestionKind = 'TEXT' | 'LONG_TEXT' | 'URL' | 'CHOICE'

export interface AskedQuestion {
  id: string
  label: string
  kind: QuestionKind
  options: readonly string[]
  required: boolean
  /** Issue 25 item 4: the answer is shown at the door with the check-in's verdict (absent: not shown). */
  show_at_door?: boolean
}

/** The longest answer of each kind. */
export const ANSWER_LIMITS: Record<QuestionKind, number> = { TEXT: 200, LONG_TEXT: 2_000, URL: 2_000, CHOICE: 200 }

/** Whether a string is an absolute http(s) URL. */
export function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\//i.test(s)) return false
  try {
    const u = new URL(s)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0
  } catch {
    return false
  }
}

/** The message for one answer, or null when it is fine (a missing optional answer is fine). */
export function answerError(q: AskedQuestion, value: unknown): string | null {
  const v = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : null
  if (v === null) return `${q.label} must be text`
  if (v === '') return q.required ? `${q.label} is a required field` : null
  if (v.length > ANSWER_LIMITS[q.kind]) return `${q.label} must be at most ${ANSWER_LIMITS[q.kind]} characters`
  if (q.kind === 'URL' && !isHttpUrl(v)) return `${q.label} must be an http or https link`
  if (q.kind === 'CHOICE' && !q.options.includes(v)) return `${q.label} must be one of: ${q.options.join(', ')}`
  return null
}

/**
 * Every answer checked in the questions' order: the first message, or the answers to store (trimmed, only the
 * event's questions, empty optional ones left out).
 */
export function checkAnswers(
  questions: readonly AskedQuestion[],
  answers: Record<string, unknown> | undefined | null,
): { error: string } | { answers: Record<string, string> } {
  const given = answers ?? {}
  const kept: Record<string, string> = {}
  for (const q of questions) {
    const value = Object.hasOwn(given, q.id) ? given[q.id] : undefined
    const error = answerError(q, value)
    if (error) return { error }
    if (typeof value === 'string' && value.trim() !== '') kept[q.id] = value.trim()
  }
  return { answers: kept }
}
