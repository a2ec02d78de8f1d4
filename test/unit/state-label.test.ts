// Every state has a label for the lists of a parent's children (issue 14, item 6): Home's trending labels where
// SPEC §2 gives one, words of their own for the rest.
import { describe, expect, it } from 'vitest'
import { EVENT_STATES } from '../../contract/constants.ts'
import { stateLabel } from '../../src/lib/state-label.ts'

describe('stateLabel', () => {
  it('labels each of the seven states, with the SPEC §2 trending labels where they exist', () => {
    expect(Object.fromEntries(EVENT_STATES.map((s) => [s, stateLabel(s)]))).toEqual({
      UPCOMING: 'Coming Soon',
      REGISTRATION_OPEN: 'Registrations Open',
      REGISTRATION_CLOSED: 'Registration Closed',
      TICKET_OPEN: 'RSVP Now',
      TICKET_CLOSED: 'RSVP Closed',
      ONGOING: 'Ongoing',
      COMPLETED: 'Completed',
    })
  })
})
