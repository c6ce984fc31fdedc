import { describe, expect, it } from 'vitest';
import { checkScenarioTemplates } from '../suite/check-templates.js';
import type { ScenarioData } from '../suite/schema.js';
import type { BuiltRequest } from './instances.js';
import { replayedAs } from './step-plan.js';

const earlier: BuiltRequest = {
  request: {
    method: 'GET',
    url: 'https://t.test/users/alice/financialrecords',
    headers: { authorization: 'OAuth oauth_signature="abc"', host: 't.test' },
  },
  base: 'https://t.test/',
  credential: { scheme: 'oauth1' } as BuiltRequest['credential'],
};

describe('replayAs: an earlier request, its headers unchanged, under another method or query', () => {
  it('changes the method only', () => {
    const again = replayedAs(earlier, { method: 'HEAD' }, {});
    expect(again.request.method).toBe('HEAD');
    expect(again.request.url).toBe(earlier.request.url);
    expect(again.request.headers).toBe(earlier.request.headers);
    expect(again.credential).toBe(earlier.credential);
  });

  it('appends a templated query after ?, or after & when the URL has one', () => {
    expect(replayedAs(earlier, { query: 'conform={{ n }}' }, { n: 7 }).request.url).toBe(
      'https://t.test/users/alice/financialrecords?conform=7',
    );
    const withQuery = { ...earlier, request: { ...earlier.request, url: `${earlier.request.url}?a=1` } };
    const again = replayedAs(withQuery, { query: 'b=2' }, {});
    expect(again.request.url).toBe('https://t.test/users/alice/financialrecords?a=1&b=2');
    expect(again.request.method).toBe('GET');
  });

  it('is refused by the suite check without replayOf', () => {
    const scenario = {
      id: 'x/y',
      title: 't',
      rules: ['r'],
      steps: [{ request: { method: 'GET', path: '/' }, replayAs: { method: 'HEAD' } }],
    } as unknown as ScenarioData;
    expect(checkScenarioTemplates(scenario).map((i) => i.message)).toContain('replayAs goes with replayOf');
  });
});
