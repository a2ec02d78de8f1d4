// The door's frame (issue 37 item 5): the /door route has no layout (no header, no bottom navigation), so in an
// installed app, with no browser back button, a volunteer had no way out. This bar gives one: back to the app's
// Home (its event list) on every door screen; the door's own event list is its "Change event". The door itself
// loads behind it as before, in its own chunk (which has no room for the bar: 7.98 of 8 KB).
import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'

export default function DoorFrame() {
  const [Door, setDoor] = useState<ComponentType | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    import('./index.tsx').then(
      (m) => setDoor(() => m.default),
      () => setFailed(true),
    )
  }, [])
  return (
    <>
      {/* The app's own header and button styles (critical.css): a stylesheet of its own would be one more file name
          in the start chunk, whose budget has a few bytes of room. */}
      <nav class="app-header" aria-label="Door">
        <a href="/" class="button button-secondary">
          <span aria-hidden="true">‹</span> Back to the app
        </a>
        <span class="greeting-word">Door</span>
      </nav>
      {Door ? (
        <Door />
      ) : (
        <p class="page-message" role={failed ? 'alert' : 'status'}>
          {failed ? 'The door could not be loaded. Check your connection and try again.' : 'Loading the door…'}
        </p>
      )}
    </>
  )
}
