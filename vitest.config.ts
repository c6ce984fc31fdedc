import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` — the tests beside the sources, in-process and quick (`npm run test:unit`, the inner loop);
 * `e2e` — test/, which starts servers, runs the whole suite against faults and variants, drives real processes and a
 * browser. `npm test` runs both.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['harness/src/**/*.test.ts', 'reference-server/src/**/*.test.ts', 'cli/src/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          // A whole-suite run takes 20–40 s alone; on a shared 2-core CI machine beside the other workers, three
          // times that. The bound stays (nothing hangs forever), wide enough that load alone never fails a test.
          testTimeout: 180_000,
          hookTimeout: 60_000,
          // Some e2e tests run `conform` as a real process from dist/: rebuilt here when a source is newer.
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
