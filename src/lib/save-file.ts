// Saves a file the page holds in memory (a PDF or CSV fetched with the bearer, which a plain link could not send):
// an <a download> on an object URL, released a minute later (the browser has read it by then).
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
