// Shared by the DOM tests: a fake API server behind globalThis.fetch (the real client, stores and screens
// run against it), mounting and polling helpers.
import { render, type ComponentChild } from 'preact'
import { vi } from 'vitest'
import type { User } from '../../contract/types.ts'
import { session } from '../../src/models.ts'

export type Handler = (body: any, auth: string | null) => [number, unknown] | Promise<[number, unknown]>

export interface SeenRequest {
  path: string
  body: any
  auth: string | null
}

/** Installs a fetch that answers API paths (after /api/v1) from `handlers`; unknown paths answer 404. */
export function fakeServer(handlers: Record<string, Handler>) {
  const requests: SeenRequest[] = []
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = String(url).replace(/^.*\/api\/v1/, '')
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    const auth = new Headers(init?.headers).get('authorization')
    requests.push({ path, body, auth })
    const handler = handlers[path]
    const [status, answer] = handler ? await handler(body, auth) : [404, { error: true, message: 'No such API call.' }]
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetch)
  return { fetch, requests, calls: (path: string) => requests.filter((r) => r.path === path) }
}

export const student = (over: Partial<User> = {}): User => ({
  id: 7,
  name: 'Asha Rao',
  email: 'asha@example.edu',
  photo_url: 'https://images.example/asha.png',
  college: 'KJSCE',
  phone_number: '9876543210',
  roll_number: '16010122001',
  gender: 'FEMALE',
  year: 2027,
  branch: 'Computer_Engineering',
  degree: 'B.tech',
  interests: ['AI/ML'],
  roles: { admin: false, councils: [], door_events: [] },
  ...over,
})

let mounted: HTMLElement[] = []

export function mount(ui: ComponentChild) {
  const container = document.createElement('div')
  document.body.append(container)
  render(ui, container)
  mounted.push(container)
  return container
}

/** Unmounts everything, forgets the session and the stored tokens, restores fetch. */
export function cleanup() {
  for (const container of mounted) {
    render(null, container)
    container.remove()
  }
  mounted = []
  session.reset()
  localStorage.clear()
  vi.unstubAllGlobals()
}

/**
 * Retries `check` until it stops throwing (or the time is up, then throws its last error). 5 s: a screen that is
 * right passes as soon as it is; the time only matters on a machine loaded by other runs (2 s failed at load 13).
 */
export async function waitFor<T>(check: () => T, timeout = 5000): Promise<T> {
  const start = Date.now()
  for (;;) {
    try {
      return check()
    } catch (err) {
      if (Date.now() - start > timeout) throw err
      await new Promise((r) => setTimeout(r, 10)) // kept: the step of a poll for the condition
    }
  }
}

export const go = (url: string) => history.replaceState(null, '', url)

/** querySelector that throws when nothing matches (so waitFor keeps waiting). */
export function find<T extends Element = HTMLElement>(root: ParentNode, selector: string): T {
  const el = root.querySelector<T>(selector)
  if (!el) throw new Error(`nothing matches ${selector}`)
  return el
}

export function getByText(root: ParentNode, text: string | RegExp, selector = '*') {
  const found = [...root.querySelectorAll<HTMLElement>(selector)].filter((el) =>
    typeof text === 'string' ? el.textContent?.trim() === text : text.test(el.textContent ?? ''),
  )
  // The innermost match: the element that holds the text itself.
  const inner = found.filter((el) => !found.some((other) => other !== el && el.contains(other)))
  if (!inner.length) throw new Error(`no element with text ${text}`)
  return inner[0]
}

// A browser renders between two of a person's actions; a test must wait for that render too.
export const settle = () => new Promise((r) => setTimeout(r, 0)) // kept: one turn of the event loop, no time

export async function typeInto(input: HTMLInputElement, value: string) {
  input.value = value
  input.dispatchEvent(new Event('input', { bubbles: true }))
  await settle()
}

export async function choose(select: HTMLSelectElement, value: string) {
  select.value = value
  select.dispatchEvent(new Event('change', { bubbles: true }))
  await settle()
}

export async function click(el: HTMLElement) {
  el.click()
  await settle()
}

export async function blur(el: Element) {
  el.dispatchEvent(new Event('blur'))
  await settle()
}
