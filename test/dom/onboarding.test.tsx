// The getting-started wizard (SPEC §2, §4, §5) through the real app, client and session against a fake server.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { App } from '../../src/app.tsx'
import { BRANCHES_BY_YEAR, INTEREST_OPTIONS } from '../../contract/profile-options.ts'
import { MESSAGES } from '../../contract/messages.ts'
import { blur, choose, cleanup, click, fakeServer, getByText, go, mount, student, typeInto, waitFor } from './session-fakes.ts'

const fresh = student({ phone_number: null, roll_number: null, gender: null, year: null, branch: null, interests: [] })

function server(update: (body: any) => [number, unknown] = (body) => [200, { error: false, message: 'Profile updated', user: { ...fresh, ...body } }]) {
  return fakeServer({
    '/user/p/me': () => [200, { error: false, user: fresh }],
    '/event/p/get': () => [200, { error: false, events: {} }],
    '/user/p/update': update,
  })
}

async function openWizard() {
  go('/getting-started')
  const root = mount(<App />)
  await waitFor(() => getByText(root, 'Personal Details', 'h1'))
  return root
}

const $ = <T extends Element>(root: ParentNode, selector: string) => {
  const el = root.querySelector<T>(selector)
  if (!el) throw new Error(`no ${selector}`)
  return el
}
const errorOf = (root: ParentNode, field: string) => root.querySelector(`#gs-${field}-error`)?.textContent ?? null
const clickButton = (root: ParentNode, label: string) => click(getByText(root, label, 'button'))

async function fillPersonal(root: HTMLElement) {
  await typeInto($(root, '#gs-phone_number'), '98765 43210')
  await typeInto($(root, '#gs-roll_number'), ' 16010122001 ')
  await choose($(root, '#gs-gender'), 'FEMALE')
  await clickButton(root, 'Continue')
  await waitFor(() => getByText(root, 'Educational Details', 'h1'))
}

async function fillEducational(root: HTMLElement) {
  await choose($(root, '#gs-year'), '2027')
  await waitFor(() => expect($<HTMLSelectElement>(root, '#gs-branch').disabled).toBe(false))
  await choose($(root, '#gs-branch'), 'Artificial Intelligence And Data Science')
  await clickButton(root, 'Continue')
  await waitFor(() => getByText(root, 'Career Interest', 'h1'))
}

beforeEach(() => {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
})
afterEach(() => {
  vi.useRealTimers()
  cleanup()
})

