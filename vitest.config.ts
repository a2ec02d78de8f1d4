import { defineConfig } from 'vitest/config'
import preact from '@preact/preset-vite'
import { classicJsx } from './scripts/vite/classic-jsx.ts'

export default defineConfig({
  test: {
    // Two cores: each server file opens its own database, and PGlite start-up is CPU-bound.
    maxWorkers: 2,
    projects: [
      // test/vite/: the build's plugins (scripts/vite/).
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/vite/**/*.test.ts'], environment: 'node' } },
      {
        plugins: [preact(), classicJsx()],
        // A screen's waits (waitFor, 5 s each) are bounded by the test's 20 s: a busy machine makes them slower, not wrong.
        test: { name: 'dom', include: ['test/dom/**/*.test.{ts,tsx}'], environment: 'happy-dom', testTimeout: 20_000 },
      },
      {
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          // The server's files share each worker's module graph (issue 23 item 6): each file builds its own app on its
          // own database, and no server module keeps per-file state (the image encoder's child and the fonts are
          // process-wide by design; the three fake clocks are restored after each use). Importing the server once per
          // worker instead of once per file: the project 277 s -> 203 s wall, 406 s -> 280 s user CPU (load 4-5).
          isolate: false,
          globalSetup: ['test/server/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
