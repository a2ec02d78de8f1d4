// The /verify page's HTML shell and escaping, shared by the certificates' and the transcripts' answers (server/routes/feeds.ts,
// verify-points.ts), in a module of its own so neither route file imports the other.
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The /verify page's document around its body, for every kind of code (certificates, transcript entries). */
export function verifyDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${title} · CSI Events</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`
}
