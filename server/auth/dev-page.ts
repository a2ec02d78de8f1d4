// The development sign-in page (GET /auth/google without Google settings, outside production): server-rendered
// HTML in the app's look, light and dark as the phone's theme says, under a strict policy of its own: no script
// at all, and its one <style> allowed by its hash, nothing else.
import { createHash } from 'node:crypto'

export const DEV_PAGE_TITLE = 'Development sign-in — not Google'
export const NAME_MAX = 80
export const EMAIL_MAX = 254

export interface DevForm {
  error?: string
  name?: string
  email?: string
  /** The app's one-time sign-in value, posted back with the form and handed back beside the tokens. */
  state?: string
}

// The app's colours, spacing and controls (src/styles/critical.css); the server does not import the SPA's files.
const STYLE = `
:root { color-scheme: light dark; --brand: #c8102e; --primary: #c8102e; --on-primary: #fff; --bg: #f6f6f8; --surface: #fff;
  --text: #1b1b1f; --muted: #5b5f66; --border: #d9dbe0; --focus: #1a5fd0; --error: #b3261e; --on-error: #fff; }
@media (prefers-color-scheme: dark) {
  :root { --primary: #ff7a85; --on-primary: #1f0a0d; --bg: #121216; --surface: #1d1d23; --text: #ececf1; --muted: #a6aab3;
    --border: #3a3a44; --focus: #8ab4ff; --error: #ffb4ab; --on-error: #370b07; }
}
*, ::before, ::after { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; background: var(--bg); color: var(--text); }
main { display: flex; flex-direction: column; align-items: center; min-height: 100vh; max-width: 26rem; margin: 0 auto; padding: 24px 16px; }
svg { width: 72px; height: 72px; margin-top: 16px; }
h1 { margin: 16px 0 4px; font-size: 1.5rem; line-height: 1.25; text-align: center; }
main > p { margin: 0 0 16px; color: var(--muted); text-align: center; }
#dev-error { margin: 0 0 16px; padding: 12px 16px; border-radius: 12px; background: var(--error); color: var(--on-error); }
form { width: 100%; padding: 16px; border-radius: 12px; background: var(--surface); }
form p { display: flex; flex-direction: column; gap: 4px; margin: 0 0 16px; }
label { font-weight: 600; }
input { min-height: 48px; padding: 0 12px; border: 1px solid var(--muted); border-radius: 8px; background: var(--surface); color: inherit; font: inherit; }
button { width: 100%; min-height: 48px; border: 2px solid var(--primary); border-radius: 12px; background: var(--primary);
  color: var(--on-primary); font: inherit; font-weight: 600; cursor: pointer; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
`

/** The policy's source for the page's one <style> element. */
export const DEV_PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`

/** No script, no other style, no pictures beyond the inline SVG; the form posts here and then lands on the app. */
export const devPagePolicy = (appOrigin: string) =>
  `default-src 'none'; style-src ${DEV_PAGE_STYLE_HASH}; form-action 'self' ${appOrigin}; base-uri 'none'; frame-ancestors 'none'`

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The page, its form posting to `action`, showing a refused attempt's message and values again. */
export function devPage(action: string, form: DevForm): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<title>${DEV_PAGE_TITLE}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<svg viewBox="0 0 64 64" aria-hidden="true">
<rect width="64" height="64" rx="14" fill="#c8102e"/>
<path d="M17 21h30v26H17zM17 29h30M24 15v9M40 15v9" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
<h1>${DEV_PAGE_TITLE}</h1>
<p>This server has no Google settings (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET), so for development you may sign in
as anyone. This form never exists in production.</p>
${form.error ? `<p role="alert" id="dev-error"><strong>${escapeHtml(form.error)}</strong></p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<p><label for="dev-name">Name</label>
<input id="dev-name" name="name" type="text" required maxlength="${NAME_MAX}" autocomplete="name" value="${escapeHtml(form.name ?? '')}"${form.error ? ' aria-describedby="dev-error"' : ''}></p>
<p><label for="dev-email">E-mail</label>
<input id="dev-email" name="email" type="email" required maxlength="${EMAIL_MAX}" autocomplete="email" value="${escapeHtml(form.email ?? '')}"></p>
${form.state ? `<input type="hidden" name="state" value="${escapeHtml(form.state)}">\n` : ''}<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`
}
