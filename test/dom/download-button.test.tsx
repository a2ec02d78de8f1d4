// The download buttons (certificate, transcript; components/download-button): busy while the file is fetched,
// then saved under its name by an <a download> on an object URL (lib/save-file.ts); a refusal in an error toast.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CertificateButton, DownloadButton } from '../../src/components/download-button/index.tsx'
import { Toaster } from '../../src/components/toast/index.tsx'
import { cleanup, click, getByText, mount, waitFor } from './session-fakes.ts'

afterEach(() => {
  vi.restoreAllMocks()
  cleanup()
})

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

describe('download buttons', () => {
  it('waits while the file is prepared, then saves it under its name', async () => {
    const file = deferred<Blob>()
    const saved: { href: string; name: string }[] = []
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:certificate', revokeObjectURL: () => {} }))
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute('href')!, name: this.download })
    })
    const root = mount(<CertificateButton download={() => file.promise} filename="certificate-7.pdf" />)
    await click(getByText(root, 'Download certificate', 'button'))
    const busy = getByText(root, 'Preparing certificate…', 'button')
    expect(busy.hasAttribute('disabled')).toBe(true)
    expect(busy.getAttribute('aria-busy')).toBe('true')
    file.resolve(new Blob(['%PDF'], { type: 'application/pdf' }))
    await waitFor(() => getByText(root, 'Download certificate', 'button'))
    expect(saved).toEqual([{ href: 'blob:certificate', name: 'certificate-7.pdf' }])
    expect(root.querySelector('a')).toBeNull() // the link is taken out again
  })

  it('a refusal is shown in an error toast with the server’s message, and the button is back', async () => {
    const root = mount(
      <>
        <DownloadButton
          download={() => Promise.reject(new Error('Your record is being recomputed. Try again in a minute.'))}
          filename="activity-points.pdf"
          label="Download transcript (PDF)"
          busyLabel="Preparing transcript…"
          failed="Could not download the transcript. Please try again."
        />
        <Toaster />
      </>,
    )
    await click(getByText(root, 'Download transcript (PDF)', 'button'))
    await waitFor(() => expect(root.querySelector('[role="alert"]')!.textContent).toBe('Your record is being recomputed. Try again in a minute.'))
    expect(getByText(root, 'Download transcript (PDF)', 'button').hasAttribute('disabled')).toBe(false)
  })
})
