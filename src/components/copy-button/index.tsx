// An icon button that copies a text (the invite code) and says so: 'Copied!' appears beside it in a live
// region for a few seconds, so a screen reader hears it too. Where the clipboard is refused (an http page,
// a denied permission) it says that instead; the text it copies is shown beside it, selectable.
import { useEffect, useRef, useState } from 'preact/hooks'
import styles from './style.module.css'

export const COPIED = 'Copied!'
export const COPY_FAILED = 'Could not copy. Select the code and copy it.'
const SHOWN_MS = 3000

export interface CopyButtonProps {
  text: string
  /** The button's accessible name, e.g. 'Copy invite code'. */
  label: string
}

export function CopyButton({ text, label }: CopyButtonProps) {
  const [status, setStatus] = useState<'' | typeof COPIED | typeof COPY_FAILED>('')
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(timer.current), [])

  const copy = async () => {
    let outcome: typeof COPIED | typeof COPY_FAILED = COPIED
    try {
      // navigator.clipboard is undefined outside secure contexts: that throws here and counts as a failure.
      await navigator.clipboard.writeText(text)
    } catch {
      outcome = COPY_FAILED
    }
    setStatus(outcome)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setStatus(''), SHOWN_MS)
  }

  return (
    <span class={styles.wrap}>
      <button type="button" class={styles.button} aria-label={label} title={label} onClick={copy}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
          <path d="M9 9h11v11H9zM5 15H4V4h11v1" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" />
        </svg>
      </button>
      <span class={status === COPY_FAILED ? styles.failed : styles.status} role="status">
        {status}
      </span>
    </span>
  )
}
