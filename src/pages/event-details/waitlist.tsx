// Give back and waitlist on the event page (issue 13, API.md Part 2 "Around the event"), below the bottom button:
// a ticket holder can give the ticket back (with a confirmation); on a sold-out event a registered student can
// join the waitlist, sees their position and can leave; a student a ticket is held for sees until when (the RSVP
// button above claims it). Before tickets open, "Notify me" offers a notification when they do.
import { useEffect, useState } from 'preact/hooks'
import type { EventDetail } from '../../../contract/types.ts'
import { ConfirmModal } from '../../components/modal/index.tsx'
import { NotifyMe } from '../../components/notify-me/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { formatTime } from '../../lib/date-formats.ts'
import { buildEventDetail, buildGivenAway } from '../../stores/event-detail.ts'
import { buildGiveBack } from '../../stores/give-back.ts'
import { buildPush } from '../../stores/push.ts'
import { room } from '../../models.ts'
import s from './waitlist.module.css'

const eventDetail = room(buildEventDetail)
const givenAway = room(buildGivenAway)
const { joinWaitlist, releaseTicket } = room(buildGiveBack)
const push = room(buildPush)

/** How often a waitlisted student's open page asks whether a place is offered to them. */
export const WAITLIST_POLL_MS = 20_000

const BEFORE_TICKETS = new Set(['UPCOMING', 'REGISTRATION_OPEN', 'REGISTRATION_CLOSED'])

export function WaitlistPanel({ event }: { event: EventDetail }) {
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const p = event.Participant
  const place = p && !p.ticket_collected ? p.waitlist : null
  const waiting = event.state === 'TICKET_OPEN' && !!place && !place.offer_expires_at
  const heldUntil = event.state === 'TICKET_OPEN' && !place?.offer_expires_at ? event.held_until : null

  // Issue 22 item 11: on the waitlist, the page asks every 20 s, so an offer shows without a reload (notifications
  // on or not); a place held for someone else is asked about again when the hold ends (free, or offered on).
  useEffect(() => {
    const refresh = () => void eventDetail.refresh()
    const poll = waiting ? setInterval(refresh, WAITLIST_POLL_MS) : undefined
    const end = heldUntil ? setTimeout(refresh, Math.max(0, Date.parse(heldUntil) - Date.now()) + 1_500) : undefined
    return () => {
      clearInterval(poll)
      clearTimeout(end)
    }
  }, [waiting, heldUntil])

  const run = async (work: () => Promise<string>) => {
    setBusy(true)
    try {
      showToast(await work())
    } catch (err) {
      showToast((err as Error).message, 'error')
    } finally {
      setBusy(false)
      setConfirming(false)
    }
  }

  if (BEFORE_TICKETS.has(event.state) && event.is_ticket_feature_enabled && p) {
    return (
      <div class={s.waitlist}>
        <NotifyMe push={push} what="when tickets open" />
      </div>
    )
  }
  if (event.state !== 'TICKET_OPEN' || !event.is_ticket_feature_enabled || !p) return null

  if (p.ticket_collected) {
    if (p.checked_in_at) return null
    return (
      <div class={s.waitlist}>
        <button type="button" class="button button-secondary" disabled={busy} onClick={() => setConfirming(true)}>
          Give back ticket
        </button>
        {confirming && (
          <ConfirmModal title="Give back your ticket?" busy={busy} onCancel={() => setConfirming(false)} onConfirm={() => run(releaseTicket)}>
            <p>Your ticket code stops working at once and the place goes to the next student on the waitlist. You cannot undo this.</p>
            {p.payment?.status === 'PAID' && <p>Your ₹{p.payment.amount / 100} is refunded to you.</p>}
          </ConfirmModal>
        )}
      </div>
    )
  }

  if (place?.offer_expires_at) {
    return (
      <div class={s.waitlist}>
        <p role="status" class={s.held}>
          A ticket is held for you until {formatTime(place.offer_expires_at)}
        </p>
      </div>
    )
  }
  if (place) {
    return (
      <div class={s.waitlist}>
        <p role="status">You are number {place.position} on the waitlist.</p>
        <button type="button" class="button button-secondary" disabled={busy} onClick={() => run(() => joinWaitlist(false))}>
          Leave the waitlist
        </button>
      </div>
    )
  }
  // Just given to a friend on this phone (issue 37 item 7): not offered the waitlist for the place given away.
  if (givenAway.value?.id === event.id) {
    return (
      <div class={s.waitlist}>
        <p role="status">You gave your ticket to {givenAway.value.to}.</p>
      </div>
    )
  }
  // Sold out, or the places left held for the waitlist (the server takes joins then too).
  if (heldUntil || event.tickets_sold >= event.ticket_count) {
    return (
      <div class={s.waitlist}>
        {heldUntil && <p role="status">A ticket given back is held for the waitlist until {formatTime(heldUntil)}.</p>}
        <button type="button" class="button button-secondary" disabled={busy} onClick={() => run(() => joinWaitlist(true))}>
          Join the waitlist
        </button>
      </div>
    )
  }
  return null
}
