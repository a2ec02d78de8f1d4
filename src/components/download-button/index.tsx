// A button that fetches a file through the callback it is given (with the bearer token, which a plain link could
// not send) and saves it. Busy while it runs; a refusal is shown in a toast. The certificate and the activity
// points transcript are two of them.
import { useState } from 'preact/hooks'
import { saveFile } from '../../lib/save-file.ts'
import { showToast } from '../toast/index.tsx'

export interface DownloadButtonProps {
  /** Resolves with the file; rejects with a message the student can read. */
  download: () => Promise<Blob>
  filename: string
  class?: string
}

interface Words {
  label: string
  /** Shown while the file is prepared. */
  busyLabel: string
  /** The toast when the failure had no message of its own. */
  failed: string
}

export function DownloadButton({ download, filename, class: className = 'button', label, busyLabel, failed }: DownloadButtonProps & Words) {
  const [busy, setBusy] = useState(false)
  const save = async () => {
    if (busy) return
    setBusy(true)
    try {
      saveFile(await download(), filename)
    } catch (err) {
      showToast(err instanceof Error ? err.message : failed, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" class={className} onClick={save} disabled={busy} aria-busy={busy}>
      {busy ? busyLabel : label}
    </button>
  )
}

/** "Download certificate" (issue 13): an attended, completed event's certificate PDF. */
export const CertificateButton = (props: DownloadButtonProps) => (
  <DownloadButton {...props} label="Download certificate" busyLabel="Preparing certificate…" failed="Could not download the certificate. Please try again." />
)

/** "Receipt" (issue 35): a paid place's receipt PDF. */
export const ReceiptButton = (props: DownloadButtonProps) => (
  <DownloadButton {...props} label="Receipt" busyLabel="Preparing receipt…" failed="Could not download the receipt. Please try again." />
)
