// A throttled phone network through the Chrome DevTools Protocol (Playwright has no built-in throttling).
import type { Page } from '@playwright/test'

export const PROFILES = {
  // Latency is the round trip in ms; throughput in bytes per second.
  '4G': { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8, cpu: 4 },
  '3G': { latency: 562.5, downloadThroughput: (1.44 * 1024 * 1024) / 8, uploadThroughput: (675 * 1024) / 8, cpu: 4 },
} as const

export async function throttle(page: Page, profile: keyof typeof PROFILES = '4G', { cpu = true } = {}) {
  const p = PROFILES[profile]
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: p.latency,
    downloadThroughput: p.downloadThroughput,
    uploadThroughput: p.uploadThroughput,
  })
  if (cpu) await cdp.send('Emulation.setCPUThrottlingRate', { rate: p.cpu })
  return cdp
}
