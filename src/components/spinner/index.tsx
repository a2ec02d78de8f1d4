// A spinner that says what it waits for to screen readers; its look lives in the critical CSS.

export function Spinner({ label = 'Loading', size = 'md' }: { label?: string; size?: 'sm' | 'md' }) {
  return (
    <span class={`spinner spinner-${size}`} role="status">
      <span class="visually-hidden">{label}</span>
    </span>
  )
}

/** A spinner centred in the page area, for screens waiting on their data. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div class="page-spinner">
      <Spinner label={label} />
    </div>
  )
}
