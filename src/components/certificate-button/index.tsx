// "Download certificate": fetches the PDF through the callback it is given (with the bearer token, which a plain
// link could not send) and saves it as a file. Busy while it runs; a refusal is shown in a toast.
import { useState } from 'preact/hooks'
import { showToast } from '../toast/index.tsx'

export interface CertificateButtonProps {
  /** Resolves with the PDF; rejects with a message the student can read. */
  download: () => Promise<Blob>
  filename: string
  class?: string
}

export function CertificateButton({ download, filename, class: className = 'button' }: CertificateButtonProps) {
  const [busy, setBusy] = useState(false)
  const save = async () => {
    if (busy) return
    setBusy(true)
    try {
      const blob = await download()
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = filename
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 60_000)
    } catch (err) {
      showToast(err instanceof Error ? err.message : 'Could not download the certificate. Please try again.', 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" class={className} onClick={save} disabled={busy} aria-busy={busy}>
      {busy ? 'Preparing certificate…' : 'Download certificate'}
    </button>
  )
}
