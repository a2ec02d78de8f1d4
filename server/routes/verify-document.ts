// The /verify page's HTML shell and escaping, shared by the certificates' and the transcripts' answers (server/routes/feeds.ts,
// verify-points.ts), in a module of its own so neither route file imports the other.
//
// One public page at the short address /verify/<code> (issue 37 item 1), rendered here on the server: it costs the
// app's bundle nothing, needs no sign-in and no script, and reads the same on a phone and a desk. It is styled
// like the product (the app's colour tokens, light and dark, src/styles/critical.css), by one inline <style>
// allowed by its own hash in the page's own Content-Security-Policy (the security headers keep a route's own).
import { createHash } from 'node:crypto'

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The outcome the page shows, which picks its mark and colour. */
export type VerifyTone = 'genuine' | 'withdrawn' | 'unknown'

const STYLE = `:root{color-scheme:light dark;--brand:#c8102e;--primary:#c8102e;--on-primary:#fff;--bg:#f6f6f8;--surface:#fff;--text:#1b1b1f;--muted:#5b5f66;--border:#d9dbe0;--focus:#1a5fd0;--ok:#1e6e2d;--bad:#b3261e;--font:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
@media (prefers-color-scheme:dark){:root{--primary:#ff7a85;--on-primary:#1f0a0d;--bg:#121216;--surface:#1d1d23;--text:#ececf1;--muted:#a6aab3;--border:#3a3a44;--focus:#8ab4ff;--ok:#7fd88f;--bad:#ffb4ab}}
*,::before,::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 var(--font);background:var(--bg);color:var(--text);overflow-wrap:anywhere}
a{color:var(--primary)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.bar{display:flex;align-items:center;gap:12px;padding:12px 16px;background:var(--brand);color:#fff}
.bar a{display:inline-flex;align-items:center;gap:10px;min-height:44px;color:#fff;font-weight:700;font-size:1.125rem;text-decoration:none}
.bar svg{width:32px;height:32px;flex:none}
main{max-width:40rem;margin:0 auto;padding:16px}
.card{background:var(--surface);border:1px solid var(--border);border-radius:12px;padding:16px 16px 8px}
.mark{display:inline-flex;align-items:center;gap:6px;margin:0;padding:2px 12px;border-radius:999px;font-size:.875rem;font-weight:700;border:2px solid currentColor}
.genuine .mark{color:var(--ok)}.withdrawn .mark,.unknown .mark{color:var(--bad)}
h1{font-size:1.5rem;line-height:1.25;margin:12px 0}
dl{margin:16px 0 0;padding:0}
dl div{padding:8px 0;border-top:1px solid var(--border)}
dt{color:var(--muted);font-size:.875rem}
dd{margin:0;font-weight:600}
@media (min-width:600px){dl div{display:grid;grid-template-columns:11rem 1fr;gap:16px}}
.open{display:inline-flex;align-items:center;justify-content:center;min-height:44px;margin-top:16px;padding:0 20px;border-radius:999px;background:var(--primary);color:var(--on-primary);font-weight:600;text-decoration:none}
.fine{color:var(--muted);font-size:.875rem}`

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`

/** The page's own policy: its one style block, the same origin's pictures, nothing else (no script at all). */
export const VERIFY_PAGE_POLICY = [
  "default-src 'none'",
  `style-src ${STYLE_HASH}`,
  "img-src 'self' data:",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ')

const LOGO = `<svg viewBox="0 0 64 64" aria-hidden="true"><rect width="64" height="64" rx="14" fill="#fff"/><path d="M17 21h30v26H17zM17 29h30M24 15v9M40 15v9" fill="none" stroke="#c8102e" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/><path d="m32 32.5 2.3 4.6 5 .7-3.6 3.5.9 5-4.6-2.4-4.6 2.4.9-5-3.6-3.5 5-.7z" fill="#c8102e"/></svg>`

const MARKS: Record<VerifyTone, string> = { genuine: '✓ Genuine', withdrawn: '✕ Withdrawn', unknown: '? Not found' }

/** The rows of the page's list: a label and its value, already escaped HTML. */
export const rows = (pairs: readonly (readonly [string, string])[]) =>
  `<dl>${pairs.map(([label, value]) => `<div><dt>${label}</dt><dd>${value}</dd></div>`).join('')}</dl>`

/** The /verify page's document around its body, for every kind of code (certificates, transcript entries). */
export function verifyDocument(title: string, body: string, { tone, home }: { tone: VerifyTone; home: string }): string {
  const app = escapeHtml(`${home}/`)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${title} · CSI Events</title>
<style>${STYLE}</style>
</head>
<body>
<header class="bar"><a href="${app}">${LOGO}<span>CSI Events</span></a></header>
<main>
<section class="card ${tone}">
<p class="mark">${MARKS[tone]}</p>
${body}
</section>
<a class="open" href="${app}">Open CSI Events</a>
<p class="fine">Anyone may check a code here: no sign-in is needed. The same address answers JSON to <code>Accept: application/json</code>.</p>
</main>
</body>
</html>
`
}
