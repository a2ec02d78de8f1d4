// A whole screen that could not be shown, in one shape (the app's error boundary, an account that could not load):
// what happened, and the one button that tries again. In the start chunk: one copy for both.
export function Problem({ title, text, label = 'Try again', onRetry }: { title: string; text: string | null; label?: string; onRetry: () => void }) {
  return (
    <main class="page-message" role="alert">
      <h1>{title}</h1>
      <p>{text}</p>
      <button type="button" class="button" onClick={onRetry}>
        {label}
      </button>
    </main>
  )
}
