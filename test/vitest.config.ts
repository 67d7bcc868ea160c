// Test projects: everything runs in parallel as usual, then the hostile-input pass runs alone, so its
// liveness bounds (/health ≤ 1 s, budget + 1 s) measure ringql, not the other test files sharing the cores.

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // vitest's own default is one worker fewer than the cores: on CI's 2 cores, one file at a time (597 s here).
    // Two workers took the suite to 297-349 s, green in both runs; the hostile pass still runs alone.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'suite', root: '.', include: ['test/**/*.test.ts'], exclude: ['test/hostile/**', '**/node_modules/**'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'hostile', root: '.', include: ['test/hostile/**/*.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
