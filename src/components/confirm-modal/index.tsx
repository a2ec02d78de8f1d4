// A Cancel/Confirm dialog (SPEC §2 Team details) for actions that cannot be undone. A plain element with
// role=dialog rather than <dialog>: the behaviour below (focus in and back, Escape, Tab kept inside) is then
// the same in every browser and in happy-dom. The page behind stays mounted; the backdrop covers it.
import type { ComponentChildren } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import { Spinner } from '../spinner/index.tsx'
import styles from './style.module.css'

export interface ConfirmModalProps {
  /** The question, e.g. 'Delete this team?'; also the dialog's accessible name. */
  title: string
  children?: ComponentChildren
  /** The confirming action runs: Confirm shows a spinner and neither button can be pressed again. */
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}

let counter = 0

/** Render it only while it is open; it takes focus when it appears and gives it back when it goes. */
export function ConfirmModal({ title, children, busy = false, onConfirm, onCancel }: ConfirmModalProps) {
  const box = useRef<HTMLDivElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const ids = useRef(`confirm-${++counter}`)
  // Read in the listener, so it never calls a stale onCancel or cancels while busy.
  const latest = useRef({ busy, onCancel })
  latest.current = { busy, onCancel }

  // Layout effect: focus moves and Escape works from the first frame the dialog is on screen.
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    // Cancel first: the safe choice is the one a stray Enter presses.
    cancel.current?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        if (!latest.current.busy) latest.current.onCancel()
      } else if (event.key === 'Tab' && box.current) {
        // Keep Tab inside the dialog: wrap from the last control to the first and back.
        const focusable = [...box.current.querySelectorAll<HTMLElement>('button:not([disabled]), [href], input')]
        if (!focusable.length) return event.preventDefault()
        const first = focusable[0]
        const last = focusable[focusable.length - 1]
        const inside = box.current.contains(document.activeElement)
        if (event.shiftKey && (document.activeElement === first || !inside)) {
          event.preventDefault()
          last.focus()
        } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
          event.preventDefault()
          first.focus()
        }
      }
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      // Back to the control that opened the dialog, if it is still on the page (a removed row's button is not).
      if (opener?.isConnected) opener.focus()
    }
  }, [])

  const { current: id } = ids
  return (
    <div
      class={styles.backdrop}
      onClick={(event) => {
        if (event.target === event.currentTarget && !busy) onCancel()
      }}
    >
      <div
        ref={box}
        class={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={children ? `${id}-body` : undefined}
      >
        <h2 id={`${id}-title`} class={styles.title}>
          {title}
        </h2>
        {children && (
          <div id={`${id}-body`} class={styles.body}>
            {children}
          </div>
        )}
        <div class={styles.actions}>
          <button ref={cancel} type="button" class="button button-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" class="button" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined}>
            {busy && <Spinner size="sm" label="Working" />}
            Confirm
          </button>
        </div>
      </div>
    </div>
  )
}
