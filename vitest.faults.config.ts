// `npm run test:faults` (issue 27): the faults suite, apart from `npm run test:unit` (vitest.config.ts) because it
// starts its own PostgreSQL cluster, Redis, nginx and server processes and faults them. One case at a time: each
// uses the whole machine's two cores, and a case's timing (the recovery it measures) must not depend on another's.
// Each case is bounded (testTimeout); test/faults/support.ts names what is missing when a binary is absent.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'faults',
    include: ['test/faults/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
})
