// Team details (SPEC §2, §4, §6, §7): leader and member views, the confirm dialog for delete and remove,
// the refetch after a removal, the copy button, and the redirects.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/api/client.ts'
import { COPIED, COPY_FAILED } from '../../src/components/copy-button/index.tsx'
import { session } from '../../src/models.ts'
import { cleanup, click, getByText, settle, student, waitFor } from './session-fakes.ts'
import {
  EVENT_ID,
  LEADER,
  MEMBER,
  OTHER,
  TEAM_ID,
  addressesVisited,
  button,
  buttonNames,
  byteClub,
  deferred,
  fakeTeamApi,
  inTeam,
  openAt,
  pathIs,
  teamEvent,
  type FakeTeamApi,
} from './team-fakes.tsx'
import { TEAM_CHANGES_CLOSED, TEAMS_CLOSED } from '../../src/pages/team-event.tsx'

async function openDetails(api: FakeTeamApi, viewer: number) {
  session.setUser(student({ id: viewer }))
  api.state.viewer = viewer
  const root = openAt(`/team-details/${EVENT_ID}`, api)
  await waitFor(() => getByText(root, 'Byte Club', 'h1'))
  return root
}

/** Each member row as read aloud: without the aria-hidden initial that stands in for a missing photo. */
const rows = (root: ParentNode) =>
  [...root.querySelectorAll('li')].map((li) => {
    const copy = li.cloneNode(true) as HTMLElement
    copy.querySelectorAll('[aria-hidden="true"]').forEach((el) => el.remove())
    return copy.textContent?.trim()
  })
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')
const press = (key: string, shiftKey = false) => document.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true }))

afterEach(() => {
  vi.restoreAllMocks()
  cleanup()
})

describe('what each role sees (SPEC §6)', () => {
  it('the leader sees the team, the code, every member with (Leader) on theirs, remove on every other row, and Delete Team', async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, LEADER.id)

    expect(root.querySelector('code')?.textContent).toBe('aB3dE')
    expect(rows(root)).toEqual(['Asha Rao (Leader)', 'Ravi Kumar', 'Meera Shah'])
    expect(root.textContent).toContain('Members (3 of 4)')
    expect(buttonNames(root)).toEqual(['Copy invite code', 'Remove Ravi Kumar', 'Remove Meera Shah', 'Delete Team'])

    const photo = root.querySelector<HTMLImageElement>('li img')!
    expect(photo.getAttribute('src')).toBe(LEADER.photo_url)
    expect([photo.getAttribute('width'), photo.getAttribute('height'), photo.getAttribute('alt')]).toEqual(['40', '40', ''])
    // A member without a photo gets an initial in the same 40px circle, not a broken image.
    expect(root.querySelectorAll('li')[1].querySelector('img')).toBeNull()
    expect(root.querySelectorAll('li')[1].querySelector('[aria-hidden="true"]')?.textContent).toBe('R')
  })

  it('a member sees a remove button on their own row only, and no Delete Team', async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, MEMBER.id)
    expect(rows(root)).toEqual(['Asha Rao (Leader)', 'Ravi Kumar', 'Meera Shah'])
    expect(buttonNames(root)).toEqual(['Copy invite code', 'Remove Ravi Kumar'])
  })

  it('compares ids as numbers: string ids on the wire still make the leader the leader and never removable', async () => {
    const stringy = byteClub({
      leader_id: String(LEADER.id) as unknown as number,
      Participant: [LEADER, MEMBER, OTHER].map((u) => ({ user: { ...u, id: String(u.id) as unknown as number } })),
    })
    const api = fakeTeamApi(teamEvent({ Participant: inTeam(stringy) }))
    const root = await openDetails(api, LEADER.id)
    expect(rows(root)[0]).toBe('Asha Rao (Leader)')
    expect(buttonNames(root)).toEqual(['Copy invite code', 'Remove Ravi Kumar', 'Remove Meera Shah', 'Delete Team'])
  })
})

