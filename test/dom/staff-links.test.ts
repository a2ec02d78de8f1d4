// 'Mobile Required' offers the console and the door to a signed-in organiser or door volunteer, and nothing to a
// student (issue 22 item 8; src/stores/staff-links.ts, which the start loads in the background).
import { afterEach, describe, expect, it } from 'vitest'
import { isStaff, showStaffLinks } from '../../src/stores/staff-links.ts'

const student = { admin: false, councils: [], door_events: [] }
const links = () => [...document.querySelectorAll<HTMLAnchorElement>('#mobile-required a')].map((a) => [a.getAttribute('href'), a.textContent])

afterEach(() => {
  document.body.innerHTML = ''
})

describe('staff links on Mobile Required', () => {
  it('an organiser, an admin or a door volunteer gets the console and the door; a student or nobody signed in, nothing', () => {
    expect(isStaff(undefined)).toBe(false)
    expect(isStaff(student)).toBe(false)
    expect(isStaff({ ...student, councils: [3] })).toBe(true)
    expect(isStaff({ ...student, door_events: [12] })).toBe(true)
    expect(isStaff({ ...student, admin: true })).toBe(true)

    document.body.innerHTML = '<p id="mobile-required">Mobile Required. Please use a mobile device and install the app to continue.</p>'
    showStaffLinks(student)
    expect(links()).toEqual([])
    showStaffLinks({ ...student, councils: [1] })
    expect(links()).toEqual([
      ['/manage', 'Organiser console'],
      ['/door', 'Door check-in'],
    ])
    showStaffLinks({ ...student, councils: [1] })
    expect(links()).toHaveLength(2) // shown once, however often the user is loaded
    // Signed out, or another student signed in on this computer: gone.
    showStaffLinks(undefined)
    expect(links()).toEqual([])
    expect(document.getElementById('mobile-required')?.textContent).toBe('Mobile Required. Please use a mobile device and install the app to continue.')
  })
})