describe('getting started', () => {
  it('shows each personal-step message of SPEC §5 once its control is touched, and none before', async () => {
    server()
    const root = await openWizard()
    expect(root.querySelectorAll('[id$="-error"]')).toHaveLength(0)

    await blur($(root, '#gs-phone_number'))
    await waitFor(() => expect(errorOf(root, 'phone_number')).toBe('Mobile number is required'))
    expect(errorOf(root, 'gender')).toBeNull() // untouched controls stay quiet

    await typeInto($(root, '#gs-phone_number'), '12345')
    await waitFor(() => expect(errorOf(root, 'phone_number')).toBe('Mobile number must be 10 digits'))
    expect($(root, '#gs-phone_number').getAttribute('aria-invalid')).toBe('true')
    expect($(root, '#gs-phone_number').getAttribute('aria-describedby')).toBe('gs-phone_number-error')

    await typeInto($(root, '#gs-phone_number'), '9876543210')
    await waitFor(() => expect(errorOf(root, 'phone_number')).toBeNull())

    await blur($(root, '#gs-gender'))
    await waitFor(() => expect(errorOf(root, 'gender')).toBe('Gender is required'))
    await blur($(root, '#gs-roll_number'))
    await waitFor(() => expect(errorOf(root, 'roll_number')).toBe('Student ID is a required field'))
  })

  it('Continue touches the whole step: every message at once, and no step change', async () => {
    server()
    const root = await openWizard()
    await clickButton(root, 'Continue')
    await waitFor(() => {
      expect(errorOf(root, 'phone_number')).toBe('Mobile number is required')
      expect(errorOf(root, 'roll_number')).toBe('Student ID is a required field')
      expect(errorOf(root, 'gender')).toBe('Gender is required')
    })
    expect(getByText(root, 'Personal Details', 'h1')).toBeTruthy()
    expect(document.activeElement?.id).toBe('gs-phone_number') // focus goes to the first problem
  })

  it('gender offers Male/Female with the wire values MALE/FEMALE', async () => {
    server()
    const root = await openWizard()
    const options = [...$<HTMLSelectElement>(root, '#gs-gender').options].map((o) => [o.value, o.textContent])
    expect(options).toEqual([
      ['', 'Select gender'],
      ['MALE', 'Male'],
      ['FEMALE', 'Female'],
    ])
  })

  it('educational step: years 2025-2028, branch disabled until a year is chosen, list per year, reset on change', async () => {
    server()
    const root = await openWizard()
    await fillPersonal(root)
    const year = $<HTMLSelectElement>(root, '#gs-year')
    expect([...year.options].map((o) => o.value)).toEqual(['', '2025', '2026', '2027', '2028'])
    expect($<HTMLSelectElement>(root, '#gs-branch').disabled).toBe(true)

    await clickButton(root, 'Continue')
    await waitFor(() => {
      expect(errorOf(root, 'year')).toBe('Graduation year is required')
      expect(errorOf(root, 'branch')).toBe('Branch is required')
    })

    await choose(year, '2025')
    await waitFor(() => expect($<HTMLSelectElement>(root, '#gs-branch').disabled).toBe(false))
    const branchNames = () => [...$<HTMLSelectElement>(root, '#gs-branch').options].slice(1).map((o) => o.value)
    expect(branchNames()).toEqual(BRANCHES_BY_YEAR[2025])
    expect(errorOf(root, 'year')).toBeNull()

    await choose($(root, '#gs-branch'), 'Electronics')
    await waitFor(() => expect(errorOf(root, 'branch')).toBeNull())
    await choose($(root, '#gs-year'), '2028')
    await waitFor(() => expect(branchNames()).toEqual(BRANCHES_BY_YEAR[2028]))
    // 'Electronics' is not offered in 2028: the choice is cleared, not silently kept.
    expect($<HTMLSelectElement>(root, '#gs-branch').value).toBe('')
    await waitFor(() => expect(errorOf(root, 'branch')).toBe('Branch is required'))

    await clickButton(root, 'Back')
    await waitFor(() => getByText(root, 'Personal Details', 'h1'))
    expect($<HTMLInputElement>(root, '#gs-phone_number').value).toBe('9876543210') // kept (digits only: the space was taken out as it was typed)
  })

  it('interest step: toggle chips (aria-pressed), Interests are required, Back to Educational Details', async () => {
    server()
    const root = await openWizard()
    await fillPersonal(root)
    await fillEducational(root)
    const chips = [...root.querySelectorAll<HTMLButtonElement>('button[aria-pressed]')]
    expect(chips.map((c) => c.textContent)).toEqual([...INTEREST_OPTIONS])
    await clickButton(root, 'Continue')
    await waitFor(() => expect(errorOf(root, 'interests')).toBe('Interests are required'))

    await click(chips[2])
    await waitFor(() => expect(chips[2].getAttribute('aria-pressed')).toBe('true'))
    expect(errorOf(root, 'interests')).toBeNull()
    await click(chips[2])
    await waitFor(() => expect(errorOf(root, 'interests')).toBe('Interests are required'))

    await clickButton(root, 'Back')
    await waitFor(() => getByText(root, 'Educational Details', 'h1'))
    expect($<HTMLSelectElement>(root, '#gs-branch').value).toBe('Artificial Intelligence And Data Science')
  })

  it('sends the SPEC §3 payload, shows All Done, and Start Exploring goes to /', async () => {
    const api = server()
    const root = await openWizard()
    await fillPersonal(root)
    await fillEducational(root)
    await click(getByText(root, 'AI/ML', 'button'))
    await click(getByText(root, 'WEB3', 'button'))
    await clickButton(root, 'Continue')
    await waitFor(() => getByText(root, 'All Done', 'h1'))
    expect(getByText(root, 'You are all done')).toBeTruthy()

    const sent = api.calls('/user/p/update')
    expect(sent).toHaveLength(1)
    expect(sent[0].auth).toBe('Bearer A')
    expect(sent[0].body).toEqual({
      phone_number: '9876543210',
      roll_number: '16010122001',
      gender: 'FEMALE',
      year: 2027,
      branch: 'Artificial_Intelligence_And_Data_Science',
      interests: ['AI/ML', 'WEB3'],
      degree: 'B.tech',
      college: 'KJSCE',
      id: 7,
    })

    await clickButton(root, 'Start Exploring')
    await waitFor(() => expect(location.pathname).toBe('/'))
    await waitFor(() => getByText(root, 'Namaste')) // the saved profile is complete: no bounce back
  })

  it('a spinner on the last Continue while saving, and no second request on a second press', async () => {
    let answer!: (value: [number, unknown]) => void
    const api = server(() => new Promise((resolve) => (answer = resolve)) as any)
    const root = await openWizard()
    await fillPersonal(root)
    await fillEducational(root)
    await click(getByText(root, 'Networking', 'button'))
    await clickButton(root, 'Continue')
    const submit = await waitFor(() => {
      const button = root.querySelector<HTMLButtonElement>('button[type="submit"]')!
      expect(button.disabled).toBe(true)
      return button
    })
    expect(submit.querySelector('.spinner')).not.toBeNull()
    await click(submit)
    answer([200, { error: false, message: 'ok', user: { ...fresh, phone_number: '9876543210', roll_number: 'x' } }])
    await waitFor(() => getByText(root, 'All Done', 'h1'))
    expect(api.calls('/user/p/update')).toHaveLength(1)
  })

  it("shows the server's message in a toast for 3 seconds and stays on the step", async () => {
    // The toast's timer on a clock the test moves (it still runs at real pace for the waits before).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true })
    server(() => [400, { error: true, message: 'Branch is not offered for that graduation year' }])
    const root = await openWizard()
    await fillPersonal(root)
    await fillEducational(root)
    await click(getByText(root, 'AI/ML', 'button'))
    await clickButton(root, 'Continue')
    const toast = await waitFor(() => getByText(document.body, 'Branch is not offered for that graduation year', '[role="alert"] *'))
    expect(toast).toBeTruthy()
    expect(getByText(root, 'Career Interest', 'h1')).toBeTruthy()
    expect(root.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).toBe(false)
    await vi.advanceTimersByTimeAsync(2500)
    expect(document.body.textContent).toContain('Branch is not offered for that graduation year')
    await vi.advanceTimersByTimeAsync(700)
    expect(document.body.textContent).not.toContain('Branch is not offered for that graduation year')
  })

  it.each([
    ['mobile number', 'phone_number', 'PHONE_TAKEN', MESSAGES.phoneTaken, '9876543210', '9876501234'],
    ['Student ID', 'roll_number', 'ROLL_TAKEN', MESSAGES.rollTaken, '16010122001', '16010122002'],
    // Issue 38 item 3: the field is found by the refusal's code; other words change nothing.
    ['mobile number (in other words)', 'phone_number', 'PHONE_TAKEN', 'Another student has this number.', '9876543210', '9876501234'],
  ])(
    'a %s another student holds (409): toast, back to Personal Details with the message under the field until it changes (issue 14)',
    async (_what, field, code, message, taken, other) => {
      const api = server((body) =>
        body[field] === taken ? [409, { error: true, message, code }] : [200, { error: false, message: 'Profile updated', user: { ...fresh, ...body } }],
      )
      const root = await openWizard()
      await fillPersonal(root)
      await fillEducational(root)
      await click(getByText(root, 'AI/ML', 'button'))
      await clickButton(root, 'Continue')
      await waitFor(() => getByText(document.body, message, '[role="alert"] *'))
      await waitFor(() => getByText(root, 'Personal Details', 'h1'))
      expect(errorOf(root, field)).toBe(message)
      expect($(root, `#gs-${field}`).getAttribute('aria-invalid')).toBe('true')
      // Continuing with the same value is not allowed; another value clears the message and goes through.
      await clickButton(root, 'Continue')
      expect(getByText(root, 'Personal Details', 'h1')).toBeTruthy()
      await typeInto($(root, `#gs-${field}`), other)
      await waitFor(() => expect(errorOf(root, field)).toBeNull())
      await clickButton(root, 'Continue')
      await waitFor(() => getByText(root, 'Educational Details', 'h1'))
      await clickButton(root, 'Continue')
      await waitFor(() => getByText(root, 'Career Interest', 'h1'))
      await clickButton(root, 'Continue')
      await waitFor(() => getByText(root, 'All Done', 'h1'))
      expect(api.calls('/user/p/update').map((c) => c.body[field])).toEqual([taken, other])
    },
  )

  it('the mobile number field takes digits only, 10 at most (inputmode numeric), and reads a pasted +91 number whole (issue 14)', async () => {
    server()
    const root = await openWizard()
    const phone = $<HTMLInputElement>(root, '#gs-phone_number')
    expect(phone.getAttribute('inputmode')).toBe('numeric')
    expect(phone.getAttribute('maxlength')).toBe('10')
    await typeInto(phone, '98a7-6 5x')
    expect(phone.value).toBe('98765')
    await typeInto(phone, '987654321012')
    expect(phone.value).toBe('9876543210')
    const paste = new Event('paste', { bubbles: true, cancelable: true }) as ClipboardEvent
    Object.defineProperty(paste, 'clipboardData', { value: { getData: () => '+91 91234 56780' } })
    phone.dispatchEvent(paste)
    await new Promise((r) => setTimeout(r, 0)) // kept: one turn of the event loop (the render), no time
    expect(paste.defaultPrevented).toBe(true)
    expect(phone.value).toBe('9123456780')
    await blur(phone)
    expect(errorOf(root, 'phone_number')).toBeNull()
  })

  it('offers Logout, naming the account signed in, for someone signed in with the wrong one (issue 14)', async () => {
    server()
    const root = await openWizard()
    const logout = getByText(root, 'Logout', 'a') as HTMLAnchorElement
    expect(logout.getAttribute('href')).toBe('/logout')
    expect(logout.parentElement!.textContent).toBe(`Signed in as ${fresh.email}. Not you? Logout`)
  })

  it("'User ID not found.' when there is no user id, and nothing is sent", async () => {
    const api = fakeServer({
      '/user/p/me': () => [503, { error: true, message: 'Try again later' }],
      '/event/p/get': () => [200, { error: false, events: {} }],
    })
    const root = await openWizard()
    await fillPersonal(root)
    await fillEducational(root)
    await click(getByText(root, 'AI/ML', 'button'))
    await clickButton(root, 'Continue')
    await waitFor(() => getByText(document.body, 'User ID not found.', '[role="alert"] *'))
    expect(api.calls('/user/p/update')).toHaveLength(0)
    expect(getByText(root, 'Career Interest', 'h1')).toBeTruthy()
  })

  it('redirects to / when the user already has a phone number and roll number', async () => {
    fakeServer({
      '/user/p/me': () => [200, { error: false, user: student() }],
      '/event/p/get': () => [200, { error: false, events: {} }],
    })
    go('/getting-started')
    const root = mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/'))
    await waitFor(() => getByText(root, 'Namaste'))
    expect(root.textContent).not.toContain('Personal Details')
  })
})
