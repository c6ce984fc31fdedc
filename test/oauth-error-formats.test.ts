/**
 * The OAuth scenarios read the RFCs' own error formats correctly: each example printed in RFC 6749 §5 and RFC 6750
 * §3 (specs/vectors/oauth-errors.yaml) is accepted or rejected by the expectations of the scenario step it belongs to.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkResponse } from '../harness/src/runner/expect.js';
import { compileTemplate, renderTemplate } from '../harness/src/suite/template.js';
import { bundledSuite, REFERENCE_PROFILE, ROOT } from './helpers.js';
import { loadProfileSync } from '../harness/src/profile/load.js';

interface Example {
  name: string;
  scenario: string;
  step: number;
  response: { status: number; headers: Record<string, string>; body: string };
  verdict: 'accept' | 'reject';
}

describe('RFC 6749 / RFC 6750 error formats', async () => {
  const { examples } = parse(await readFile(path.join(ROOT, 'specs', 'vectors', 'oauth-errors.yaml'), 'utf8')) as {
    examples: Example[];
  };
  const suite = await bundledSuite();
  const profile = loadProfileSync(REFERENCE_PROFILE);
  for (const ex of examples) {
    it(`${ex.verdict}s ${ex.name}`, () => {
      const scenario = suite.scenarios.find((s) => s.id === ex.scenario);
      const step = scenario?.kind === 'steps' ? scenario.steps[ex.step - 1] : undefined;
      expect(step?.expect, `${ex.scenario} step ${ex.step}`).toBeDefined();
      const scope = { profile };
      const messages = checkResponse(
        {
          status: ex.response.status,
          headers: ex.response.headers,
          body: Buffer.from(ex.response.body),
          durationMs: 0,
        },
        step?.expect,
        {
          requestUrl: 'https://127.0.0.1/x',
          baseUrl: 'https://127.0.0.1',
          optionalFields: [],
          render: (t) => renderTemplate(compileTemplate(t), scope),
        },
      );
      if (ex.verdict === 'accept') expect(messages).toEqual([]);
      else expect(messages.length).toBeGreaterThan(0);
    });
  }
});
