// The individual Register of an event that asks registration questions (API.md Part 2 "Registration questions"),
// through the real app, client and stores against a fake server: Register opens a dialog with the questions (its
// own chunk), messages show on touch in the server's words (contract/questions.ts), nothing is sent while an
// answer is wrong, and Register sends the answers trimmed; a 400 the server answers shows in the dialog. An event
// without questions keeps its one-tap Register (event-details.test.tsx).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { showToast } from '../../src/components/toast/index.tsx'
import { buildEventDetail } from '../../src/stores/event-detail.ts'
import { room } from '../../src/models.ts'

const eventDetail = room(buildEventDetail)
import { participant } from '../fixtures/events.ts'
import { detail, openEventDetails, type World } from './event-fixtures.ts'
import { blur, choose, cleanup, click, typeInto, waitFor } from './session-fakes.ts'

const questions = [
  { id: 'gh', label: 'GitHub', kind: 'URL' as const, options: [], required: true },
  { id: 'track', label: 'Track', kind: 'CHOICE' as const, options: ['Web', 'AI'], required: true },
  { id: 'why', label: 'Why join', kind: 'LONG_TEXT' as const, options: [], required: false },
  { id: 'nick', label: 'Nickname', kind: 'TEXT' as const, options: [], required: false },
  // The organiser wrote "(optional)" already (issue 22 item 9: it showed "(optional) (optional)").
  { id: 'site', label: 'Website (Optional)', kind: 'URL' as const, options: [], required: false },
]

beforeEach(() => showToast(''))
afterEach(() => {
  cleanup()
  eventDetail.reset()
  vi.restoreAllMocks()
})

const open = (world: World, id: number) => openEventDetails(world, id, 'article')

const bar = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('article > div')].at(-1)!.firstElementChild as HTMLButtonElement
const dialog = () => document.querySelector<HTMLFormElement>('[role=dialog]')
const $ = <T extends HTMLElement = HTMLInputElement>(selector: string) => {
  const el = document.querySelector<T>(selector)
  if (!el) throw new Error(`no ${selector}`)
  return el
}
const errorOf = (id: string) => document.getElementById(`q-${id}-error`)?.textContent ?? null
const submit = async () => {
  dialog()!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
  await new Promise((r) => setTimeout(r, 0)) // kept: one turn of the event loop (the render), no time
}

