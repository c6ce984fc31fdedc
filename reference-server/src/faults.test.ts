import { describe, expect, it } from 'vitest';
import { FAULT_NAMES, FAULTS, UnknownFaultError, parseFaultNames } from './faults.js';
import type { FaultName } from './faults.js';
import { articleXml, elementText, testServer } from './testkit.js';
import type { TestServer } from './testkit.js';

/** One observation per fault: what it returns on a correct server, and with only that fault switched on. */
interface FaultCase {
  observe: (server: TestServer) => unknown;
  correct: unknown;
  faulty: unknown;
}

const ITEM_ALLOW = 'GET, HEAD, PUT, DELETE, OPTIONS';

function created(s: TestServer, path = '/articles/x', xml = articleXml()): TestServer {
  s.call('PUT', path, xml);
  return s;
}

const CASES: Record<FaultName, FaultCase> = {
  'post-200': { observe: (s) => s.call('POST', '/articles', articleXml()).status, correct: 201, faulty: 200 },
  'post-no-location': { observe: (s) => s.call('POST', '/articles', articleXml()).headers.location !== undefined, correct: true, faulty: false },
  'post-location-nowhere': {
    observe: (s) => {
      const id = String(s.call('POST', '/articles', articleXml()).headers.location).split('/').pop();
      return s.call('GET', `/articles/${id}`).status;
    },
    correct: 200,
    faulty: 404,
  },
  'post-location-shape': {
    observe: (s) => String(s.call('POST', '/articles', articleXml()).headers.location).replace(/[^/]+$/, ''),
    correct: '/articles/',
    faulty: '/items/',
  },
  'post-same-id': {
    observe: (s) => {
      s.call('POST', '/articles', articleXml({ title: 'one' }));
      s.call('POST', '/articles', articleXml({ title: 'two' }));
      return s.state.store.size;
    },
    correct: 2,
    faulty: 1,
  },
  'put-create-200': { observe: (s) => s.call('PUT', '/articles/x', articleXml()).status, correct: 201, faulty: 200 },
  'put-create-no-location': { observe: (s) => s.call('PUT', '/articles/x', articleXml()).headers.location, correct: '/articles/x', faulty: undefined },
  'put-merge': {
    observe: (s) => elementText(created(s, '/articles/x', articleXml({ summary: 'old' })).call('PUT', '/articles/x', articleXml()), 'summary'),
    correct: undefined,
    faulty: 'old',
  },
  'put-not-idempotent': {
    observe: (s) => elementText(created(created(s)).call('GET', '/articles/x'), 'title'),
    correct: 'Hello',
    faulty: 'Hello (2)',
  },
  'put-generated-405': {
    observe: (s) => {
      s.call('POST', '/articles', articleXml());
      return s.call('PUT', '/articles/id-1', articleXml({ title: 'New' })).status;
    },
    correct: 200,
    faulty: 405,
  },
  'title-unescaped': {
    observe: (s) => elementText(created(s, '/articles/x', articleXml({ title: 'a &lt; b &amp; c' })).call('GET', '/articles/x'), 'title'),
    correct: 'a &lt; b &amp; c',
    faulty: 'a < b & c',
  },
  'price-float': { observe: (s) => elementText(created(s).call('GET', '/articles/x'), 'price'), correct: '12.50', faulty: '12.5' },
  'currency-uppercase': {
    observe: (s) => /currency="([^"]*)"/.exec(String(created(s).call('GET', '/articles/x').body))?.[1],
    correct: 'eur',
    faulty: 'EUR',
  },
  'options-extra-method': {
    observe: (s) => s.call('OPTIONS', '/articles/x').headers.allow,
    correct: ITEM_ALLOW,
    faulty: 'GET, HEAD, PUT, DELETE, PATCH, OPTIONS',
  },
  'options-no-allow': { observe: (s) => s.call('OPTIONS', '/articles').headers.allow !== undefined, correct: true, faulty: false },
  'options-204': { observe: (s) => s.call('OPTIONS', '/articles/x').status, correct: 200, faulty: 204 },
  'method-405-no-allow': { observe: (s) => s.call('POST', '/articles/x', articleXml()).headers.allow, correct: ITEM_ALLOW, faulty: undefined },
  'unlisted-method-200': { observe: (s) => s.call('PATCH', '/articles/x', articleXml()).status, correct: 405, faulty: 200 },
  'expand-entities': {
    observe: (s) => {
      const res = s.call('PUT', '/articles/x', `<!DOCTYPE article [<!ENTITY x "boom">]>${articleXml({ title: '&x;' })}`);
      return [res.status, elementText(res, 'title')];
    },
    correct: [400, undefined],
    faulty: [201, 'boom'],
  },
  'alias-separate': { observe: (s) => created(s, '/article/x').call('GET', '/articles/x').status, correct: 200, faulty: 404 },
  'delete-noop': {
    observe: (s) => [created(s).call('DELETE', '/articles/x').status, s.call('GET', '/articles/x').status],
    correct: [204, 404],
    faulty: [204, 200],
  },
};

