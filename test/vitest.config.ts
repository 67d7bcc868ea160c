// Test projects: everything runs in parallel as usual, then the hostile-input pass runs alone, so its
// liveness bounds (/health ≤ 1 s, budget + 1 s) measure ringql, not the other test files sharing the cores.

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'suite', root: '.', include: ['test/**/*.test.ts'], exclude: ['test/hostile/**', '**/node_modules/**'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'hostile', root: '.', include: ['test/hostile/**/*.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
