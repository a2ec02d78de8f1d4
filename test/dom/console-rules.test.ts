// The event editor's checks (src/pages/manage/rules.ts, plain code so its chunk carries no zod) against the
// contract's eventInput, which the server applies: over a table of forms, the same fields refused with the same
// words. A drift between the two fails here.
import { describe, expect, it } from 'vitest'
import { eventInput } from '../../contract/org.ts'
import { type EventForm, fieldOfMessage, formErrors, toForm, toInput } from '../../src/pages/manage/rules.ts'

const valid = (): EventForm => ({ ...toForm(null, 1), name: 'Hack Night' })

/** The contract's first message per top-level field. */
function contractErrors(form: EventForm): Record<string, string> {
  const parsed = eventInput.safeParse(toInput(form))
  const out: Record<string, string> = {}
  if (!parsed.success) for (const issue of parsed.error.issues) out[String(issue.path[0])] ??= issue.message
  return out
}

const q = (over: object = {}) => ({ label: 'GitHub', kind: 'URL' as const, options: [], required: true, ...over })

const CASES: [string, Partial<EventForm>][] = [
  ['a valid form', {}],
  ['no name', { name: '   ' }],
  ['a long name', { name: 'x'.repeat(121) }],
  ['a long description', { description: 'x'.repeat(501) }],
  ['a long venue', { venue: 'x'.repeat(201) }],
  ['an image that is no address', { event_page_image_url: 'javascript:alert(1)' }],
  ['an uploaded image', { event_page_image_url: '/uploads/abc.webp', banner_url: '/uploads/abc-card.webp' }],
  ['a banner over ftp', { banner_url: 'ftp://x.example/a.png' }],
  ['an activity link without scheme', { in_event_activity: 'meet.example/abc' }],
  ['an external registration with no link', { registration_type: 'EXTERNAL' }],
  ['an external registration with a link', { registration_type: 'EXTERNAL', external_registration_link: 'https://forms.example/x' }],
  ['a fee in words', { fee: 'ten' }],
  ['a negative fee', { fee: '-1' }],
  ['a fractional fee', { fee: '1.5' }],
  ['an empty fee', { fee: '' }],
  ['no team size', { ma_ppt: '0' }],
  ['a huge team', { ma_ppt: '101' }],
  ['min above max', { min_ppt: '4', ma_ppt: '2' }],
  ['tickets in words', { ticket_count: 'many' }],
  ['too many tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') }],
  ['a long tag', { tags: `Tech, ${'x'.repeat(41)}` }],
  ['schedule out of order', { schedule: { ...toForm().schedule, registration_opens_at: '2026-12-02T10:00', registration_closes_at: '2026-12-01T10:00' } }],
  ['schedule in order', { schedule: { ...toForm().schedule, registration_opens_at: '2026-12-01T10:00', tickets_open_at: '2026-12-03T10:00' } }],
  ['a question with no label', { questions: [q({ label: ' ' })] }],
  ['a choice with one option', { questions: [q({ kind: 'CHOICE', options: ['Only'] })] }],
  ['a choice with a repeated option', { questions: [q({ kind: 'CHOICE', options: ['A', 'A'] })] }],
  ['a choice with an empty option', { questions: [q({ kind: 'CHOICE', options: ['A', ''] })] }],
  ['tickets with the default draw window', { is_ticket_feature_enabled: true }],
  ['tickets first come, first served', { is_ticket_feature_enabled: true, fair_start: '0' }],
  ['a draw window in words', { is_ticket_feature_enabled: true, fair_start: 'soon' }],
  ['a draw window over an hour', { is_ticket_feature_enabled: true, fair_start: '3601' }],
  ['an empty draw window', { is_ticket_feature_enabled: true, fair_start: '' }],
  ['a draw window in words without tickets (not sent)', { fair_start: 'soon' }],
  ['good questions', { questions: [q(), q({ label: 'Stack', kind: 'CHOICE', options: ['Web', 'ML'] })] }],
]

describe('event editor rules match the contract', () => {
  it.each(CASES)('%s', (_name, change) => {
    const form = { ...valid(), ...change }
    expect(formErrors(form, true)).toEqual(contractErrors(form))
  })

  it('a new event needs a council (the server requires organizer_id on create)', () => {
    expect(formErrors({ ...valid(), organizer_id: '' }, true).organizer_id).toBe('organizer_id is a required field')
    expect(formErrors({ ...valid(), organizer_id: '' }, false).organizer_id).toBeUndefined()
  })

  it('finds the field a server message names', () => {
    expect(fieldOfMessage('fee must be a whole number from 0 to 1000000')).toBe('fee')
    expect(fieldOfMessage('schedule.tickets_open_at must be after schedule.registration_opens_at')).toBe('schedule')
    expect(fieldOfMessage("questions: 'Stack' needs at least two options")).toBe('questions')
    expect(fieldOfMessage('You do not organise this council.')).toBeNull()
  })
})
