// Team details (SPEC §2, §4, §6): the team's name, its invite code with a copy button, the members with
// '(Leader)' on the leader, remove buttons on the rows the viewer may remove, and Delete Team for the leader.
// Removing and deleting ask first (Cancel/Confirm). The team is the one the event details carry for the
// student (Participant.team), so what is shown is what the server holds after each change.
import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import type { TeamMember } from '../../../contract/types.ts'
import { ConfirmModal } from '../../components/modal/index.tsx'
import { CopyButton } from '../../components/copy-button/index.tsx'
import { PageSpinner } from '../../components/spinner/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { buildEventDetail, type EventDetailStore } from '../../stores/event-detail.ts'
import { room, session } from '../../models.ts'
import { buildTeam, type TeamStore } from '../../stores/team.ts'
import { EventNotFound, TEAM_CHANGES_CLOSED, teamChangesOpen, useTeamEvent } from '../team-event.tsx'
import styles from './style.module.css'

export interface TeamDetailsProps {
  /** The event id from the address (/team-details/:id). */
  id: string
  /** The stores; tests hand in models built over fake api functions. */
  detail?: EventDetailStore
  teams?: TeamStore
}

type Asking = { kind: 'delete' } | { kind: 'remove'; member: TeamMember['user'] }

export default function TeamDetails({ id, detail = room(buildEventDetail), teams = room(buildTeam) }: TeamDetailsProps) {
  const { route } = useLocation()
  const { loaded, event, redirect } = useTeamEvent(id, detail, 'team-details')
  const [asking, setAsking] = useState<Asking | null>(null)
  const membersHeading = useRef<HTMLHeadingElement>(null)
  // Where focus goes once the dialog has closed, when the control that opened it is gone (a removed row).
  const focusAfter = useRef<HTMLElement | null>(null)

  useEffect(() => {
    if (!asking && focusAfter.current) {
      focusAfter.current.focus()
      focusAfter.current = null
    }
  }, [asking])

  const team = event && event.Participant ? event.Participant.team : null

  if (!loaded || redirect || (detail.loading.value && !team)) return <PageSpinner />
  if (detail.notFound.value) return <EventNotFound />
  if (!event || !team) {
    return (
      <div class="page-message" role="alert">
        <h1>Could not load your team</h1>
        <p>{detail.error.value}</p>
        <button type="button" class="button" onClick={() => detail.refresh()}>
          Try again
        </button>
      </div>
    )
  }

  // Ids compared as numbers (API.md): a string id from anywhere must not make the leader removable.
  const me = Number(session.user.value?.id)
  const leaderId = Number(team.leader_id)
  const isLeader = leaderId === me
  // Once registration has closed the team is shown as it stands: every change would only be refused.
  const open = teamChangesOpen(event)
  // SPEC §6: the leader removes anyone else, a member only themself, and nobody removes the leader.
  const mayRemove = (userId: number) => open && Number(userId) !== leaderId && (isLeader || Number(userId) === me)
  const pending = teams.pending.value

  const confirm = async () => {
    if (!asking) return
    try {
      if (asking.kind === 'delete') {
        await teams.delete(event.id, team.id)
        setAsking(null)
        route(`/team-register/${id}`, true)
        return
      }
      await teams.remove(team.id, asking.member.id)
      // The removed row and its button are gone; a student who removed themself is redirected instead.
      focusAfter.current = membersHeading.current
      showToast(Number(asking.member.id) === me ? `You left ${team.name}.` : `${asking.member.name} was removed from the team.`)
    } catch (err) {
      // SPEC §8 names no handling for these; the server's reason is still worth a toast.
      console.error('team change failed', err)
      showToast((err as Error).message, 'error')
    }
    setAsking(null)
  }

  const members = team.Participant
  const removing = asking?.kind === 'remove' ? asking.member : null
  const removingSelf = removing && Number(removing.id) === me

  return (
    <>
      <p class={styles.event}>
        <a href={`/event-details/${id}`}>{event.name}</a>
      </p>
      <h1 class={styles.title}>{team.name}</h1>

      {open ? (
        <section class={styles.card} aria-labelledby="invite-title">
          <h2 id="invite-title" class={styles.label}>
            Invite code
          </h2>
          <div class={styles.invite}>
            <code class={styles.code}>{team.invite_code}</code>
            <CopyButton text={team.invite_code} label="Copy invite code" />
          </div>
          <p class={styles.hint}>Share this code with your teammates so they can join.</p>
        </section>
      ) : (
        <p class={styles.closed}>{TEAM_CHANGES_CLOSED}</p>
      )}

      <section class={styles.card} aria-labelledby="members-title">
        <h2 id="members-title" class={styles.label} ref={membersHeading} tabIndex={-1}>
          Members ({members.length} of {event.ma_ppt})
        </h2>
        {members.length < event.min_ppt && (
          <p class={styles.hint} role="status">
            Incomplete: a team needs at least {event.min_ppt} members before it can collect tickets ({event.min_ppt - members.length} more to go).
          </p>
        )}
        <ul class={styles.members}>
          {members.map(({ user }) => (
            <li key={user.id} class={styles.member}>
              {user.photo_url ? (
                // Decorative beside the name (an alt repeating it would be read twice).
                <img class={`avatar ${styles.photo}`} src={user.photo_url} alt="" width={40} height={40} loading="lazy" referrerpolicy="no-referrer" />
              ) : (
                <span class={`avatar avatar-initial ${styles.photo}`} aria-hidden="true">
                  {user.name.trim().charAt(0).toUpperCase() || '?'}
                </span>
              )}
              <span class={styles.name}>
                {user.name}
                {Number(user.id) === leaderId && <span class={styles.leader}> (Leader)</span>}
              </span>
              {mayRemove(user.id) && (
                <button
                  type="button"
                  class={styles.remove}
                  aria-label={`Remove ${user.name}`}
                  title={`Remove ${user.name}`}
                  disabled={!!pending}
                  onClick={() => setAsking({ kind: 'remove', member: user })}
                >
                  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
                    <path
                      d="M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 11h6"
                      fill="none"
                      stroke="currentColor"
                      stroke-width="2"
                      stroke-linecap="round"
                    />
                  </svg>
                </button>
              )}
            </li>
          ))}
        </ul>
      </section>

      {isLeader && open && (
        <button type="button" class={`button button-secondary ${styles.delete}`} disabled={!!pending} onClick={() => setAsking({ kind: 'delete' })}>
          Delete Team
        </button>
      )}

      {asking && (
        <ConfirmModal
          title={asking.kind === 'delete' ? `Delete ${team.name}?` : removingSelf ? `Leave ${team.name}?` : `Remove ${removing!.name}?`}
          busy={!!pending}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        >
          <p>
            {asking.kind === 'delete'
              ? `Every member, you included, will no longer be registered for ${event.name}. This cannot be undone.`
              : removingSelf
                ? `You will no longer be registered for ${event.name}.`
                : `${removing!.name} will no longer be registered for ${event.name}.`}
          </p>
        </ConfirmModal>
      )}
    </>
  )
}
