// The payment desk at the door (issue 35 item 4): draws the desk's model (src/stores/desk.ts). A chunk of its own,
// loaded when the volunteer opens the desk, so the door's chunk carries none of it.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { buildDesk, type Desk, type DeskMode, type DeskStudent } from '../../stores/desk.ts'
import s from './desk.module.css'

const rupees = (paise: number) => `₹${(paise / 100).toFixed(paise % 100 ? 2 : 0)}`
const MODE_WORDS: Record<DeskMode, string> = { CASH: 'in cash', UPI: 'by UPI' }

/** What the desk can do for a student, in words. */
function standing(st: DeskStudent): string {
  if (!st.registered) return 'Not registered for this event'
  if (st.payment?.status === 'PAID' || st.ticket_collected) return 'Paid'
  if (st.owes > 0) return `Owes ${rupees(st.owes)}${st.payment?.status === 'AWAITING_CONFIRMATION' ? ' (a UPI reference given, not confirmed)' : ''}`
  return 'Cannot be paid at the desk'
}

/** The desk; a test passes its own model (`desk`), the door none. */
export default function DeskPanel({ eventId, fee, onClose, desk: given }: { eventId: number; fee: number; onClose: () => void; desk?: Desk }) {
  const desk = useMemo(() => given ?? buildDesk(eventId), [eventId])
  const [query, setQuery] = useState('')
  const field = useRef<HTMLInputElement>(null)
  useEffect(() => {
    field.current?.focus()
    void desk.loadTotals()
  }, [])
  const asking = desk.asking.value
  const busy = desk.busy.value
  const totals = desk.totals.value
  return (
    <section class={s.desk} aria-labelledby="desk-title">
      <h2 id="desk-title">Payment desk ({rupees(fee)})</h2>
      <form
        class={s.find}
        onSubmit={(e) => {
          e.preventDefault()
          void desk.find(query)
        }}
      >
        <label class={s.find}>
          Ticket code, e-mail or student ID
          <input ref={field} value={query} autoComplete="off" maxLength={200} onInput={(e) => setQuery(e.currentTarget.value)} name="desk_query" />
        </label>
        <button type="submit" class={s.button} disabled={busy}>
          Find
        </button>
      </form>
      {desk.error.value && <p role="alert">{desk.error.value}</p>}
      <p role="status" class={s.done}>
        {desk.done.value}
      </p>
      {desk.students.value?.length === 0 && <p>No student found.</p>}
      {!!desk.students.value?.length && (
        <ul class={s.students}>
          {desk.students.value.map((st) => (
            <li key={st.user_id}>
              <p class={s.name}>{st.name}</p>
              <p class={s.small}>
                {st.email}
                {st.roll_number ? ` · ${st.roll_number}` : ''}
              </p>
              <p class={s.small}>{standing(st)}</p>
              {st.owes > 0 && (
                <div class={s.actions}>
                  {asking?.userId === st.user_id ? (
                    <>
                      <button type="button" class={s.button} disabled={busy} onClick={() => void desk.take(st, asking.mode)}>
                        {`Confirm ${rupees(st.owes)} received ${MODE_WORDS[asking.mode]}`}
                      </button>
                      <button type="button" class={s.plain} disabled={busy} onClick={desk.cancel}>
                        Cancel
                      </button>
                    </>
                  ) : (
                    (['CASH', 'UPI'] as const).map((mode) => (
                      <button key={mode} type="button" class={s.button} disabled={busy} onClick={() => desk.ask(st.user_id, mode)}>
                        {`${mode === 'CASH' ? 'Cash' : 'UPI'} ${rupees(st.owes)}`}
                      </button>
                    ))
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {totals && (
        <div>
          <p class={s.name}>
            Taken at the desk: {rupees(totals.total.CASH)} cash, {rupees(totals.total.UPI)} UPI ({totals.total.count})
          </p>
          {totals.volunteers.map((v) => (
            <p key={v.user_id ?? v.name} class={s.small}>
              {v.name}: {rupees(v.CASH)} cash, {rupees(v.UPI)} UPI
            </p>
          ))}
        </div>
      )}
      <div class={s.actions}>
        <button type="button" class={s.plain} onClick={onClose}>
          Close the desk
        </button>
      </div>
    </section>
  )
}
