// The visible offline notice: shown while the screens show last known data (src/stores/connection.ts). Its
// styles are in src/styles/critical.css: a CSS module here would add a render-blocking stylesheet to the start.
import { offline } from '../../stores/connection.ts'

export function OfflineNotice() {
  // role=status: a screen reader announces it when it appears, without taking the focus.
  return (
    <div role="status" class="offline-notice-slot">
      {offline.value && <p class="offline-notice">You are offline. Showing what was last loaded.</p>}
    </div>
  )
}
