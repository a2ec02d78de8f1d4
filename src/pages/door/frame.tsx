// The door's frame (issue 37 item 5): the /door route has no layout (no header, no bottom navigation), so in an
// installed app, with no browser back button, a volunteer had no way out. This bar gives one: back to the app's
// Home (its event list) on every door screen; the door's own event list is its "Change event". The door itself
// loads behind it as before, in its own chunk (which has no room for the bar: 7.98 of 8 KB).
import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import s from './frame.module.css'

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
      <nav class={s.bar} aria-label="Door">
        <a href="/" class={s.back}>
          <span aria-hidden="true">‹</span> Back to the app
        </a>
        <span class={s.name}>Door</span>
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
