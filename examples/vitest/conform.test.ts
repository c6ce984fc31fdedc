/**
 * Example (documentation; not part of conform's own test run): the conformance scenarios as tests of *your*
 * service, inside your own `vitest run`. Copy it next to your tests and adapt the three marked places.
 * See docs/vitest.md.
 */
import { defineConformSuite } from '@conform-harness/conform/vitest';

// (1) Your server, started in-process on a free port. Replace this declaration with your own import, e.g.
//     import { startMyServer } from '../src/server.js';
// Anything resolving to { url, httpsUrl?, certificate?, close() } works.
declare function startMyServer(options: { port: number }): Promise<{ url: string; close(): Promise<void> }>;

defineConformSuite({
  // (2) The suite calls this in beforeAll and close() in afterAll; every scenario runs against the returned url.
  target: () => startMyServer({ port: 0 }),
  // (3) What your server offers where the spec leaves room (start from conform's reference-server/profile.yaml).
  //     Relative paths are resolved against the working directory (normally your project root).
  profile: 'test/conform.profile.yaml',
  // Optional: a subset while you work on it (id, rule id or tag substrings, as `conform run --filter`).
  // filter: ['articles/', '4.3-'],
  // Optional: SHOULD/MAY failures fail the test too (default: they pass with a warning).
  // strict: true,
});
