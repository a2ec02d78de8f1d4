import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './test/e2e/support/chromium.ts'

export default defineConfig({
  testDir: 'test/e2e',
  timeout: 90_000,
  // Three workers on two cores (issue 23 item 6): the walks mostly wait on throttled networks, throttled renderers and
  // scheduled times, not on the CPU (one worker kept under one core busy). Each spec starts its own server on a free
  // port with its own data folder, so files never share state.
  workers: 3,
  reporter: [['list']],
  use: {
    ...devices['Pixel 7'],
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
    trace: 'off',
  },
})