describe('delete and remove ask first', () => {
  it('Delete Team opens a modal dialog with focus on Cancel; Cancel closes it, deletes nothing and gives focus back', async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, LEADER.id)
    const opener = button(root, 'Delete Team')
    opener.focus()
    await click(opener)

    const box = await waitFor(() => dialog()!)
    expect(box.getAttribute('aria-modal')).toBe('true')
    expect(document.getElementById(box.getAttribute('aria-labelledby')!)?.textContent).toBe('Delete Byte Club?')
    expect(buttonNames(box)).toEqual(['Cancel', 'Confirm'])
    expect(document.activeElement).toBe(button(box, 'Cancel'))

    // Tab stays inside: from Confirm it wraps to Cancel, and Shift+Tab from Cancel to Confirm.
    press('Tab', true)
    expect(document.activeElement).toBe(button(box, 'Confirm'))
    press('Tab')
    expect(document.activeElement).toBe(button(box, 'Cancel'))

    await click(button(box, 'Cancel'))
    await waitFor(() => expect(dialog()).toBeNull())
    expect(api.deleteTeam).not.toHaveBeenCalled()
    expect(document.activeElement).toBe(button(root, 'Delete Team'))
    expect(location.pathname).toBe(`/team-details/${EVENT_ID}`)
  })

  it('Escape cancels the dialog', async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, LEADER.id)
    await click(button(root, 'Remove Meera Shah'))
    await waitFor(() => dialog()!)
    press('Escape')
    await waitFor(() => expect(dialog()).toBeNull())
    expect(api.removeFromTeam).not.toHaveBeenCalled()
    expect(rows(root)).toHaveLength(3)
  })

  it('Confirm deletes the team (spinner while it runs), refreshes the events list and goes to team-register', async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const answer = deferred<void>()
    const real = api.deleteTeam.getMockImplementation()!
    api.deleteTeam.mockImplementation(async (eventId, teamId) => {
      await answer.promise
      return real(eventId, teamId)
    })
    const root = await openDetails(api, LEADER.id)
    await click(button(root, 'Delete Team'))
    await click(button(dialog()!, 'Confirm'))

    expect(api.deleteTeam).toHaveBeenCalledWith(EVENT_ID, TEAM_ID)
    await waitFor(() => expect(button(dialog()!, 'Confirm').getAttribute('aria-busy')).toBe('true'))
    expect(button(dialog()!, 'Cancel').disabled).toBe(true)
    press('Escape') // too late to cancel: the call is out
    await settle()
    expect(dialog()).not.toBeNull()

    answer.resolve()
    await pathIs(`/team-register/${EVENT_ID}`)
    await waitFor(() => getByText(root, 'Create Team', 'h2'))
    expect(api.onChanged).toHaveBeenCalledTimes(1)
  })

  it('the leader removing a member: the event is refetched, the row goes, focus lands on the member list', async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, LEADER.id)
    const fetches = api.getEvent.mock.calls.length
    await click(button(root, 'Remove Ravi Kumar'))
    expect(document.getElementById(dialog()!.getAttribute('aria-labelledby')!)?.textContent).toBe('Remove Ravi Kumar?')
    await click(button(dialog()!, 'Confirm'))

    await waitFor(() => expect(rows(root)).toEqual(['Asha Rao (Leader)', 'Meera Shah']))
    expect(api.removeFromTeam).toHaveBeenCalledWith(TEAM_ID, MEMBER.id)
    expect(api.getEvent.mock.calls.length).toBe(fetches + 1)
    expect(api.onChanged).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(dialog()).toBeNull())
    await waitFor(() => expect(document.activeElement?.id).toBe('members-title'))
    expect(root.textContent).toContain('Members (2 of 4)')
    expect(location.pathname).toBe(`/team-details/${EVENT_ID}`)
  })

  it('a member removing themself has no team after the refetch and is taken to team-register', async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, MEMBER.id)
    await click(button(root, 'Remove Ravi Kumar'))
    expect(document.getElementById(dialog()!.getAttribute('aria-labelledby')!)?.textContent).toBe('Leave Byte Club?')
    await click(button(dialog()!, 'Confirm'))
    await pathIs(`/team-register/${EVENT_ID}`)
    expect(api.removeFromTeam).toHaveBeenCalledWith(TEAM_ID, MEMBER.id)
    await waitFor(() => getByText(root, 'Join Team', 'h2'))
  })

  it("a refused change shows the server's message and leaves the team as it was", async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    api.removeFromTeam.mockRejectedValue(new ApiError(403, 'Teams can only be changed while registration is open.'))
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const root = await openDetails(api, LEADER.id)
    await click(button(root, 'Remove Meera Shah'))
    await click(button(dialog()!, 'Confirm'))
    await waitFor(() => getByText(root, 'Teams can only be changed while registration is open.'))
    await waitFor(() => expect(dialog()).toBeNull())
    expect(rows(root)).toHaveLength(3)
    expect(api.onChanged).not.toHaveBeenCalled()
  })
})

