// Login (SPEC §1/§2): logo, name, 'By CSI-KJSCE' and 'Continue with Google'. The sign-in callback comes back
// here with the tokens in the fragment (or, as SPEC §2 words it, the query): they are taken out of the address at
// once, and stored only when they answer a sign-in this browser started (stores/session-flows.ts; login CSRF),
// after the student confirmed when this phone holds another session; then the student goes to /. `#error=`
// shows why a sign-in failed.
import { useLayoutEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { beginSignIn, buildCompleteSignIn, type SignInCompletion } from '../../stores/session-flows.ts'
import { room } from '../../models.ts'
import { Spinner } from '../../components/spinner/index.tsx'
import styles from './style.module.css'

const completeSignIn = room(buildCompleteSignIn)

// The message comes from the address, which anyone can craft into a link: show it as plain, short text.
const MAX_ERROR = 160

export default function Login() {
  const { route } = useLocation()
  const [error, setError] = useState('')
  const [leaving, setLeaving] = useState(false)
  const [redirecting, setRedirecting] = useState(true)
  const [confirm, setConfirm] = useState<Extract<SignInCompletion, { kind: 'confirm' }> | null>(null)

  useLayoutEffect(() => {
    const done = completeSignIn(location.hash, location.search)
    // Tokens or an error in the address are taken out of it at once, whatever became of them.
    if (location.hash || location.search) history.replaceState(null, '', '/login')
    if (done.kind === 'signed-in' || done.kind === 'signed-in-already') {
      route('/', true)
      return
    }
    if (done.kind === 'error') setError(done.message.slice(0, MAX_ERROR))
    if (done.kind === 'confirm') setConfirm(done)
    setRedirecting(false)
  }, [])

  if (redirecting) return null

  if (confirm) {
    const answer = (accept: boolean) => () => {
      if (accept) confirm.accept()
      else confirm.decline()
      route('/', true)
    }
    return (
      <main class={styles.login}>
        <section class={styles.confirm} aria-labelledby="switch-title" aria-describedby="switch-text">
          <h1 id="switch-title" class={styles.switchTitle}>
            Switch account?
          </h1>
          <p id="switch-text">This phone is already signed in. Switch to the account you just signed in with, or stay signed in as you are.</p>
          <button type="button" class="button" onClick={answer(true)}>
            Switch account
          </button>
          <button type="button" class={`button ${styles.stay}`} onClick={answer(false)}>
            Stay signed in
          </button>
        </section>
      </main>
    )
  }

  return (
    <main class={styles.login}>
      <img class={styles.logo} src="/logo.svg" alt="" width={96} height={96} />
      <h1 class={styles.name}>CSI Events</h1>
      <p class={styles.by}>By CSI-KJSCE</p>
      {error && (
        <p class={styles.error} role="alert">
          Sign-in failed: {error}
        </p>
      )}
      <button
        type="button"
        class={`button ${styles.google}`}
        disabled={leaving}
        onClick={() => {
          // The whole window goes to the server, which sends it on to Google and back to /login.
          setLeaving(true)
          location.assign(beginSignIn())
        }}
      >
        {leaving ? <Spinner size="sm" label="Opening Google sign-in" /> : <GoogleMark />}
        Continue with Google
      </button>
    </main>
  )
}

const GoogleMark = () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" class={styles.mark}>
    <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.5 5.5 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7z" />
    <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z" />
    <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8z" />
    <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.8 3.6-4.9 6.7-4.9z" />
  </svg>
)
