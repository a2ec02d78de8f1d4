// The app's modal dialogs: what every one of them does (a backdrop that closes it when tapped, focus moved in as it
// opens and given back as it closes, Escape to close, Tab kept inside), used by the registration questions and the
// rating too, and the Cancel/Confirm dialog (SPEC §2 Team details) for actions that cannot be undone. Plain elements
// with role=dialog rather than <dialog>: the behaviour is then the same in every browser and in happy-dom. One
// module, so that the dialogs share one chunk (a module of its own beside ConfirmModal cost team-details 0.28 KB).
import type { ComponentChildren, RefObject } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import { Spinner } from '../spinner/index.tsx'
import styles from './style.module.css'

export { styles as modalStyles }

const FOCUSABLE = 'button:not([disabled]), [href], input, select, textarea'

/**
 * While the dialog in `box` is on screen: its first control matching `first` (else its first control) takes focus,
 * Escape closes it unless `busy`,
 * Tab wraps from its last control to its first and back, and focus returns to the control that opened it.
 * A layout effect: focus moves and Escape works from the first frame the dialog is shown.
 */
export function useDialog(box: RefObject<HTMLElement>, first: string, busy: boolean, onClose: () => void) {
  // Read in the listener, so it never calls a stale onClose or closes while busy.
  const latest = useRef({ busy, onClose })
  latest.current = { busy, onClose }
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    ;(box.current?.querySelector<HTMLElement>(first) ?? box.current?.querySelector<HTMLElement>(FOCUSABLE))?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault()
        if (!latest.current.busy) latest.current.onClose()
      } else if (e.key === 'Tab' && box.current) {
        const all = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
        if (!all.length) return e.preventDefault()
        const [start, end] = [all[0], all[all.length - 1]]
        const inside = box.current.contains(document.activeElement)
        if (e.shiftKey ? document.activeElement === start || !inside : document.activeElement === end || !inside) {
          e.preventDefault()
          ;(e.shiftKey ? end : start).focus()
        }
      }
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      // Back to the opener, if it is still on the page (a removed row's button is not).
      if (opener?.isConnected) opener.focus()
    }
  }, [])
}

/** The backdrop over the page: a tap on it (not on the dialog) closes, unless busy. */
export function Backdrop({
  busy = false,
  onClose,
  class: className = styles.backdrop,
  children,
}: {
  busy?: boolean
  onClose: () => void
  class?: string
  children: ComponentChildren
}) {
  return (
    <div
      class={className}
      onClick={(e) => {
        if (e.target === e.currentTarget && !busy) onClose()
      }}
    >
      {children}
    </div>
  )
}

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
  const id = useRef(`confirm-${++counter}`).current
  // Cancel (the first button) takes focus: the safe choice is the one a stray Enter presses.
  useDialog(box, 'button', busy, onCancel)

  return (
    <Backdrop busy={busy} onClose={onCancel}>
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
          <button type="button" class="button button-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" class="button" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined}>
            {busy && <Spinner size="sm" label="Working" />}
            Confirm
          </button>
        </div>
      </div>
    </Backdrop>
  )
}
