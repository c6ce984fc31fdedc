import { defineConfig } from 'vitest/config';

/**
 * The vitest config of part 2 of `npm run mutation` (stryker.unit.config.json): the reference server's own unit
 * tests judge its hardening, option parsing and store internals. Left out: the fault tests (`faults.test.ts`,
 * `faults/kit.test.ts`), which judge the named defects, not the correct server, and take most of the time.
 */
export default defineConfig({
  test: {
    include: ['reference-server/src/**/*.test.ts'],
    exclude: ['reference-server/src/faults.test.ts', 'reference-server/src/faults/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
