import type { Page } from '@playwright/test'

/**
 * Switches the page to `scheme` and waits until its styles follow: the media query matches and no CSS transition is
 * running (the app's one, the splash's fade, would be read mid-way as low contrast). What axe needs before it reads
 * colours; it replaced a fixed 200-300 ms wait (issue 38 item 8).
 */
export async function showIn(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme })
  // getAnimations() brings the styles up to date first, so a transition the switch starts is among them.
  await page.waitForFunction(
    (s) => matchMedia(`(prefers-color-scheme: ${s})`).matches && document.getAnimations().every((a) => !(a instanceof CSSTransition)),
    scheme,
  )
}
