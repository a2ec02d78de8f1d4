// Debian's Chromium, launched by path (no browser download works here), with the flags every run uses: the e2e
// tests (playwright.config.ts) and the benchmarks that open the app (bench/support/phone.ts). No background
// traffic (updates, sync, QUIC) to blur the figures or the network assertions.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
