/**
 * Issue 24, class 6: a false failure must not hide a real one. When a step fails, the steps after it are still
 * judged, so a second, independent defect of the same scenario is reported too; a step that needs what the failed
 * step would have captured is left out, and a later failure charged only to rules already failed is the same cause.
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { loadRulesSync, loadSuiteSync } from '../harness/src/suite/load.js';
import { it } from './fixtures.js';
import { ROOT, runAgainst } from './helpers.js';

const SCENARIO = `
version: 1
scenarios:
  - id: test/two-defects
    title: Two independent checks, both broken
    rules: [4.3-options-200-allow, 4.3-allow-format]
    steps:
      - name: first
        rules: [4.3-options-200-allow]
        request: { method: GET, path: /one, auth: none }
        expect: { status: 200 }
        capture: { got: { header: x-got } }
      - name: the same rule again
        rules: [4.3-options-200-allow]
        request: { method: GET, path: /one-again, auth: none }
        expect: { status: 200 }
      - name: needs what the first step captures
        request: { method: GET, path: "/echo/{{ got }}", auth: none }
        expect: { status: 200 }
      - name: second, independent
        rules: [4.3-allow-format]
        request: { method: GET, path: /two, auth: none }
        expect: { status: 200 }
`;

it('reports both defects, leaves out the dependent step, and does not count one cause twice', async ({ tempDir }) => {
  const file = path.join(tempDir, 'two.yaml');
  await writeFile(file, SCENARIO);
  const suite = loadSuiteSync([file], loadRulesSync(path.join(ROOT, 'specs', 'rules.yaml')));
  const server = createServer((req, res) => {
    res.statusCode = req.url === '/two' ? 418 : req.url?.startsWith('/echo/') ? 200 : 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const run = await runAgainst(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      suite,
      seed: 1,
      runs: 1,
    });
    const r = run.scenarios[0]!;
    expect(r.status).toBe('failed');
    expect(r.failure?.step).toBe(1);
    expect(r.failure?.messages).toEqual([
      'GET /one: expected status 200, got 404',
      'GET /two: expected status 200, got 418',
    ]);
    expect(r.failure?.rules?.sort()).toEqual(['4.3-allow-format', '4.3-options-200-allow']);
    expect(r.transcript.map((x) => new URL(x.request.url).pathname)).toEqual(['/one', '/one-again', '/two']);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