describe('Register with registration questions', () => {
  it('opens a dialog asking them, checks on touch with the server’s words, and sends the answers', async () => {
    const e = detail({ state: 'REGISTRATION_OPEN', questions })
    const world: World = { events: [e] }
    world.extra = {
      '/event/p/register-for-event': (body) => {
        world.events = [{ ...e, Participant: participant({ id: 5, ticket_collected: false, ticket_code: null, team: null, answers: body.answers }) }]
        return [200, { error: false, message: 'Registration Successful!!' }]
      },
    }
    const { root, server } = await open(world, e.id)
    expect(bar(root).textContent).toBe('Register')
    await click(bar(root))
    await waitFor(() => expect(dialog()).not.toBeNull())
    expect(dialog()!.getAttribute('aria-modal')).toBe('true')
    expect(document.getElementById('register-title')?.textContent).toBe(`Register for ${e.name}`)
    // Labels, "(optional)", and a control per kind.
    expect(document.querySelector('label[for="q-gh"]')?.textContent).toBe('GitHub *')
    expect(document.querySelector('label[for="q-why"]')?.textContent).toBe('Why join (optional)')
    expect(document.querySelector('label[for="q-site"]')?.textContent).toBe('Website (optional)')
    expect($('#q-gh').type).toBe('url')
    expect($('#q-track').tagName).toBe('SELECT')
    expect($('#q-why').tagName).toBe('TEXTAREA')
    expect($('#q-nick').type).toBe('text')
    // The first question has the focus; no message before a field is touched.
    await waitFor(() => expect(document.activeElement?.id).toBe('q-gh'))
    expect(errorOf('gh')).toBeNull()

    // On touch: required, then the link rule, in contract/questions.ts's words.
    await blur($('#q-gh'))
    await waitFor(() => expect(errorOf('gh')).toBe('GitHub is a required field'))
    expect($('#q-gh').getAttribute('aria-invalid')).toBe('true')
    expect($('#q-gh').getAttribute('aria-describedby')).toBe('q-gh-error')
    await typeInto($('#q-gh'), 'github.com/me')
    await waitFor(() => expect(errorOf('gh')).toBe('GitHub must be an http or https link'))
    await typeInto($('#q-gh'), '  https://github.com/me  ')
    await waitFor(() => expect(errorOf('gh')).toBeNull())
    expect(errorOf('track')).toBeNull() // untouched

    // Submitting with a required choice unanswered sends nothing, shows its message and focuses it.
    await submit()
    await waitFor(() => expect(errorOf('track')).toBe('Track is a required field'))
    expect(document.activeElement?.id).toBe('q-track')
    expect(server.calls('/event/p/register-for-event')).toHaveLength(0)

    await choose($<HTMLSelectElement>('#q-track'), 'AI')
    await typeInto($('#q-why'), 'To learn.')
    await submit()
    await waitFor(() => expect(server.calls('/event/p/register-for-event')).toHaveLength(1))
    // Trimmed, and the optional question left empty is left out.
    expect(server.calls('/event/p/register-for-event')[0].body).toEqual({
      event_id: e.id,
      answers: { gh: 'https://github.com/me', track: 'AI', why: 'To learn.' },
    })
    await waitFor(() => expect(bar(root).textContent).toBe('Registered'))
    expect(dialog()).toBeNull()
    expect(document.querySelector('.toast')?.textContent).toBe('Registration Successful!!')
    expect(eventDetail.event.value?.Participant).toMatchObject({ answers: { gh: 'https://github.com/me', track: 'AI', why: 'To learn.' } })
  })

  it('shows the server’s 400 in the dialog and keeps the answers; Cancel closes it with nothing sent again', async () => {
    const e = detail({ state: 'REGISTRATION_OPEN', questions: [questions[3]] })
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { root, server } = await open(
      { events: [e], extra: { '/event/p/register-for-event': () => [400, { error: true, message: 'Nickname must be at most 200 characters' }] } },
      e.id,
    )
    await click(bar(root))
    await waitFor(() => expect(dialog()).not.toBeNull())
    await typeInto($('#q-nick'), 'Ace')
    await submit()
    await waitFor(() => expect(dialog()!.querySelector('[role=alert]')?.textContent).toBe('Nickname must be at most 200 characters'))
    expect($('#q-nick').value).toBe('Ace')
    expect(bar(root).textContent).toBe('Register')
    expect(log).toHaveBeenCalled()
    const cancel = [...dialog()!.querySelectorAll('button')].find((b) => b.textContent === 'Cancel')!
    await click(cancel)
    await waitFor(() => expect(dialog()).toBeNull())
    expect(server.calls('/event/p/register-for-event')).toHaveLength(1)
  })

  it('a 409 (registered meanwhile, elsewhere) fetches the event again: the form closes with the reason, the page shows Registered', async () => {
    const e = detail({ state: 'REGISTRATION_OPEN', questions: [questions[3]] })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const world: World = { events: [e] }
    world.extra = {
      '/event/p/register-for-event': () => {
        world.events = [{ ...e, Participant: participant({ id: 5, ticket_collected: false, ticket_code: null, team: null }) }]
        return [409, { error: true, message: 'You are already registered for this event.' }]
      },
    }
    const { root } = await open(world, e.id)
    await click(bar(root))
    await waitFor(() => expect(dialog()).not.toBeNull())
    await submit()
    await waitFor(() => expect(bar(root).textContent).toBe('Registered'))
    // The form goes with it; the server's reason stays as a toast.
    await waitFor(() => expect(dialog()).toBeNull())
    expect(document.querySelector('.toast')?.textContent).toBe('You are already registered for this event.')
  })

  it('an event without questions registers in one tap, with no dialog', async () => {
    const e = detail({ state: 'REGISTRATION_OPEN', questions: [] })
    const { root, server } = await open({ events: [e], extra: { '/event/p/register-for-event': () => [200, { error: false, message: 'ok' }] } }, e.id)
    await click(bar(root))
    await waitFor(() => expect(bar(root).textContent).toBe('Registered'))
    expect(dialog()).toBeNull()
    expect(server.calls('/event/p/register-for-event')[0].body).toEqual({ event_id: e.id })
  })
})
