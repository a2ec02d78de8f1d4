// The event editor's checks (src/pages/manage/rules.ts, plain code so its chunk carries no zod) against the
// contract's eventInput, which the server applies: over a table of forms, the same fields refused with the same
// words. A drift between the two fails here.
import { describe, expect, it } from 'vitest'
import { eventInput } from '../../contract/org.ts'
import { type EventForm, fieldOfMessage, formErrors, plain, toForm, toInput } from '../../src/pages/manage/rules.ts'

const valid = (): EventForm => ({ ...toForm(null, 1), name: 'Hack Night' })
/** Just enough of an OrgEvent for toForm. */
const orgEventOf = (input: object) =>
  ({ ...input, organizer: { id: 1 }, schedule: null, tags: [], questions: [] }) as unknown as Parameters<typeof toForm>[0] & object

/** The contract's first message per top-level field. */
function contractErrors(form: EventForm): Record<string, string> {
  const parsed = eventInput.safeParse(toInput(form))
  const out: Record<string, string> = {}
  if (!parsed.success) for (const issue of parsed.error.issues) out[String(issue.path[0])] ??= issue.message
  return out
}

const q = (over: object = {}) => ({ label: 'GitHub', kind: 'URL' as const, options: [], required: true, ...over })

const ap = (over: object = {}) => ({ category: 'Cultural', per_day: false, points: '10', winner: '0', volunteer: '0', organiser: '0', ...over })

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
  ['transfers closing a day before', { is_ticket_feature_enabled: true, transfer_closes_minutes: '1440' }],
  ['transfers closing in words', { is_ticket_feature_enabled: true, transfer_closes_minutes: 'soon' }],
  ['transfers closing over a week before', { is_ticket_feature_enabled: true, transfer_closes_minutes: '10081' }],
  ['transfers closing at a fraction', { is_ticket_feature_enabled: true, transfer_closes_minutes: '1.5' }],
  ['printed tickets (no changing code)', { is_ticket_feature_enabled: true, rotating_codes: false }],
  ['transfers closing in words without tickets (not sent)', { transfer_closes_minutes: 'soon' }],
  ['good questions', { questions: [q(), q({ label: 'Stack', kind: 'CHOICE', options: ['Web', 'ML'] })] }],
  ['activity points', { activity_points: ap({ per_day: true, winner: '20', volunteer: '5', organiser: '100' }) }],
  ['no activity points', { activity_points: null }],
  ['points with no category', { activity_points: ap({ category: '' }) }],
  ['points with a blank category', { activity_points: ap({ category: '   ', points: 'x' }) }],
  ['points with a long category', { activity_points: ap({ category: 'x'.repeat(61) }) }],
  ['points above 100', { activity_points: ap({ points: '101' }) }],
  ['negative points', { activity_points: ap({ points: '-1' }) }],
  ['fractional points', { activity_points: ap({ points: '1.5' }) }],
  ['empty points', { activity_points: ap({ points: '' }) }],
  ['a winner in words', { activity_points: ap({ winner: 'five' }) }],
  ['an organiser above 100', { activity_points: ap({ organiser: '101' }) }],
  ['a volunteer and an organiser both wrong', { activity_points: ap({ volunteer: '-2', organiser: '101' }) }],
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

  it('sends activity points only when they differ from the event as saved (a save that does not touch them keeps them)', () => {
    const stored = { ...valid(), activity_points: ap() }
    expect(toInput(stored, 5, stored)).not.toHaveProperty('activity_points')
    expect(toInput({ ...stored, activity_points: ap({ points: '15' }) }, 5, stored).activity_points).toEqual({
      category: 'Cultural',
      per_day: false,
      points: 15,
      winner: 0,
      volunteer: 0,
      organiser: 0,
    })
    expect(toInput({ ...stored, activity_points: null }, 5, stored).activity_points).toBeNull()
    expect(toInput(valid(), undefined, valid())).not.toHaveProperty('activity_points')
  })

  it.each([
    ['minutes to pay 0', { pay_within_minutes: '0' }, 'pay_within_minutes'],
    ['minutes to pay 61', { pay_within_minutes: '61' }, 'pay_within_minutes'],
    ['refund hours in words', { refund_until_hours: 'a day' }, 'refund_until_hours'],
    ['refund hours 721', { refund_until_hours: '721' }, 'refund_until_hours'],
    ['no way to pay', { methods: [] }, 'methods'],
  ] as const)('a paid event’s settings (issue 35): %s gives the contract’s message under its field', (_name, change, field) => {
    const form = { ...valid(), fee: '100', ...change } as EventForm
    expect(formErrors(form, true)[field]).toBe(contractErrors(form).payment)
    // A free event sends and checks none.
    expect(formErrors({ ...form, fee: '0' }, true)[field]).toBeUndefined()
    expect(toInput({ ...form, fee: '0' })).not.toHaveProperty('payment')
  })

  it('sends the payment settings only when they differ from the event as saved', () => {
    const stored = { ...valid(), fee: '100' }
    expect(toInput(stored, 5, stored)).not.toHaveProperty('payment')
    expect(toInput({ ...stored, methods: ['DESK'] }, 5, stored).payment).toEqual({ pay_within_minutes: 15, refund_until_hours: 24, methods: ['DESK'] })
    expect(plain('payment.pay_within_minutes must be a whole number from 1 to 60')).toBe('Minutes to pay must be a whole number from 1 to 60')
  })

  it('finds the field a server message names', () => {
    expect(fieldOfMessage('activity_points.category must be one of the college’s categories: Technical')).toBe('activity_points')
    expect(fieldOfMessage('fee must be a whole number from 0 to 1000000')).toBe('fee')
    expect(fieldOfMessage('schedule.tickets_open_at must be after schedule.registration_opens_at')).toBe('schedule')
    expect(fieldOfMessage("questions: 'Stack' needs at least two options")).toBe('questions')
    expect(fieldOfMessage('You do not organise this council.')).toBeNull()
  })

  it('says every message in plain words, naming no internal field (issue 22 item 7)', () => {
    expect(plain('name is a required field')).toBe('Name is required')
    expect(plain('schedule.registration_closes_at must be after schedule.registration_opens_at')).toBe(
      '“Registration closes” must be after “Registration opens”',
    )
    expect(plain('ticket_count cannot be below the number of tickets already collected.')).toBe(
      'Number of tickets cannot be below the number of tickets already collected.',
    )
    expect(plain('min_ppt must not be more than ma_ppt')).toBe('Smallest team must not be more than largest team')
    expect(plain('organizer_id is a required field')).toBe('Council is required')
    expect(plain('reentry must be true or false')).toBe('Re-entry must be true or false')
    expect(plain("questions: 'Stack' needs at least two options")).toBe("Question 'Stack' needs at least two options")
    expect(plain('questions: label is a required field')).toBe("A question's text is required")
    expect(plain('You do not organise this council.')).toBe('You do not organise this council.')
    // Every message the editor's own checks can give, over the table of forms: no snake_case or dotted name left.
    for (const [, change] of CASES)
      for (const message of Object.values(formErrors({ ...valid(), ...change, organizer_id: '' }, true)))
        expect(plain(message!)).not.toMatch(/[a-z]_[a-z]|schedule\.|^questions:/)
  })

  it('each date’s end time goes with its date: on its day, or on the next for a night event (issue 22 item 7)', () => {
    const form = { ...valid(), dates: ['2026-12-11T18:00', '', '2026-12-10T09:00'], date_ends: ['02:00', '11:00', '17:30'] }
    const input = toInput(form)
    expect(input.dates).toEqual(['2026-12-11T18:00:00+05:30', '2026-12-10T09:00:00+05:30'])
    expect(input.date_ends).toEqual(['2026-12-12T02:00:00+05:30', '2026-12-10T17:30:00+05:30'])
    expect(toInput({ ...form, date_ends: [] }).date_ends).toEqual([null, null])
    expect(eventInput.safeParse(input).success).toBe(true)
    // Read back by the editor as the times it showed.
    const saved = toForm({ ...orgEventOf(input), dates: input.dates!, date_ends: input.date_ends! })
    expect(saved.date_ends).toEqual(['02:00', '17:30'])
  })
})
