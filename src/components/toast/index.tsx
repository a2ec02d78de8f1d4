// One toast at a time for 3 seconds (SPEC §9). `showToast` can be called from anywhere; <Toaster/> is rendered
// once by the app. The live regions stay in the page so screen readers announce what is put into them.
import { signal } from '@preact/signals'
import { TOAST_MS } from '../../../contract/shell.ts'

export type ToastKind = 'info' | 'error'
interface Toast {
  id: number
  message: string
  kind: ToastKind
}

const current = signal<Toast | null>(null)
let timer: ReturnType<typeof setTimeout> | undefined
let counter = 0

/** Shows `message` for TOAST_MS; a newer toast replaces an older one and restarts the clock. */
export function showToast(message: string, kind: ToastKind = 'info') {
  clearTimeout(timer)
  const toast = { id: ++counter, message, kind }
  current.value = toast
  timer = setTimeout(() => {
    if (current.value === toast) current.value = null
  }, TOAST_MS)
}

export function Toaster() {
  const toast = current.value
  // Errors interrupt (role=alert); confirmations wait their turn (role=status).
  return (
    <>
      <div class="toast-region" role="status">
        {toast?.kind === 'info' && (
          <p key={toast.id} class="toast">
            {toast.message}
          </p>
        )}
      </div>
      <div class="toast-region" role="alert">
        {toast?.kind === 'error' && (
          <p key={toast.id} class="toast toast-error">
            {toast.message}
          </p>
        )}
      </div>
    </>
  )
}