describe('copy the invite code', () => {
  it('writes the code to the clipboard and says Copied!', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, MEMBER.id)
    const copy = button(root, 'Copy invite code')
    expect(root.querySelector('[role="status"]')?.textContent).not.toContain(COPIED)
    await click(copy)
    expect(writeText).toHaveBeenCalledWith('aB3dE')
    await waitFor(() => expect(copy.parentElement!.querySelector('[role="status"]')?.textContent).toBe(COPIED))
  })

  it('says so when the clipboard refuses', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'))
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, MEMBER.id)
    const copy = button(root, 'Copy invite code')
    await click(copy)
    await waitFor(() => expect(copy.parentElement!.querySelector('[role="status"]')?.textContent).toBe(COPY_FAILED))
  })
})

describe('after registration closes (issue 14: actions that can only fail)', () => {
  it.each(['REGISTRATION_CLOSED', 'TICKET_OPEN', 'COMPLETED'] as const)(
    'in %s the leader sees the team read-only: members, a line that changes are closed, no code to share, no remove, no Delete Team',
    async (state) => {
      const api = fakeTeamApi(teamEvent({ state, Participant: inTeam() }))
      const root = await openDetails(api, LEADER.id)
      expect(rows(root)).toEqual(['Asha Rao (Leader)', 'Ravi Kumar', 'Meera Shah'])
      expect(root.textContent).toContain(TEAM_CHANGES_CLOSED)
      expect(root.querySelector('code')).toBeNull()
      expect(root.textContent).not.toContain('aB3dE')
      expect(buttonNames(root)).toEqual([])
    },
  )

  it('a member sees no remove button on their own row either', async () => {
    const api = fakeTeamApi(teamEvent({ state: 'REGISTRATION_CLOSED', Participant: inTeam() }))
    const root = await openDetails(api, MEMBER.id)
    expect(root.textContent).toContain(TEAM_CHANGES_CLOSED)
    expect(buttonNames(root)).toEqual([])
  })

  it('while registration is open the line is not shown', async () => {
    const api = fakeTeamApi(teamEvent({ Participant: inTeam() }))
    const root = await openDetails(api, LEADER.id)
    expect(root.textContent).not.toContain(TEAM_CHANGES_CLOSED)
  })

  it('a student with no team still goes to team-register (SPEC §4), which says teams are closed', async () => {
    const api = fakeTeamApi(teamEvent({ state: 'REGISTRATION_CLOSED' }))
    session.setUser(student({ id: LEADER.id }))
    const root = openAt(`/team-details/${EVENT_ID}`, api)
    await pathIs(`/team-register/${EVENT_ID}`)
    await waitFor(() => getByText(root, TEAMS_CLOSED, 'p'))
  })
})

describe('team details redirects (SPEC §4)', () => {
  it('an individual event (ma_ppt 1) goes to event details', async () => {
    const api = fakeTeamApi(teamEvent({ ma_ppt: 1 }))
    session.setUser(student({ id: LEADER.id }))
    const root = openAt(`/team-details/${EVENT_ID}`, api)
    await pathIs(`/event-details/${EVENT_ID}`)
    await waitFor(() => getByText(root, 'Event details stand-in'))
  })

  it('a student with no team goes to team-register', async () => {
    const api = fakeTeamApi(teamEvent())
    session.setUser(student({ id: LEADER.id }))
    const root = openAt(`/team-details/${EVENT_ID}`, api)
    await pathIs(`/team-register/${EVENT_ID}`)
    await waitFor(() => getByText(root, 'Create Team', 'h2'))
  })

  it('waits for its own fetch: a store still showing the student without a team does not bounce them away', async () => {
    const api = fakeTeamApi(teamEvent())
    await api.detail.load(EVENT_ID) // seen before the team was joined...
    api.state.event = teamEvent({ Participant: inTeam() }) // ...which it now is
    const visited = addressesVisited()
    const root = await openDetails(api, MEMBER.id)
    await new Promise((r) => setTimeout(r, 50)) // kept: a window in which no redirect may happen (absence)
    // The test's own opening of the page, and not even a round trip through team-register and back.
    expect(visited).toEqual([`/team-details/${EVENT_ID}`])
    expect(api.getEvent).toHaveBeenCalledTimes(2)
    expect(rows(root)).toHaveLength(3)
  })
})
