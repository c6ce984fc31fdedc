import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['harness/src/**/*.test.ts', 'reference-server/src/**/*.test.ts', 'cli/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
  },
});
