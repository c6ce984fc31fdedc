import { describe, expect, it } from 'vitest';
import { articleXml, elementText, testServer, text } from '../testkit/index.js';
import { bearerRequest, issueToken, tokenRequest } from '../testkit/oauth.js';
import type { TestServer } from '../testkit/index.js';
import {
  VARIANT_NAMES,
  VariantError,
  applyProfilePatch,
  combinableVariants,
  parseVariantNames,
  variantProfile,
} from './variants.js';
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

  it("the combined profile has no OAuth section made only of a variant's patch: each is whole, or removed", () => {
    const base = { auth: { window: 600, oauth1: { tokenEndpoint: '/t1' }, oauth2: { tokenEndpoint: '/t2' } } };
    const auth = (
      variantProfile(base, combinableVariants()) as { auth: Record<string, { tokenEndpoint?: string } | undefined> }
    ).auth;
    for (const section of ['oauth1', 'oauth2']) {
      const value = auth[section];
      expect([section, value === undefined || value.tokenEndpoint !== undefined]).toEqual([section, true]);
    }
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
/** Variants whose behaviour is tested in a file of their own, beside the code they change. */
const TESTED_ELSEWHERE: Readonly<Record<string, string>> = {
  'refuse-403': 'auth-variants.test.ts',
  'refuse-400': 'auth-variants.test.ts',
  'errors-json': 'auth-variants.test.ts',
  'errors-text': 'auth-variants.test.ts',
  'errors-empty': 'auth-variants.test.ts',
  'digest-decoded': 'auth-variants.test.ts',
  'nonce-int64': 'auth-variants.test.ts',
  'date-formats-extra': 'auth-variants.test.ts',
  'oauth2-client-basic-only': 'auth-variants.test.ts',
  'path-without-query': 'auth-variants.test.ts',
  'basic-only': 'auth/scheme-variants.test.ts',
  'oauth-only': 'auth/scheme-variants.test.ts',
  'location-absolute': 'routes/location-variants.test.ts',
  'location-other-origin': 'routes/location-variants.test.ts',
  'oauth2-basic-undecoded': 'auth-variants.test.ts',
  'window-300': 'auth-variants.test.ts',
  'date-month-any-case': 'auth-variants.test.ts',
  'oauth1-approve-post': 'oauth1/variants.test.ts',
  'oauth1-any-approver': 'oauth1/variants.test.ts',
  'oauth1-header-only': 'oauth1/variants.test.ts',
  'oauth1-realm-configured': 'oauth1/variants.test.ts',
  'oauth1-methods-extra': 'oauth1/variants.test.ts',
  'oauth2-unauthorized-client': 'auth-variants.test.ts',
  'oauth2-code-pkce-only': 'oauth2/grants.test.ts',
  'oauth2-refresh-rotation': 'oauth2/grants.test.ts',
  'webdav-lock': 'routes/locks.test.ts',
};

const BEHAVIOUR: Partial<
  Record<
    Exclude<VariantName, 'replace-204'>,
    { observe: (s: TestServer) => unknown; byDefault: unknown; withVariant: unknown }
  >
> = {
  'price-two-decimals': {
    observe: (s) => [
      s.call('PUT', '/articles/a', articleXml({ price: '12.345' }), XML).status,
      s.call('PUT', '/articles/b', articleXml({ price: '100000.00' }), XML).status,
      s.call('PUT', '/articles/c', articleXml({ price: '99999.990' }), XML).status,
    ],
    byDefault: [201, 201, 201],
    withVariant: [422, 422, 201],
  },
  'oauth2-password-only': {
    observe: (s) => {
      const ask = (body: string) => {
        const res = tokenRequest(s, { body });
        return [res.status, (JSON.parse(text(res)) as { error?: string }).error ?? 'token'];
      };
      return [
        ask('grant_type=client_credentials'),
        ask('grant_type=password&username=bob&password=builder'),
        ask('grant_type=password&username=bob&password=builder2'),
        ask('grant_type=password&username=bob'),
      ];
    },
    byDefault: [
      [200, 'token'],
      [400, 'unsupported_grant_type'],
      [400, 'unsupported_grant_type'],
      [400, 'unsupported_grant_type'],
    ],
    withVariant: [
      [400, 'unsupported_grant_type'],
      [200, 'token'],
      [400, 'invalid_grant'],
      [400, 'invalid_request'],
    ],
  },
  'oauth2-client-no-user': {
    observe: (s) => {
      const token = issueToken(s);
      return ['/users/alice/financialrecords', '/', '/users/bob/financialrecords'].map(
        (target) => bearerRequest(s, token, { target }).status,
      );
    },
    byDefault: [200, 200, 403],
    withVariant: [403, 200, 403],
  },
  'get-content-refused': {
    observe: (s) => {
      s.call('PUT', '/articles/g', articleXml(), XML);
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      return [
        s.call('GET', '/articles/g').status,
        s.call('GET', '/articles/g', 'a=1', form).status,
        s.call('HEAD', '/articles/g', 'a=1', form).status,
        s.call('POST', '/articles', articleXml(), XML).status,
      ];
    },
    byDefault: [200, 200, 200, 201],
    withVariant: [200, 400, 400, 201],
  },
  'text-trimmed': {
    observe: (s) => {
      s.call('PUT', '/articles/t', articleXml({ title: ' \t a  b\n ' }), XML);
      return elementText(s.call('GET', '/articles/t'), 'title');
    },
    byDefault: ' \t a  b\n ',
    withVariant: 'a b',
  },
  'text-nfd': {
    observe: (s) => {
      s.call('PUT', '/articles/n', articleXml({ title: '\u00e9 x' }), XML);
      return elementText(s.call('GET', '/articles/n'), 'title');
    },
    byDefault: '\u00e9 x',
    withVariant: 'e\u0301 x',
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
    observe: (s) =>
      ['/', '/users/alice/financialrecords', '/articles'].map((p) => {
        const res = s.call('OPTIONS', p);
        return [res.status, res.headers.allow];
      }),
    byDefault: [
      [200, 'GET, HEAD, OPTIONS'],
      [200, 'GET, HEAD, OPTIONS'],
      [200, 'POST, OPTIONS'],
    ],
    withVariant: [
      [405, 'GET, HEAD'],
      [405, 'GET, HEAD'],
      [200, 'POST, OPTIONS'],
    ],
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
  'allow-same-for-all': {
    observe: (s) => String(s.send({ method: 'OPTIONS', target: '/articles/x' }).headers.allow).includes('PUT'),
    byDefault: false,
    withVariant: true,
  },
  'post-updates': {
    observe: (s) => {
      s.call('PUT', '/articles/a', articleXml(), XML);
      const res = s.call('POST', '/articles/a', articleXml({ title: 'Updated' }), XML);
      return [
        res.status,
        elementText(s.call('GET', '/articles/a'), 'title'),
        s.call('POST', '/articles/none', articleXml(), XML).status,
        s.call('OPTIONS', '/articles/a').headers.allow,
      ];
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
    observe: (s) =>
      /^\/articles\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(
        String(s.call('POST', '/articles', articleXml(), XML).headers.location),
      ),
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

  it('every variant has a behaviour test: here, or in the file named in TESTED_ELSEWHERE', () => {
    const untested = VARIANT_NAMES.filter((n) => n !== 'replace-204' && !(n in BEHAVIOUR) && !(n in TESTED_ELSEWHERE));
    expect(untested).toEqual([]);
  });

  it.each(Object.keys(BEHAVIOUR) as (keyof typeof BEHAVIOUR)[])('%s', (name) => {
    const c = BEHAVIOUR[name]!;
    expect(c.observe(server())).toEqual(c.byDefault);
    expect(c.observe(server([name]))).toEqual(c.withVariant);
  });
});

/** Existing variants re-checked against their descriptions, each beyond the one observation above. */
describe('variants behave as their descriptions say', () => {
  it('no-client-put: a PUT where no article exists answers 404 and stores nothing, through either path form and after a DELETE', () => {
    const s = server(['no-client-put']);
    for (const path of ['/articles/new', '/article/new']) {
      expect([path, s.call('PUT', path, articleXml(), XML).status]).toEqual([path, 404]);
      expect([path, s.call('GET', path).status]).toEqual([path, 404]);
    }
    const loc = String(s.call('POST', '/articles', articleXml(), XML).headers.location);
    expect(s.call('PUT', loc, articleXml({ title: 'New' }), XML).status).toBe(200);
    expect(s.call('DELETE', loc).status).toBe(204);
    expect(s.call('PUT', loc, articleXml(), XML).status).toBe(404);
    expect(s.call('GET', loc).status).toBe(404);
  });

  it('path-without-query: simple and date-and-nonce digests cover the path alone, so any query goes with them', () => {
    const s = testServer({ signAs: null, variants: ['path-without-query'] });
    const records = '/users/alice/financialrecords';
    const get = (target: string, signed: string, nonce?: string) =>
      s.send({
        method: 'GET',
        target,
        headers: { ...s.sign('GET', signed, { user: 'alice', ...(nonce === undefined ? {} : { nonce }) }) },
      }).status;
    expect(get(`${records}?a=1`, records)).toBe(200);
    expect(get(`${records}?a=1`, records, '1')).toBe(200);
    expect(get(`${records}?a=1`, `${records}?a=1`, '2')).toBe(401);
    expect(get(records, records, '3')).toBe(200);
  });

  it('options-partial: OPTIONS on / and the records path answers 405 with an Allow without OPTIONS, with or without credentials; the articles keep it', () => {
    const s = server(['options-partial']);
    for (const path of ['/', '/users/alice/financialrecords']) {
      for (const res of [s.call('OPTIONS', path), s.send({ method: 'OPTIONS', target: path })]) {
        expect([path, res.status, res.headers.allow]).toEqual([path, 405, 'GET, HEAD']);
      }
    }
    expect(s.call('OPTIONS', '/articles').status).toBe(200);
    s.call('PUT', '/articles/a', articleXml(), XML);
    expect(s.call('OPTIONS', '/articles/a').status).toBe(200);
    expect(s.call('GET', '/').status).toBe(200);
  });
});
