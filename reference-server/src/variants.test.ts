import { describe, expect, it } from 'vitest';
import { articleXml, elementText, testServer } from './testkit.js';
import type { TestServer } from './testkit.js';
import { VARIANT_NAMES, VariantError, applyProfilePatch, combinableVariants, parseVariantNames } from './variants.js';
import type { VariantName } from './variants.js';

describe('profile patches', () => {
  it('merges objects, replaces arrays and scalars, removes with null, and changes neither input', () => {
    const base = { a: { b: 1, c: [1, 2], d: 'x' }, e: true };
    const out = applyProfilePatch(base, { a: { c: [3], d: null, f: { g: 2 } }, e: false });
    expect(out).toEqual({ a: { b: 1, c: [3], f: { g: 2 } }, e: false });
    expect(base).toEqual({ a: { b: 1, c: [1, 2], d: 'x' }, e: true });
  });
});

describe('variant names', () => {
  it('accepts known names, trims, drops blanks and duplicates', () => {
    const first = VARIANT_NAMES[0]!;
    expect(parseVariantNames([` ${first} `, '', first])).toEqual([first]);
  });

  it('refuses an unknown name with a typed error that lists the valid ones', () => {
    expect(() => parseVariantNames(['no-such-variant'])).toThrow(VariantError);
    expect(() => parseVariantNames(['no-such-variant'])).toThrow(/valid variants: /);
  });

  it('combines every variant that excludes none taken before it', () => {
    expect(combinableVariants().length).toBeGreaterThan(0);
    expect(() => parseVariantNames(combinableVariants())).not.toThrow();
  });
});

/** The server every behaviour test runs on: Basic over TLS as alice, so no nonce or Date concerns. */
function server(variants: VariantName[] = []): TestServer {
  return testServer({ variants, signWith: 'basic-tls' });
}

const XML = { 'content-type': 'application/xml' };

/**
 * Each variant changes what the server does (and a variant whose profile the default server also satisfies is no
 * stub): one observation, its value on the default server and with only that variant on.
 */
/** Variants whose behaviour is observed elsewhere: authentication (auth-variants.test.ts), scheme sets and Location. */
type ObservedElsewhere =
  | 'replace-204' | 'refuse-403' | 'refuse-400' | 'errors-json' | 'errors-text' | 'errors-empty' | 'digest-decoded'
  | 'nonce-int64' | 'date-lenient' | 'oauth2-client-basic-only' | 'basic-only' | 'oauth-only' | 'location-absolute'
  | 'location-other-origin';

const BEHAVIOUR: Record<Exclude<VariantName, ObservedElsewhere>, { observe: (s: TestServer) => unknown; byDefault: unknown; withVariant: unknown }> = {
  'price-two-decimals': {
    observe: (s) => [
      s.call('PUT', '/articles/a', articleXml({ price: '12.345' }), XML).status,
      s.call('PUT', '/articles/b', articleXml({ price: '100000.00' }), XML).status,
      s.call('PUT', '/articles/c', articleXml({ price: '99999.990' }), XML).status,
    ],
    byDefault: [201, 201, 201],
    withVariant: [422, 422, 201],
  },
  'title-bounded': {
    observe: (s) => [
      s.call('PUT', '/articles/a', articleXml({ title: '😀'.repeat(65) }), XML).status,
      s.call('PUT', '/articles/b', articleXml({ title: '😀'.repeat(64) }), XML).status,
    ],
    byDefault: [201, 201],
    withVariant: [422, 201],
  },
  'options-partial': {
    observe: (s) => ['/', '/users/alice/financialrecords', '/articles'].map((p) => {
      const res = s.call('OPTIONS', p);
      return [res.status, res.headers.allow];
    }),
    byDefault: [[200, 'GET, HEAD, OPTIONS'], [200, 'GET, HEAD, OPTIONS'], [200, 'POST, OPTIONS']],
    withVariant: [[405, 'GET, HEAD'], [405, 'GET, HEAD'], [200, 'POST, OPTIONS']],
  },
  'media-type-text-xml': {
    observe: (s) => [
      s.call('PUT', '/articles/a', articleXml(), XML).status,
      s.call('PUT', '/articles/b', articleXml(), { 'content-type': 'text/xml; charset=utf-8' }).status,
      s.call('GET', '/articles/b').headers['content-type'],
    ],
    byDefault: [201, 201, 'application/xml; charset=utf-8'],
    withVariant: [415, 201, 'text/xml; charset=utf-8'],
  },
  'no-alias': {
    observe: (s) => s.call('PUT', '/article/a', articleXml(), XML).status,
    byDefault: 201,
    withVariant: 404,
  },
  'not-deletable': {
    observe: (s) => {
      s.call('PUT', '/articles/a', articleXml(), XML);
      const res = s.call('DELETE', '/articles/a');
      return [res.status, res.headers.allow, s.call('GET', '/articles/a').status];
    },
    byDefault: [204, undefined, 404],
    withVariant: [405, 'GET, HEAD, PUT, OPTIONS', 200],
  },
  'post-updates': {
    observe: (s) => {
      s.call('PUT', '/articles/a', articleXml(), XML);
      const res = s.call('POST', '/articles/a', articleXml({ title: 'Updated' }), XML);
      return [res.status, elementText(s.call('GET', '/articles/a'), 'title'), s.call('POST', '/articles/none', articleXml(), XML).status, s.call('OPTIONS', '/articles/a').headers.allow];
    },
    byDefault: [405, 'Hello', 405, 'GET, HEAD, PUT, DELETE, OPTIONS'],
    withVariant: [200, 'Updated', 404, 'GET, HEAD, POST, PUT, DELETE, OPTIONS'],
  },
  'no-client-put': {
    observe: (s) => {
      const created = s.call('PUT', '/articles/a', articleXml(), XML).status;
      const loc = String(s.call('POST', '/articles', articleXml(), XML).headers.location);
      return [created, s.call('PUT', loc, articleXml({ title: 'New' }), XML).status];
    },
    byDefault: [201, 200],
    withVariant: [404, 200],
  },
  'ids-uuid': {
    observe: (s) => /^\/articles\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(String(s.call('POST', '/articles', articleXml(), XML).headers.location)),
    byDefault: false,
    withVariant: true,
  },
};

describe('each variant changes the behaviour it names', () => {
  it('replace-204: a replace answers 204 with no body instead of 200 with the representation', () => {
    const observe = (s: TestServer) => {
      s.call('PUT', '/articles/a', articleXml(), XML);
      const res = s.call('PUT', '/articles/a', articleXml({ title: 'New' }), XML);
      return [res.status, res.body === undefined];
    };
    expect(observe(server())).toEqual([200, false]);
    expect(observe(server(['replace-204']))).toEqual([204, true]);
  });

  it.each(Object.keys(BEHAVIOUR) as (keyof typeof BEHAVIOUR)[])('%s', (name) => {
    const c = BEHAVIOUR[name];
    expect(c.observe(server())).toEqual(c.byDefault);
    expect(c.observe(server([name]))).toEqual(c.withVariant);
  });
});