/** Pairs of faults whose observations legitimately overlap (both touch the same header or status). */
const OVERLAPS: readonly (readonly [FaultName, FaultName])[] = [
  ['post-no-location', 'post-location-nowhere'],
  ['post-no-location', 'post-location-shape'],
  ['options-extra-method', 'options-no-allow'],
  ['options-extra-method', 'method-405-no-allow'],
  ['method-405-no-allow', 'unlisted-method-200'],
  ['post-same-id', 'put-generated-405'],
];

function overlaps(a: FaultName, b: FaultName): boolean {
  return OVERLAPS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}

describe('fault modes', () => {
  it.each(FAULT_NAMES)('%s switches on exactly the named defect', (name) => {
    const c = CASES[name];
    expect(c.observe(testServer())).toEqual(c.correct);
    expect(c.observe(testServer({ faults: [name] }))).toEqual(c.faulty);
  });

  it.each(FAULT_NAMES)('%s leaves the other observations correct', (name) => {
    for (const other of FAULT_NAMES) {
      if (other === name || overlaps(name, other)) continue;
      expect([other, CASES[other].observe(testServer({ faults: [name] }))]).toEqual([other, CASES[other].correct]);
    }
  });

  it('options-extra-method: the listed PATCH still answers 405, on items and the collection', () => {
    const s = testServer({ faults: ['options-extra-method'] });
    const item = s.call('PATCH', '/articles/x');
    expect([item.status, item.headers.allow]).toEqual([405, 'GET, HEAD, PUT, DELETE, PATCH, OPTIONS']);
    expect(s.call('OPTIONS', '/articles').headers.allow).toBe('POST, PATCH, OPTIONS');
    expect(s.call('PATCH', '/articles').status).toBe(405);
    expect(s.call('OPTIONS', '/').headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('put-generated-405: only server-generated ids refuse PUT, with an Allow that omits PUT', () => {
    const s = testServer({ faults: ['put-generated-405'] });
    s.call('POST', '/articles', articleXml());
    expect(s.call('PUT', '/article/id-1', articleXml()).headers.allow).toBe('GET, HEAD, DELETE, OPTIONS');
    expect(s.call('PUT', '/articles/chosen', articleXml()).status).toBe(201);
    expect(s.call('PUT', '/articles/chosen', articleXml()).status).toBe(200);
  });

  it('post-location-shape: the article is still stored under /articles/<id>', () => {
    const s = testServer({ faults: ['post-location-shape'] });
    expect(s.call('POST', '/articles', articleXml()).headers.location).toBe('/items/id-1');
    expect(s.call('GET', '/articles/id-1').status).toBe(200);
  });

  it('price-float loses the fractional part of a whole price', () => {
    const s = created(testServer({ faults: ['price-float'] }), '/articles/x', articleXml({ price: '10.00' }));
    expect(elementText(s.call('GET', '/articles/x'), 'price')).toBe('10');
  });

  it('every fault has a description', () => {
    for (const name of FAULT_NAMES) expect(FAULTS[name].length).toBeGreaterThan(10);
  });
});

describe('parseFaultNames', () => {
  it('accepts known names, trimming, skipping empties and duplicates', () => {
    expect(parseFaultNames([' post-200', 'options-204', '', 'post-200'])).toEqual(['post-200', 'options-204']);
  });

  it('throws a typed error naming the unknown fault and the valid ones', () => {
    let error: unknown;
    try {
      parseFaultNames(['post-200', 'nope']);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UnknownFaultError);
    expect(error).toMatchObject({ code: 'REF_UNKNOWN_FAULT', fault: 'nope' });
    expect((error as Error).message).toMatch(/^unknown fault "nope"; valid faults: post-200, .*delete-noop$/);
  });
});
