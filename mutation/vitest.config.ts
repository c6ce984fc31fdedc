import { defineConfig } from 'vitest/config';

/**
 * The vitest config of `npm run mutation` (stryker.config.json): one file, the whole bundled suite against the
 * in-process reference server. No global setup: nothing here needs `dist/`.
 */
export default defineConfig({
  test: {
    include: ['mutation/conformance.mutation.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
