// src/models.ts's `room`: a room is built once, from the start models, and handed out the same after; a room's builder
// gets the rooms it needs from `room` too (issue 38 item 4).
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventSummary } from '../../contract/types.ts'
import { events, room, session, type StartModels } from '../../src/models.ts'
import { buildSetParticipant } from '../../src/stores/event-detail.ts'

afterEach(() => events.reset())

describe('room', () => {
  it('builds a room once, from the start models, and hands out the same models after', () => {
    const build = vi.fn((start: StartModels) => ({ start }))
    const first = room(build)
    expect(room(build)).toBe(first)
    expect(build).toHaveBeenCalledTimes(1)
    expect(first.start.events).toBe(events)
    expect(first.start.session).toBe(session)
  })

  it("a room's builder gets the rooms it needs from `room`, built once whichever asks first", () => {
    const inner = vi.fn(() => ({ id: Math.random() }))
    const outer = vi.fn((_: StartModels, ask: typeof room) => ({ inner: ask(inner) }))
    const built = room(outer)
    expect(built.inner).toBe(room(inner))
    expect(inner).toHaveBeenCalledTimes(1)
    expect(room(outer)).toBe(built)
  })

  it("the event room's setParticipant writes into the start path's events list", () => {
    const garba = { id: 5, name: 'Garba Night', Participant: false } as unknown as EventSummary
    events.update(() => ({ TICKET_OPEN: [garba] }))
    room(buildSetParticipant)(5, { ticket_collected: false, team: null })
    expect(events.all.value[0].Participant).toEqual({ ticket_collected: false, team: null })
  })
})
