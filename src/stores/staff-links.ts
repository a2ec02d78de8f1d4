// 'Mobile Required' on a wide screen offers a signed-in organiser or door volunteer the console and the door
// (issue 22 item 8: a laptop reached them only through Profile, which a wide screen hides). The links are added
// here, from the stored user's roles, to the message of index.html; this is loaded with the background work of
// the start (stores/offline-tickets.ts, two seconds after the load), so the first load carries none of it.
import { effect } from '@preact/signals'
import type { Roles } from '../../contract/types.ts'
import { session } from '../models.ts'

/** Whether the user has a role beyond student: admin, organiser of a council, or door volunteer of an event. */
export const isStaff = (roles: Roles | undefined): boolean => !!roles && (roles.admin || roles.councils.length > 0 || roles.door_events.length > 0)

const LINKS = [
  ['/manage', 'Organiser console'],
  ['/door', 'Door check-in'],
]

/** Shows (or takes away) the links under the message, as the signed-in user's roles say. */
export function showStaffLinks(roles: Roles | undefined, doc: Document = document): void {
  doc.getElementById('staff-links')?.remove()
  const message = doc.getElementById('mobile-required')
  if (!message || !isStaff(roles)) return
  const links = doc.createElement('span')
  links.id = 'staff-links'
  for (const [href, text] of LINKS) {
    const a = doc.createElement('a')
    a.href = href
    a.textContent = text
    links.append(a, ' ')
  }
  // One under the other: the message is a centred flex box (src/styles/critical.css); style set from script is
  // not inline CSS the policy restricts.
  Object.assign(message.style, { flexDirection: 'column', gap: '1em' })
  message.append(links)
}

effect(() => showStaffLinks(session.user.value?.roles))
