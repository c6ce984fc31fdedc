import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatSignedDate } from './auth/date.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { test } from '../../test/temp-dir.js';
import {
  FAULT_NAMES,
  FAULT_VARIANTS,
  FAULTS,
  SCENARIO_FAULT_NAMES,
  UnknownFaultError,
  parseFaultNames,
} from './faults.js';
import { parseVariantNames, type VariantName } from './variants.js';
import type { FaultName, ScenarioFaultName } from './faults.js';
import { DEFAULT_OAUTH2_CLIENTS } from './oauth/accounts.js';
import {
  CONSUMER,
  FORM,
  authorizeCode,
  bearerRequest,
  exchangeCode,
  clientBasic,
  formOf,
  issueToken,
  oauth1Raw,
  oauth1Request,
  oauth1Tokens,
  revoke,
  tokenRequest,
} from '../testkit/oauth.js';
import { articleXml, elementText, testServer, text } from '../testkit/index.js';
import type { TestServer } from '../testkit/index.js';

/**
 * One observation per fault: what it returns on a correct server, and with only that fault switched on. `hmac`
 * marks observations that need a correct hmac digest to be accepted (which `digest-base64url` refuses), `oauth1`
 * those that need a correct OAuth 1 flow (which `oauth1-base-uri-no-port` refuses).
 */
interface FaultCase {
  /**
   * What the server does. `expecting` says which answer the test expects, for an observation that waits for
   * something that may or may not happen (a contact): it waits long only when the contact is expected, so a slow
   * machine cannot turn a contact into "none", and a correct server costs no wait.
   */
  observe: (server: TestServer, expecting: 'correct' | 'faulty') => unknown;
  correct: unknown;
  faulty: unknown;
  hmac?: boolean;
  /**
   * Needs a correct OAuth 1 flow to a non-default port without a realm (which `oauth1-base-uri-no-port` and
   * `oauth1-realm-required` refuse).
   */
  oauth1?: boolean;
}

/**
 * The server every observation runs on: `call` authenticates with Basic as bob over TLS, so the article
 * observations do not depend on the hmac, nonce and Date faults; the auth observations send their own headers.
 */
function server(faults: FaultName[] = [], variants: VariantName[] = []): TestServer {
  return testServer({
    faults,
    variants: [...variants, ...faults.flatMap((f) => FAULT_VARIANTS[f] ?? [])],
    signAs: 'bob',
    signWith: 'basic-tls',
    oauth2Clients: [...DEFAULT_OAUTH2_CLIENTS, SPECIAL_CLIENT],
  });
}

/** An OAuth 2 client whose id and secret need form-urlencoding inside Basic (RFC 6749 §2.3.1). */
const SPECIAL_CLIENT = { id: 'ops team', secret: 'p@ss wörd+1', user: 'bob' };

const RECORDS = '/users/alice/financialrecords';
const DAY = 86_400;

/** GET of alice's records with the date-and-nonce form, the Date `skew` seconds from the clock. */
function nonceGet(
  s: TestServer,
  nonce: string,
  options: { skew?: number; user?: string; date?: string | Date } = {},
): number {
  const user = options.user ?? 'alice';
  const path = `/users/${user}/financialrecords`;
  const date = options.date ?? new Date(s.clock.now().getTime() + (options.skew ?? 0) * 1000);
  return s.send({ method: 'GET', target: path, headers: { ...s.sign('GET', path, { user, nonce, date }) } }).status;
}

/** GET of alice's records with the simple form signed as `signed` describes (default: correctly). */
function simpleGet(
  s: TestServer,
  signed: { method?: string; path?: string; digest?: (d: string) => string } = {},
): number {
  const { authentication } = s.sign(signed.method ?? 'GET', signed.path ?? RECORDS, { user: 'alice' });
  const [head = '', digest = ''] = authentication.split(/:(?=[^:]*$)/);
  const header = `${head}:${signed.digest ? signed.digest(digest) : digest}`;
  return s.send({ method: 'GET', target: RECORDS, headers: { authentication: header } }).status;
}

/** HEAD of alice's records, signed (simple form) as `signedAs`. */
function signedHead(s: TestServer, signedAs: string): number {
  const { authentication } = s.sign(signedAs, RECORDS, { user: 'alice' });
  return s.send({ method: 'HEAD', target: RECORDS, headers: { authentication } }).status;
}

/** GET of alice's records with Basic, over TLS unless `plain`. */
function basicGet(s: TestServer, user: string, password?: string, plain = false): number {
  return s.send({
    method: 'GET',
    target: `/users/${user}/financialrecords`,
    headers: s.basic(user, password),
    secure: !plain,
  }).status;
}

/** PUT of an article (74 bytes) signed by alice with the simple form; true when refused with 401. */
function signedPut(s: TestServer, bodyHash: boolean): boolean {
  const body = articleXml();
  const headers = { ...s.sign('PUT', '/articles/x', { user: 'alice', body, bodyHash }) };
  return s.send({ method: 'PUT', target: '/articles/x', body, headers }).status === 401;
}

function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

const XML_BODY = { 'content-type': 'application/xml' };

/**
 * A loopback listener `xxe-resolved` contacts: `waitForContact(ms)` is true when it was contacted within `ms`. The
 * correct server never contacts it, so a short wait gives its answer; the faulty one contacts it at once, and a wait
 * of seconds when a contact is expected keeps a loaded machine from making that look like none.
 */
let contacts = 0;
let onContact: (() => void) | undefined;
const LISTENER_SERVER = createServer((req, res) => {
  contacts++;
  onContact?.();
  req.resume();
  res.end('x');
});
await new Promise<void>((resolve) => LISTENER_SERVER.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => LISTENER_SERVER.close(() => resolve())));
const LISTENER = { url: `http://127.0.0.1:${(LISTENER_SERVER.address() as AddressInfo).port}/entity` };
function waitForContact(boundMs: number): Promise<boolean> {
  const before = contacts;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(contacts > before), boundMs);
    onContact = () => {
      clearTimeout(timer);
      resolve(true);
    };
  });
}

/** The URL of a file inside the system's temporary folder that `xxe-file-read` reads into an article. */
let entityFile = '';
test.beforeAll(({ fileTempDir }) => {
  const file = path.join(fileTempDir, 'entity.txt');
  writeFileSync(file, 'leaked');
  entityFile = pathToFileURL(file).href;
});

/** A temporary-credential request of the default consumer (`oauth_callback=oob`). */
function temporaryRequest(s: TestServer, o: { secure?: boolean; nonce?: string; timestamp?: number } = {}) {
  return oauth1Request(s, { method: 'POST', target: '/oauth1/request_token', extra: [['oauth_callback', 'oob']], ...o })
    .res;
}

/** Temporary credentials approved by alice, and their verifier. */
function approved(s: TestServer): { token: { key: string; secret: string }; verifier: string } {
  const temporary = formOf(temporaryRequest(s));
  const approval = formOf(
    s.send({
      method: 'GET',
      target: `/oauth1/authorize?oauth_token=${temporary.oauth_token}`,
      headers: s.basic('alice'),
      secure: true,
    }),
  );
  return {
    token: { key: temporary.oauth_token ?? '', secret: temporary.oauth_token_secret ?? '' },
    verifier: approval.oauth_verifier ?? '',
  };
}

/**
 * alice denies temporary credentials with a signed POST of the approval form (`oauth1-approve-post`, confirm=no); then
 * they are exchanged with the verifier the denial's redirect carried, or an empty one. The denial's status, whether it
 * carried a verifier, and the exchange's status.
 */
function deniedThenExchanged(s: TestServer): [number, boolean, number] {
  const temporary = formOf(temporaryRequest(s));
  const body = `oauth_token=${encodeURIComponent(temporary.oauth_token ?? '')}&confirm=no`;
  const denial = s.send({
    method: 'POST',
    target: '/oauth1/authorize',
    body,
    headers: { 'content-type': FORM, ...s.sign('POST', '/oauth1/authorize', { user: 'alice', body }) },
    secure: true,
  });
  const verifier = new URL(String(denial.headers.location)).searchParams.get('oauth_verifier');
  const token = { key: temporary.oauth_token ?? '', secret: temporary.oauth_token_secret ?? '' };
  const exchanged = oauth1Request(s, {
    method: 'POST',
    target: '/oauth1/access_token',
    token,
    extra: [['oauth_verifier', verifier ?? '']],
  }).res;
  return [denial.status, verifier !== null, exchanged.status];
}

const ITEM_ALLOW = 'GET, HEAD, PUT, DELETE, OPTIONS';

function created(s: TestServer, path = '/articles/x', xml = articleXml()): TestServer {
  s.call('PUT', path, xml);
  return s;
}

const CASES: Record<ScenarioFaultName, FaultCase> = {
  'post-200': { observe: (s) => s.call('POST', '/articles', articleXml()).status, correct: 201, faulty: 200 },
  'post-no-location': {
    observe: (s) => s.call('POST', '/articles', articleXml()).headers.location !== undefined,
    correct: true,
    faulty: false,
  },
  'post-location-nowhere': {
    observe: (s) => {
      const id = String(s.call('POST', '/articles', articleXml()).headers.location)
        .split('/')
        .pop();
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
  'put-create-no-location': {
    observe: (s) => s.call('PUT', '/articles/x', articleXml()).headers.location,
    correct: '/articles/x',
    faulty: undefined,
  },
  'put-merge': {
    observe: (s) =>
      elementText(
        created(s, '/articles/x', articleXml({ summary: 'old' })).call('PUT', '/articles/x', articleXml()),
        'summary',
      ),
    correct: undefined,
    faulty: 'old',
  },
  'put-incomplete-merged': {
    // A replace without <price>, then a create without it.
    observe: (s) => {
      const incomplete = '<article><title>New</title></article>';
      const put = created(s, '/articles/x', articleXml({ title: 'Old', price: '3.25' })).call(
        'PUT',
        '/articles/x',
        incomplete,
      ).status;
      const stored = s.call('GET', '/articles/x');
      return [
        put,
        elementText(stored, 'title'),
        elementText(stored, 'price'),
        s.call('PUT', '/articles/y', incomplete).status,
      ];
    },
    correct: [400, 'Old', '3.25', 400],
    faulty: [200, 'New', '3.25', 400],
  },
  'put-not-idempotent': {
    observe: (s) => elementText(created(created(s)).call('GET', '/articles/x'), 'title'),
    correct: 'Hello',
    faulty: 'Hello (2)',
  },
  'put-revision': {
    observe: (s) => {
      const first = elementText(s.call('PUT', '/articles/x', articleXml()), 'revision');
      return [
        first,
        elementText(created(s).call('GET', '/articles/x'), 'revision'),
        elementText(s.call('POST', '/articles', articleXml()), 'revision'),
      ];
    },
    correct: [undefined, undefined, undefined],
    faulty: ['1', '2', '1'],
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
    observe: (s) =>
      elementText(
        created(s, '/articles/x', articleXml({ title: 'a &lt; b &amp; c' })).call('GET', '/articles/x'),
        'title',
      ),
    correct: 'a &lt; b &amp; c',
    faulty: 'a < b & c',
  },
  'title-gt-unescaped': {
    observe: (s) =>
      /<title>(.*)<\/title>/.exec(
        created(s, '/articles/x', articleXml({ title: 'a ]]&gt; b' }))
          .call('GET', '/articles/x')
          .body?.toString() ?? '',
      )?.[1],
    correct: 'a ]]&gt; b',
    faulty: 'a ]]> b',
  },
  'price-float': {
    observe: (s) => elementText(created(s).call('GET', '/articles/x'), 'price'),
    correct: '12.50',
    faulty: '12.5',
  },
  'price-double': {
    observe: (s) =>
      ['12.50', '9007199254740993.5', '123456789012.1234567'].map((price, i) =>
        elementText(created(s, `/articles/d${i}`, articleXml({ price })).call('GET', `/articles/d${i}`), 'price'),
      ),
    correct: ['12.50', '9007199254740993.5', '123456789012.1234567'],
    faulty: ['12.5', '9007199254740994.0', '123456789012.12346'],
  },
  'price-rounded': {
    observe: (s) =>
      elementText(created(s, '/articles/x', articleXml({ price: '12.3456' })).call('GET', '/articles/x'), 'price'),
    correct: '12.3456',
    faulty: '12.35',
  },
  'price-truncated': {
    observe: (s) =>
      elementText(created(s, '/articles/x', articleXml({ price: '12.349' })).call('GET', '/articles/x'), 'price'),
    correct: '12.349',
    faulty: '12.34',
  },
  'title-truncated': {
    observe: (s) =>
      elementText(created(s, '/articles/x', articleXml({ title: 'é'.repeat(201) })).call('GET', '/articles/x'), 'title')
        ?.length,
    correct: 201,
    faulty: 200,
  },
  'title-trimmed': {
    observe: (s) => {
      // Single spaces, which title-whitespace-collapsed keeps.
      const stored = created(s, '/articles/x', articleXml({ title: ' Hello ', summary: ' sum ' })).call(
        'GET',
        '/articles/x',
      );
      return [elementText(stored, 'title'), elementText(stored, 'summary')];
    },
    correct: [' Hello ', ' sum '],
    faulty: ['Hello', 'sum'],
  },
  'title-whitespace-collapsed': {
    observe: (s) => {
      const stored = created(s, '/articles/x', articleXml({ title: 'a  b\tc', summary: 'x \n y' })).call(
        'GET',
        '/articles/x',
      );
      return [elementText(stored, 'title'), elementText(stored, 'summary')];
    },
    correct: ['a  b\tc', 'x \n y'],
    faulty: ['a b c', 'x y'],
  },
  'title-nfc': {
    observe: (s) => {
      const stored = created(s, '/articles/x', articleXml({ title: 'Caf\u0065\u0301', summary: 'n\u0303' })).call(
        'GET',
        '/articles/x',
      );
      return [elementText(stored, 'title'), elementText(stored, 'summary')];
    },
    correct: ['Caf\u0065\u0301', 'n\u0303'],
    faulty: ['Caf\u00e9', '\u00f1'],
  },
  'title-nfkc': {
    observe: (s) => {
      const stored = created(s, '/articles/x', articleXml({ title: '\ufb01le \uff21\u00b2', summary: '\u2460' })).call(
        'GET',
        '/articles/x',
      );
      return [elementText(stored, 'title'), elementText(stored, 'summary')];
    },
    correct: ['\ufb01le \uff21\u00b2', '\u2460'],
    faulty: ['file A2', '1'],
  },
  'title-bmp-only': {
    observe: (s) => {
      const stored = created(s, '/articles/x', articleXml({ title: 'a\u{1F600}b', summary: '\u{1D11E}' })).call(
        'GET',
        '/articles/x',
      );
      return [elementText(stored, 'title'), elementText(stored, 'summary')];
    },
    correct: ['a\u{1F600}b', '\u{1D11E}'],
    faulty: ['a?b', '?'],
  },
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
  'options-no-allow': {
    observe: (s) => s.call('OPTIONS', '/articles').headers.allow !== undefined,
    correct: true,
    faulty: false,
  },
  'options-204': { observe: (s) => s.call('OPTIONS', '/articles/x').status, correct: 200, faulty: 204 },
  'allow-method-401': {
    observe: (s) => created(s).call('PATCH', '/articles/x', articleXml(), { 'content-type': 'application/xml' }).status,
    correct: 405,
    faulty: 401,
  },
  'allow-lists-unhandled-delete-on-collection': {
    observe: (s) =>
      s.call('OPTIONS', '/articles').headers.allow?.includes('DELETE') === true &&
      s.call('DELETE', '/articles').status === 405,
    correct: false,
    faulty: true,
  },
  'allow-method-500': {
    observe: (s) => s.call('DELETE', '/users/bob/financialrecords').status,
    correct: 405,
    faulty: 500,
  },
  'root-allow-lies': {
    observe: (s) =>
      s.call('OPTIONS', '/').headers.allow?.includes('PUT') === true && s.call('PUT', '/', articleXml()).status === 405,
    correct: false,
    faulty: true,
  },
  'method-405-no-allow': {
    observe: (s) => s.call('POST', '/articles/x', articleXml()).headers.allow,
    correct: ITEM_ALLOW,
    faulty: undefined,
  },
  'unlisted-method-200': {
    observe: (s) => s.call('PATCH', '/articles/x', articleXml()).status,
    correct: 405,
    faulty: 200,
  },
  'unlisted-method-401-authenticated': {
    // PATCH on an article without credentials, then with bob's: its status, and whether it carries a challenge.
    observe: (s) => {
      const anonymous = s.send({ method: 'PATCH', target: '/articles/x', body: articleXml(), headers: XML_BODY });
      const authenticated = created(s).call('PATCH', '/articles/x', articleXml(), XML_BODY);
      return [anonymous.status, authenticated.status, authenticated.headers['www-authenticate'] !== undefined];
    },
    correct: [405, 405, false],
    faulty: [405, 401, true],
  },
  'oauth-endpoint-405-no-allow': {
    // A GET to the OAuth 2 and OAuth 1 token endpoints (the resources' 405s are method-405-no-allow's).
    observe: (s) =>
      ['/oauth2/token', '/oauth1/access_token'].map((target) => {
        const res = s.send({ method: 'GET', target, secure: true });
        return [res.status, res.headers.allow];
      }),
    correct: [
      [405, 'POST, OPTIONS'],
      [405, 'POST, OPTIONS'],
    ],
    faulty: [
      [405, undefined],
      [405, undefined],
    ],
  },
  'xxe-resolved': {
    observe: (s, expecting) => {
      const contacted = waitForContact(expecting === 'faulty' ? 5000 : 100);
      s.call(
        'PUT',
        '/articles/x',
        `<!DOCTYPE article [<!ENTITY x SYSTEM "${LISTENER.url}">]>${articleXml({ title: 'a' })}`,
      );
      return contacted;
    },
    correct: false,
    faulty: true,
  },
  'xxe-file-read': {
    observe: (s) => {
      const res = s.call(
        'PUT',
        '/articles/x',
        `<!DOCTYPE article [<!ENTITY x SYSTEM "${entityFile}">]>${articleXml({ title: '&x;' })}`,
      );
      return [res.status, elementText(res, 'title')];
    },
    correct: [400, undefined],
    faulty: [201, 'leaked'],
  },
  'expand-entities': {
    observe: (s) => {
      const res = s.call(
        'PUT',
        '/articles/x',
        `<!DOCTYPE article [<!ENTITY x "boom">]>${articleXml({ title: '&x;' })}`,
      );
      return [res.status, elementText(res, 'title')];
    },
    correct: [400, undefined],
    faulty: [201, 'boom'],
  },
  'alias-separate': {
    observe: (s) => created(s, '/article/x').call('GET', '/articles/x').status,
    correct: 200,
    faulty: 404,
  },
  'delete-noop': {
    observe: (s) => [created(s).call('DELETE', '/articles/x').status, s.call('GET', '/articles/x').status],
    correct: [204, 404],
    faulty: [204, 200],
  },
  'nonce-unchecked': {
    observe: (s) => [nonceGet(s, '1'), nonceGet(s, '1')],
    correct: [200, 401],
    faulty: [200, 200],
    hmac: true,
  },
  'accepts-integer-price': {
    observe: (s) => s.call('PUT', '/articles/x', articleXml({ price: '12' })).status,
    correct: 400,
    faulty: 201,
  },
  'accepts-uppercase-currency': {
    observe: (s) => s.call('PUT', '/articles/x', articleXml({ currency: 'EUR' })).status,
    correct: 400,
    faulty: 201,
  },
  'accepts-missing-title': {
    observe: (s) => [
      s.call('PUT', '/articles/x', articleXml({}, ['title'])).status,
      elementText(s.call('GET', '/articles/x'), 'title'),
    ],
    correct: [400, undefined],
    faulty: [201, undefined],
  },
  'accepts-duplicate-title': {
    observe: (s) =>
      s.call(
        'PUT',
        '/articles/x',
        '<article><title>A</title><title>B</title><price currency="eur">1.00</price></article>',
      ).status,
    correct: 400,
    faulty: 201,
  },
  'accepts-other-root': {
    observe: (s) => [
      s.call('PUT', '/articles/x', '<item><title>A</title><price currency="eur">1.00</price></item>').status,
      s.call('GET', '/articles/x').body?.toString().startsWith('<item>'),
    ],
    correct: [400, false],
    faulty: [201, true],
  },
  'stores-any-media-type': {
    observe: (s) => [
      s.call('PUT', '/articles/x', '{"title":"A"}', { 'content-type': 'application/json' }).status,
      s.call('GET', '/articles/x').body?.toString(),
    ],
    correct: [415, expect.stringContaining('no article at /articles/x')],
    faulty: [201, '{"title":"A"}'],
  },
  'oversize-acknowledged': {
    observe: (s) => [
      created(s).call('PUT', '/articles/x', articleXml({ title: 'x'.repeat(70_000) })).status,
      String(s.call('GET', '/articles/x').body ?? '').length < 1000,
    ],
    correct: [413, true],
    faulty: [204, true],
  },
  'delete-without-auth': {
    observe: (s) => [
      created(s).send({ method: 'DELETE', target: '/articles/x', secure: true }).status,
      s.call('GET', '/articles/x').status,
    ],
    correct: [401, 200],
    faulty: [204, 404],
  },
  'replace-without-auth': {
    observe: (s) => {
      const put = created(s).send({
        method: 'PUT',
        target: '/articles/x',
        body: articleXml({ title: 'New' }),
        headers: XML_BODY,
        secure: true,
      });
      return [put.status, elementText(s.call('GET', '/articles/x'), 'title')];
    },
    correct: [401, 'Hello'],
    faulty: [200, 'New'],
  },
  'refused-write-applied': {
    observe: (s) => {
      const put = s.send({
        method: 'PUT',
        target: '/articles/new',
        body: articleXml(),
        headers: XML_BODY,
        secure: true,
      });
      return [put.status, s.call('GET', '/articles/new').status];
    },
    correct: [401, 404],
    faulty: [401, 200],
  },
  'put-non-atomic': {
    observe: async (s) => {
      // Two concurrent replaces, 20 times: the timers of the fault (0–9 ms) reverse the order of the second
      // writes about half the time.
      let mixed = 0;
      for (let i = 0; i < 20; i++) {
        const target = `/articles/race${i}`;
        s.call('PUT', target, articleXml({ title: 'Old', price: '1.00' }));
        const headers = { ...s.basic('bob'), ...XML_BODY };
        const send = (title: string, price: string) =>
          s.sendAsync({ method: 'PUT', target, body: articleXml({ title, price }), headers, secure: true });
        await Promise.all([send('A', '1.5'), send('B', '2.5')]);
        const got = s.call('GET', target);
        const pair = `${elementText(got, 'title') ?? ''} ${elementText(got, 'price') ?? ''}`;
        if (pair !== 'A 1.5' && pair !== 'B 2.5') mixed++;
      }
      return mixed > 0;
    },
    correct: false,
    faulty: true,
  },
  'delete-then-put-resurrects': {
    observe: (s) => {
      created(s, '/articles/x', articleXml({ summary: 'old' })).call('DELETE', '/articles/x');
      s.call('PUT', '/articles/x', articleXml());
      return elementText(s.call('GET', '/articles/x'), 'summary');
    },
    correct: undefined,
    faulty: 'old',
  },
  'post-reuses-deleted-id': {
    observe: (s) => {
      s.call('POST', '/articles', articleXml({ title: 'one' }));
      s.call('DELETE', '/articles/id-1');
      s.call('POST', '/articles', articleXml({ title: 'two' }));
      // The first article's URL serves the second article.
      return elementText(s.call('GET', '/articles/id-1'), 'title') === 'two';
    },
    correct: false,
    faulty: true,
  },
  'alias-diverges-after-replace': {
    observe: (s) => {
      created(s, '/articles/x', articleXml({ title: 'Old' })).call('GET', '/article/x');
      s.call('PUT', '/articles/x', articleXml({ title: 'New' }));
      return elementText(s.call('GET', '/article/x'), 'title');
    },
    correct: 'New',
    faulty: 'Old',
  },
  'lost-update': {
    observe: async (s) => {
      // Up to 20 pairs of concurrent creates of two different articles. Under the fault each rewrites the whole
      // store from the copy it took on arrival, so the later rewrite drops the other article (on the first pair).
      const headers = { ...s.basic('bob'), ...XML_BODY };
      const create = (target: string) =>
        s.sendAsync({ method: 'PUT', target, body: articleXml(), headers, secure: true });
      for (let i = 0; i < 20; i++) {
        const targets = [`/articles/lost${i}a`, `/articles/lost${i}b`];
        const statuses = (await Promise.all(targets.map(create))).map((r) => r.status);
        const kept = targets.filter((t) => s.call('GET', t).status === 200).length;
        if (kept < 2) return { statuses, kept };
      }
      return 'none lost';
    },
    correct: 'none lost',
    faulty: { statuses: [201, 201], kept: 1 },
  },
  'put-after-delete-200': {
    observe: (s) => {
      const first = s.call('PUT', '/articles/x', articleXml());
      s.call('DELETE', '/articles/x');
      const again = s.call('PUT', '/articles/x', articleXml());
      return [again.status === first.status, again.headers.location === first.headers.location];
    },
    correct: [true, true],
    faulty: [false, false],
  },
  'nonce-race': {
    observe: async (s) => {
      const { authentication, date = '' } = s.sign('GET', RECORDS, { user: 'alice', nonce: '7' });
      const req = { method: 'GET', target: RECORDS, headers: { authentication, date } };
      return (await Promise.all([s.sendAsync(req), s.sendAsync(req), s.sendAsync(req)])).map((r) => r.status).sort();
    },
    correct: [200, 401, 401],
    faulty: [200, 200, 200],
    hmac: true,
  },
  'nonce-recorded-late': {
    observe: async (s) => {
      const { authentication, date = '' } = s.sign('GET', RECORDS, { user: 'alice', nonce: '7' });
      const req = { method: 'GET', target: RECORDS, headers: { authentication, date } };
      const together = (await Promise.all([s.sendAsync(req), s.sendAsync(req), s.sendAsync(req)])).map((r) => r.status);
      // One after another, once the answers are out (a turn of the event loop, no clock): refused under the fault too.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const later = (await s.sendAsync(req)).status;
      return [...together.sort(), later];
    },
    correct: [200, 401, 401, 401],
    faulty: [200, 200, 200, 401],
    hmac: true,
  },
  'date-ignored': {
    observe: (s) => [nonceGet(s, '1', { skew: -DAY - 3 * 3600 }), nonceGet(s, '2', { skew: DAY + 3 * 3600 })],
    correct: [401, 401],
    faulty: [200, 200],
    hmac: true,
  },
  'date-future-unlimited': { observe: (s) => nonceGet(s, '1', { skew: 3600 }), correct: 401, faulty: 200, hmac: true },
  'date-past-unlimited': { observe: (s) => nonceGet(s, '1', { skew: -3600 }), correct: 401, faulty: 200, hmac: true },
  'date-missing-ok': {
    observe: (s) => {
      const { authentication } = s.sign('GET', RECORDS, { user: 'alice', nonce: '1', date: '' });
      return s.send({ method: 'GET', target: RECORDS, headers: { authentication } }).status;
    },
    correct: 401,
    faulty: 200,
    hmac: true,
  },
  'date-time-of-day': {
    observe: (s) => nonceGet(s, '1', { skew: -2 * DAY + 10 }),
    correct: 401,
    faulty: 200,
    hmac: true,
  },
  'date-lenient': {
    observe: (s) => [
      nonceGet(s, '1', { date: 'Wed, 01 Jan 2025 00:00:00 GMT' }),
      nonceGet(s, '2', { date: '2026-11-22T10:00:00Z' }),
    ],
    correct: [401, 401],
    faulty: [200, 200],
    hmac: true,
  },
  'digest-ignores-path': { observe: (s) => simpleGet(s, { path: '/' }), correct: 401, faulty: 200, hmac: true },
  'digest-ignores-verb': { observe: (s) => simpleGet(s, { method: 'HEAD' }), correct: 401, faulty: 200, hmac: true },
  'digest-cache': {
    // A GET signed and taken, then its digest on HEAD.
    observe: (s) => [simpleGet(s), signedHead(s, 'GET')],
    correct: [200, 401],
    faulty: [200, 200],
    hmac: true,
  },
  'hmac-head-as-get': {
    // A HEAD signed as HEAD, and a HEAD carrying a digest made for GET.
    observe: (s) => [signedHead(s, 'HEAD'), signedHead(s, 'GET')],
    correct: [200, 401],
    faulty: [401, 200],
    hmac: true,
  },
  'digest-case-insensitive': {
    observe: (s) => simpleGet(s, { digest: swapCase }),
    correct: 401,
    faulty: 200,
    hmac: true,
  },
  'digest-prefix': {
    observe: (s) => simpleGet(s, { digest: (d) => d.slice(0, 12) }),
    correct: 401,
    faulty: 200,
    hmac: true,
  },
  'basic-last-colon': { observe: (s) => basicGet(s, 'alice'), correct: 200, faulty: 401 },
  'basic-over-http': { observe: (s) => basicGet(s, 'bob', undefined, true), correct: 401, faulty: 200 },
  'basic-password-prefix': { observe: (s) => basicGet(s, 'alice', 'wonder'), correct: 401, faulty: 200 },
  'basic-case-insensitive': { observe: (s) => basicGet(s, 'alice', 'WONDER:LAND'), correct: 401, faulty: 200 },
  'credential-field-first-line': {
    observe: (s) =>
      s.send({
        method: 'GET',
        target: RECORDS,
        headers: { authorization: [String(s.basic('alice')['authorization']), 'Basic !'] },
        secure: true,
      }).status,
    correct: 401,
    faulty: 200,
  },
  'credential-field-last-line': {
    observe: (s) =>
      s.send({
        method: 'GET',
        target: RECORDS,
        headers: { authorization: ['Basic !', String(s.basic('alice')['authorization'])] },
        secure: true,
      }).status,
    correct: 401,
    faulty: 200,
  },
  'basic-beside-hmac-ignored': {
    observe: (s) =>
      s.send({
        method: 'GET',
        target: RECORDS,
        headers: { ...s.basic('alice'), authentication: 'hmac alice' },
        secure: true,
      }).status,
    correct: 401,
    faulty: 200,
  },
  'bearer-scope-cache': {
    // The default client's token (alice's) at bob's records, before and after it opened alice's.
    observe: async (s) => {
      const token = issueToken(s);
      const at = (target: string) =>
        s.sendAsync({ method: 'GET', target, headers: { authorization: `Bearer ${token}` }, secure: true });
      const before = (await at('/users/bob/financialrecords')).status;
      const own = (await at(RECORDS)).status;
      return [before, own, (await at('/users/bob/financialrecords')).status];
    },
    correct: [403, 200, 403],
    faulty: [403, 200, 200],
  },
  'records-any-user': {
    observe: (s) =>
      s.send({ method: 'GET', target: RECORDS, headers: { ...s.sign('GET', RECORDS, { user: 'bob' }) } }).status,
    correct: 403,
    faulty: 200,
    hmac: true,
  },
  'allow-anonymous-extra': {
    observe: (s) => String(s.send({ method: 'OPTIONS', target: '/articles/x' }).headers.allow).includes('PATCH'),
    correct: false,
    faulty: true,
  },
  'allow-ignores-auth': {
    observe: (s) => String(s.send({ method: 'OPTIONS', target: '/articles/x' }).headers.allow).includes('PUT'),
    correct: false,
    faulty: true,
  },
  'connection-remembers': {
    observe: (s) => {
      const connection = {};
      const first = s.send({
        method: 'GET',
        target: RECORDS,
        headers: { ...s.sign('GET', RECORDS, { user: 'alice' }) },
        connection,
      }).status;
      return [first, s.send({ method: 'GET', target: RECORDS, connection }).status];
    },
    correct: [200, 401],
    faulty: [200, 200],
    hmac: true,
  },
  'session-cookie': {
    observe: (s) => {
      const first = s.send({
        method: 'GET',
        target: RECORDS,
        headers: { ...s.sign('GET', RECORDS, { user: 'alice' }) },
      });
      const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0] ?? '';
      return [first.status, s.send({ method: 'GET', target: RECORDS, headers: { cookie } }).status];
    },
    correct: [200, 401],
    faulty: [200, 200],
    hmac: true,
  },
  'no-www-authenticate': {
    observe: (s) => s.send({ method: 'GET', target: '/' }).headers['www-authenticate'],
    correct: 'hmac realm="conform"',
    faulty: undefined,
  },
  'nonce-global': {
    observe: (s) => [nonceGet(s, '5'), nonceGet(s, '5', { user: 'bob' })],
    correct: [200, 200],
    faulty: [200, 401],
    hmac: true,
  },
  'nonce-store-small': {
    observe: (s) => {
      nonceGet(s, '1');
      for (let n = 2; n <= 101; n++) nonceGet(s, String(n));
      return nonceGet(s, '1');
    },
    correct: 401,
    faulty: 200,
    hmac: true,
  },
  'nonce-as-number': {
    observe: (s) => [nonceGet(s, '9007199254740992'), nonceGet(s, '9007199254740993')],
    correct: [200, 200],
    faulty: [200, 401],
    hmac: true,
  },
  'body-hash-optional': { observe: (s) => signedPut(s, false), correct: true, faulty: false },
  'body-hash-prefix': { observe: (s) => signedPut(s, true), correct: false, faulty: true, hmac: true },
  'date-window-narrow': { observe: (s) => nonceGet(s, '1', { skew: -300 }), correct: 200, faulty: 401, hmac: true },
  'digest-base64url': { observe: (s) => simpleGet(s), correct: 200, faulty: 401, hmac: true },
  'nonce-unbound': {
    observe: (s) => {
      const simple = s.sign('GET', RECORDS, { user: 'alice' }).authentication.split(':').pop() ?? '';
      const date = formatSignedDate(s.clock.now());
      return s.send({
        method: 'GET',
        target: RECORDS,
        headers: { authentication: `hmac alice:424242:${simple}`, date },
      }).status;
    },
    correct: 401,
    faulty: 200,
    hmac: true,
  },
  'write-digest-unchecked': {
    observe: (s) => {
      const date = formatSignedDate(s.clock.now());
      const headers = {
        authentication: 'hmac alice:515151:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        date,
        'content-type': 'application/xml',
      };
      return s.send({ method: 'PUT', target: '/articles/unchecked', body: articleXml(), headers }).status;
    },
    correct: 401,
    faulty: 201,
  },
  'oauth2-expired-accepted': {
    observe: (s) => {
      const token = issueToken(s);
      s.clock.advance(6);
      return bearerRequest(s, token).status;
    },
    correct: 401,
    faulty: 200,
  },
  'oauth2-token-over-http': {
    observe: (s) => bearerRequest(s, issueToken(s), { secure: false }).status,
    correct: 401,
    faulty: 200,
  },
  'oauth2-wrong-client-secret': {
    observe: (s) => tokenRequest(s, { authorization: clientBasic('reporting', 'wrong') }).status,
    correct: 401,
    faulty: 200,
  },
  'oauth2-secret-optional': {
    // The id alone in the form, Basic with an empty secret, Basic with a wrong one.
    observe: (s) => [
      tokenRequest(s, { authorization: null, body: 'grant_type=client_credentials&client_id=reporting' }).status,
      tokenRequest(s, { authorization: clientBasic('reporting', '') }).status,
      tokenRequest(s, { authorization: clientBasic('reporting', 'wrong') }).status,
    ],
    correct: [401, 401, 401],
    faulty: [200, 200, 401],
  },
  'oauth2-token-prefix': {
    observe: (s) => bearerRequest(s, issueToken(s).slice(0, 20)).status,
    correct: 401,
    faulty: 200,
  },
  'oauth2-revoked-accepted': {
    observe: (s) => {
      const token = issueToken(s);
      return [revoke(s, token).status, bearerRequest(s, token).status];
    },
    correct: [200, 401],
    faulty: [200, 200],
  },
  'oauth2-token-cacheable': {
    observe: (s) => {
      const { headers } = tokenRequest(s);
      return [headers['cache-control'], headers.pragma];
    },
    correct: ['no-store', 'no-cache'],
    faulty: [undefined, undefined],
  },
  'oauth2-basic-undecoded': {
    observe: (s) => tokenRequest(s, { authorization: clientBasic(SPECIAL_CLIENT.id, SPECIAL_CLIENT.secret) }).status,
    correct: 200,
    faulty: 401,
  },
  'oauth1-ignores-query': {
    observe: (s) =>
      oauth1Request(s, { target: RECORDS, sendTarget: `${RECORDS}?amount=1000000`, token: oauth1Tokens(s) }).res.status,
    correct: 401,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-query-placement-others-unsigned': {
    observe: (s) => {
      const token = oauth1Tokens(s);
      return [`${RECORDS}?a=1`, RECORDS].map(
        (target) => oauth1Request(s, { target, token, place: 'query' }).res.status,
      );
    },
    correct: [200, 200],
    faulty: [401, 200],
    oauth1: true,
  },
  'oauth1-nonce-unchecked': {
    observe: (s) => {
      const token = oauth1Tokens(s);
      return [
        oauth1Request(s, { target: RECORDS, token, nonce: 'once' }).res.status,
        oauth1Request(s, { target: RECORDS, token, nonce: 'once' }).res.status,
      ];
    },
    correct: [200, 401],
    faulty: [200, 200],
    oauth1: true,
  },
  'oauth1-head-as-get': {
    // A HEAD signed as HEAD, and a HEAD carrying a signature made for GET.
    observe: (s) => {
      const token = oauth1Tokens(s);
      return [
        oauth1Request(s, { target: RECORDS, token, method: 'HEAD' }).res.status,
        oauth1Request(s, { target: RECORDS, token, method: 'GET', sendMethod: 'HEAD' }).res.status,
      ];
    },
    correct: [200, 401],
    faulty: [401, 200],
    oauth1: true,
  },
  'oauth1-signature-cache': {
    // A GET signed and taken, then the same signature (nonce and timestamp) on HEAD.
    observe: (s) => {
      const token = oauth1Tokens(s);
      const timestamp = Math.floor(s.clock.now().getTime() / 1000);
      const once = { target: RECORDS, token, nonce: 'cached', timestamp };
      return [oauth1Request(s, once).res.status, oauth1Request(s, { ...once, sendMethod: 'HEAD' }).res.status];
    },
    correct: [200, 401],
    faulty: [200, 200],
    oauth1: true,
  },
  'oauth1-timestamp-unchecked': {
    observe: (s) =>
      oauth1Request(s, { target: RECORDS, token: oauth1Tokens(s), timestamp: s.clock.now().getTime() / 1000 - 3600 })
        .res.status,
    correct: 401,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-temporary-over-http': {
    observe: (s) => temporaryRequest(s, { secure: false }).status,
    correct: 400,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-token-over-http': {
    observe: (s) => {
      const { token, verifier } = approved(s);
      return oauth1Request(s, {
        method: 'POST',
        target: '/oauth1/access_token',
        token,
        extra: [['oauth_verifier', verifier]],
        secure: false,
      }).res.status;
    },
    correct: 400,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-temporary-replay': {
    observe: (s) => {
      const timestamp = Math.floor(s.clock.now().getTime() / 1000);
      return [
        temporaryRequest(s, { nonce: 'replayed-temporary', timestamp }).status,
        temporaryRequest(s, { nonce: 'replayed-temporary', timestamp }).status,
      ];
    },
    correct: [200, 401],
    faulty: [200, 200],
    oauth1: true,
  },
  'oauth1-token-endpoint-replay': {
    observe: (s) => {
      const { token, verifier } = approved(s);
      const timestamp = Math.floor(s.clock.now().getTime() / 1000);
      const exchange = () =>
        oauth1Request(s, {
          method: 'POST',
          target: '/oauth1/access_token',
          token,
          extra: [['oauth_verifier', verifier]],
          nonce: 'replayed-token',
          timestamp,
        }).res.status;
      return [exchange(), exchange()];
    },
    correct: [200, 401],
    faulty: [200, 200],
    oauth1: true,
  },
  'oauth1-authorize-any-user': {
    // bob approves alice's consumer; where he may (the fault), whose records do the token credentials open?
    observe: (s) => {
      const temporary = formOf(temporaryRequest(s));
      const approval = s.send({
        method: 'GET',
        target: `/oauth1/authorize?oauth_token=${temporary.oauth_token}`,
        headers: s.basic('bob'),
        secure: true,
      });
      if (approval.status !== 200) return [approval.status];
      const token = { key: temporary.oauth_token ?? '', secret: temporary.oauth_token_secret ?? '' };
      const credentials = formOf(
        oauth1Request(s, {
          method: 'POST',
          target: '/oauth1/access_token',
          token,
          extra: [['oauth_verifier', formOf(approval).oauth_verifier ?? '']],
        }).res,
      );
      const tokenCredentials = { key: credentials.oauth_token ?? '', secret: credentials.oauth_token_secret ?? '' };
      const records = (user: string) =>
        oauth1Request(s, { target: `/users/${user}/financialrecords`, token: tokenCredentials }).res.status;
      return [approval.status, records('alice'), records('bob')];
    },
    correct: [403],
    faulty: [200, 200, 403],
    oauth1: true,
  },
  'oauth1-authorize-twice': {
    observe: (s) => {
      const temporary = formOf(temporaryRequest(s));
      const approve = () =>
        s.send({
          method: 'GET',
          target: `/oauth1/authorize?oauth_token=${temporary.oauth_token}`,
          headers: s.basic('alice'),
          secure: true,
        }).status;
      return [approve(), approve()];
    },
    correct: [200, 400],
    faulty: [200, 200],
    oauth1: true,
  },
  'oauth1-deny-approves': {
    observe: deniedThenExchanged,
    correct: [302, false, 401],
    faulty: [302, true, 200],
    hmac: true,
    oauth1: true,
  },
  'oauth1-deny-empty-verifier': {
    observe: deniedThenExchanged,
    correct: [302, false, 401],
    faulty: [302, false, 200],
    hmac: true,
    oauth1: true,
  },
  'oauth1-any-consumer-secret': {
    // Signed with the second consumer's secret while naming the first.
    observe: (s) =>
      oauth1Request(s, {
        target: RECORDS,
        token: oauth1Tokens(s),
        consumer: { key: CONSUMER.key, secret: 'consumer secret+/:2' },
      }).res.status,
    correct: 401,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-temporary-unsigned': {
    // A temporary-credential request naming the consumer but signed with another secret.
    observe: (s) =>
      oauth1Request(s, {
        method: 'POST',
        target: '/oauth1/request_token',
        extra: [['oauth_callback', 'oob']],
        consumer: { key: CONSUMER.key, secret: 'not-the-secret' },
      }).res.status,
    correct: 401,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-callback-unconfirmed': {
    observe: (s) => formOf(temporaryRequest(s)).oauth_callback_confirmed,
    correct: 'true',
    faulty: undefined,
    oauth1: true,
  },
  'oauth1-plaintext-unverified': {
    observe: (s) =>
      oauth1Raw(s, { target: RECORDS, token: oauth1Tokens(s), plaintext: 'not-the-secrets&at-all' }).status,
    correct: 400,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-realm-required': {
    observe: (s) =>
      oauth1Request(s, { method: 'POST', target: '/oauth1/request_token', extra: [['oauth_callback', 'oob']] }).res
        .status,
    correct: 200,
    faulty: 401,
    oauth1: true,
  },
  'oauth1-nonce-optional': {
    observe: (s) => oauth1Raw(s, { target: RECORDS, token: oauth1Tokens(s), omit: ['oauth_nonce'] }).status,
    correct: 400,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-verifier-reusable': {
    observe: (s) => {
      const temporary = formOf(
        oauth1Request(s, { method: 'POST', target: '/oauth1/request_token', extra: [['oauth_callback', 'oob']] }).res,
      );
      const approval = formOf(
        s.send({
          method: 'GET',
          target: `/oauth1/authorize?oauth_token=${temporary.oauth_token}`,
          headers: s.basic('alice'),
          secure: true,
        }),
      );
      const token = { key: temporary.oauth_token ?? '', secret: temporary.oauth_token_secret ?? '' };
      const exchange = () =>
        oauth1Request(s, {
          method: 'POST',
          target: '/oauth1/access_token',
          token,
          extra: [['oauth_verifier', approval.oauth_verifier ?? '']],
        }).res.status;
      return [exchange(), exchange()];
    },
    correct: [200, 401],
    faulty: [200, 200],
    oauth1: true,
  },
  'oauth1-verifier-unchecked': {
    observe: (s) => {
      const { token } = approved(s);
      return oauth1Request(s, {
        method: 'POST',
        target: '/oauth1/access_token',
        token,
        extra: [['oauth_verifier', 'not-the-verifier']],
      }).res.status;
    },
    correct: 401,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-temporary-as-token': {
    // alice's records with temporary credentials: not yet approved, then approved (by alice).
    observe: (s) => {
      const temporary = formOf(temporaryRequest(s));
      const unapproved = oauth1Request(s, {
        target: RECORDS,
        token: { key: temporary.oauth_token ?? '', secret: temporary.oauth_token_secret ?? '' },
      }).res.status;
      const { token } = approved(s);
      return [unapproved, oauth1Request(s, { target: RECORDS, token }).res.status];
    },
    correct: [401, 401],
    faulty: [200, 200],
    oauth1: true,
  },
  'oauth1-token-any-consumer': {
    // alice's token credentials (of the first consumer) used by the second consumer, signed with its own secret.
    observe: (s) =>
      oauth1Request(s, {
        target: RECORDS,
        token: oauth1Tokens(s),
        consumer: { key: 'conform-consumer-2', secret: 'consumer secret+/:2' },
      }).res.status,
    correct: 401,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-token-secret-ignored': {
    observe: (s) =>
      oauth1Request(s, { target: RECORDS, token: { key: oauth1Tokens(s).key, secret: '' }, consumer: CONSUMER }).res
        .status,
    correct: 401,
    faulty: 200,
    oauth1: true,
  },
  'oauth1-base-uri-no-port': {
    observe: (s) =>
      oauth1Request(s, { method: 'POST', target: '/oauth1/request_token', extra: [['oauth_callback', 'oob']] }).res
        .status,
    correct: 200,
    faulty: 401,
  },
  'oauth1-over-http': {
    observe: (s) => oauth1Request(s, { target: RECORDS, token: oauth1Tokens(s), secure: false }).res.status,
    correct: 401,
    faulty: 200,
    oauth1: true,
  },
  'oauth2-any-grant': {
    observe: (s) => tokenRequest(s, { body: 'grant_type=password&username=alice&password=x' }).status,
    correct: 400,
    faulty: 200,
  },
  'oauth2-password-unchecked': {
    observe: (s) => {
      const grant = (password: string) =>
        tokenRequest(s, { body: `grant_type=password&username=alice&password=${encodeURIComponent(password)}` }).status;
      return [grant('wonder:land'), grant('wonder:lane')];
    },
    correct: [200, 400],
    faulty: [200, 200],
  },
  'oauth2-code-reusable': {
    observe: (s) => {
      const { code } = authorizeCode(s);
      return [exchangeCode(s, code).status, exchangeCode(s, code).status];
    },
    correct: [200, 400],
    faulty: [200, 200],
  },
  'oauth2-code-spent-late': {
    observe: async (s) => {
      const { code } = authorizeCode(s);
      const together = [exchangeCode(s, code).status, exchangeCode(s, code).status];
      // A turn of the event loop (no clock): the answers are out.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return [...together, exchangeCode(s, code).status];
    },
    correct: [200, 400, 400],
    faulty: [200, 200, 400],
  },
  'oauth2-code-reuse-keeps-tokens': {
    observe: (s) => {
      const { code } = authorizeCode(s);
      const token = (JSON.parse(text(exchangeCode(s, code))) as { access_token: string }).access_token;
      exchangeCode(s, code);
      return bearerRequest(s, token).status;
    },
    correct: 401,
    faulty: 200,
  },
  'oauth2-code-redirect-unchecked': {
    observe: (s) => [
      exchangeCode(s, authorizeCode(s).code, { redirectUri: null }).status,
      exchangeCode(s, authorizeCode(s).code, { redirectUri: 'https://attacker.example/cb' }).status,
    ],
    correct: [400, 400],
    faulty: [200, 200],
  },
  'oauth2-pkce-unchecked': {
    observe: (s) => exchangeCode(s, authorizeCode(s).code, { verifier: `${'x'.repeat(43)}` }).status,
    correct: 400,
    faulty: 200,
  },
  'oauth1-hmac-sha256-unverified': {
    observe: (s) => {
      const token = oauth1Tokens(s);
      const bad = oauth1Raw(s, {
        target: RECORDS,
        token: { ...token, secret: `${token.secret}x` },
        method: 'HMAC-SHA256',
      });
      return [oauth1Raw(s, { target: RECORDS, token, method: 'HMAC-SHA256' }).status, bad.status];
    },
    correct: [200, 401],
    faulty: [200, 200],
    oauth1: true,
  },
  'oauth2-refresh-refused': {
    observe: (s) => {
      const refresh = (JSON.parse(text(exchangeCode(s, authorizeCode(s).code))) as { refresh_token: string })
        .refresh_token;
      return tokenRequest(s, { body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(refresh)}` }).status;
    },
    correct: 200,
    faulty: 400,
  },
  'oauth2-refresh-any-client': {
    observe: (s) => {
      const refresh = (JSON.parse(text(exchangeCode(s, authorizeCode(s).code))) as { refresh_token: string })
        .refresh_token;
      return tokenRequest(s, {
        body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(refresh)}`,
        authorization: clientBasic(SPECIAL_CLIENT.id, SPECIAL_CLIENT.secret),
      }).status;
    },
    correct: 400,
    faulty: 200,
  },
  'oauth2-refresh-rotation-keeps-old': {
    observe: (s) => {
      const refresh = (JSON.parse(text(exchangeCode(s, authorizeCode(s).code))) as { refresh_token: string })
        .refresh_token;
      const again = () =>
        tokenRequest(s, { body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(refresh)}` }).status;
      return [again(), again()];
    },
    correct: [200, 400],
    faulty: [200, 200],
  },
  'oauth2-refresh-revocation-ignored': {
    observe: (s) => {
      const refresh = (JSON.parse(text(exchangeCode(s, authorizeCode(s).code))) as { refresh_token: string })
        .refresh_token;
      revoke(s, refresh);
      return tokenRequest(s, { body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(refresh)}` }).status;
    },
    correct: 400,
    faulty: 200,
  },
  'oauth2-client-token-acts-for-user': {
    observe: (s) => {
      const token = issueToken(s);
      return [bearerRequest(s, token).status, bearerRequest(s, token, { target: '/' }).status];
    },
    correct: [403, 200],
    faulty: [200, 200],
  },
  'digest-any-user-secret': {
    // Names alice, signed with bob's secret.
    observe: (s) =>
      s.send({
        method: 'GET',
        target: RECORDS,
        headers: {
          authentication: s.sign('GET', RECORDS, { user: 'bob' }).authentication.replace('hmac bob:', 'hmac alice:'),
        },
      }).status,
    correct: 401,
    faulty: 200,
    hmac: true,
  },
  'basic-any-user-password': { observe: (s) => basicGet(s, 'alice', 'builder'), correct: 401, faulty: 200 },
  'records-owner-hmac-only': {
    observe: (s) => s.send({ method: 'GET', target: RECORDS, headers: s.basic('bob'), secure: true }).status,
    correct: 403,
    faulty: 200,
  },
  'root-refuses-basic': {
    observe: (s) => s.send({ method: 'GET', target: '/', headers: s.basic('bob'), secure: true }).status,
    correct: 200,
    faulty: 401,
  },
  'nonce-stored-before-verify': {
    observe: (s) => {
      const wrong = s.sign('GET', RECORDS, { user: 'alice', nonce: '5' });
      const forged = {
        ...wrong,
        authentication: wrong.authentication.replace(/:[^:]*$/, ':AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='),
      };
      return [s.send({ method: 'GET', target: RECORDS, headers: forged }).status, nonceGet(s, '5')];
    },
    correct: [401, 200],
    faulty: [401, 401],
    hmac: true,
  },
  'nonce-forgotten-early': {
    observe: (s) => {
      const date = s.clock.now();
      const first = nonceGet(s, '7', { date });
      s.clock.advance(3);
      return [first, nonceGet(s, '7', { date })];
    },
    correct: [200, 401],
    faulty: [200, 200],
    hmac: true,
  },
  'digest-ignores-query': {
    observe: (s) =>
      s.send({
        method: 'GET',
        target: `${RECORDS}?year=2027`,
        headers: { ...s.sign('GET', RECORDS, { user: 'alice' }) },
      }).status,
    correct: 401,
    faulty: 200,
  },
  'unknown-user-500': {
    observe: (s) => s.send({ method: 'GET', target: RECORDS, headers: s.basic('mallory', 'x'), secure: true }).status,
    correct: 401,
    faulty: 500,
  },
  'hmac-missing-parts-500': {
    observe: (s) => s.send({ method: 'GET', target: RECORDS, headers: { authentication: 'hmac alice' } }).status,
    correct: 401,
    faulty: 500,
  },
};

/** Pairs of faults whose observations legitimately overlap (both touch the same header or status). */
const OVERLAPS: readonly (readonly [ScenarioFaultName, ScenarioFaultName])[] = [
  // A HEAD signed as GET is what both take; a price past a double's precision is what the rounding faults alter too.
  ['hmac-head-as-get', 'digest-cache'],
  ['hmac-head-as-get', 'digest-ignores-verb'],
  ['digest-cache', 'digest-ignores-verb'],
  ['digest-cache', 'nonce-forgotten-early'],
  ['digest-cache', 'nonce-recorded-late'],
  ['digest-cache', 'nonce-store-small'],
  ['digest-cache', 'nonce-race'],
  // A digest taken again from the cache spends no nonce: an exact replay of a date-and-nonce request is taken.
  ['digest-cache', 'nonce-unchecked'],
  // A signature taken again from the cache spends no nonce: an exact replay is what both take.
  ['oauth1-signature-cache', 'oauth1-nonce-unchecked'],
  ['price-double', 'price-rounded'],
  ['price-double', 'price-truncated'],
  ['price-double', 'price-float'],
  // Both leave the query's other parameters unsigned (one always, one when the protocol parameters are there).
  ['oauth1-ignores-query', 'oauth1-query-placement-others-unsigned'],
  ['post-no-location', 'post-location-nowhere'],
  ['title-unescaped', 'title-gt-unescaped'],
  ['allow-anonymous-extra', 'options-extra-method'],
  ['post-no-location', 'post-location-shape'],
  ['options-extra-method', 'options-no-allow'],
  ['options-extra-method', 'method-405-no-allow'],
  ['method-405-no-allow', 'unlisted-method-200'],
  ['options-extra-method', 'allow-method-401'],
  ['method-405-no-allow', 'allow-method-401'],
  ['oauth1-nonce-unchecked', 'oauth1-temporary-replay'],
  ['unlisted-method-200', 'allow-method-401'],
  ['unlisted-method-200', 'allow-method-500'],
  // Their observations send a method the resource does not allow with credentials: its 405 is what both change.
  ['unlisted-method-401-authenticated', 'unlisted-method-200'],
  ['unlisted-method-401-authenticated', 'allow-method-401'],
  ['unlisted-method-401-authenticated', 'allow-method-500'],
  ['unlisted-method-401-authenticated', 'method-405-no-allow'],
  ['post-same-id', 'put-generated-405'],
  ['date-ignored', 'date-future-unlimited'],
  ['date-ignored', 'date-past-unlimited'],
  ['date-ignored', 'date-time-of-day'],
  ['date-past-unlimited', 'date-time-of-day'],
  ['nonce-unchecked', 'nonce-race'],
  ['nonce-unchecked', 'nonce-recorded-late'],
  ['nonce-race', 'nonce-recorded-late'],
  ['nonce-unchecked', 'nonce-store-small'],
  ['nonce-unchecked', 'nonce-forgotten-early'],
  ['records-any-user', 'records-owner-hmac-only'],
  ['records-any-user', 'bearer-scope-cache'],
  ['records-owner-hmac-only', 'bearer-scope-cache'],
  ['digest-ignores-path', 'digest-ignores-query'],
  ['write-digest-unchecked', 'body-hash-optional'],
  ['write-digest-unchecked', 'body-hash-prefix'],
  ['delete-without-auth', 'refused-write-applied'],
  ['replace-without-auth', 'refused-write-applied'],
  // The DELETE keeps the article, so the PUT after it replaces (200, no Location).
  ['delete-noop', 'put-after-delete-200'],
  // The id every POST reuses is never deleted, so the second POST overwrites the first.
  ['post-same-id', 'post-reuses-deleted-id'],
  // /article/x is another article: the replace through /articles/x never reaches it.
  ['alias-separate', 'alias-diverges-after-replace'],
  // Any secret is accepted, so an empty one is too.
  ['oauth2-wrong-client-secret', 'oauth2-secret-optional'],
  // NFKC composes as NFC does.
  ['title-nfc', 'title-nfkc'],
  // Both cut a price to two fraction digits, one rounding, one truncating.
  ['price-rounded', 'price-truncated'],
];

function overlaps(a: ScenarioFaultName, b: ScenarioFaultName): boolean {
  if ((a === 'digest-base64url' && CASES[b].hmac) || (b === 'digest-base64url' && CASES[a].hmac)) return true;
  // A fault shown under a variant (FAULT_VARIANTS) is observed beside that variant's other choices.
  if (FAULT_VARIANTS[a] !== undefined || FAULT_VARIANTS[b] !== undefined) return true;
  // These two refuse every OAuth 1 request the test kit signs (its port, its header without a realm).
  for (const breaksOAuth1 of ['oauth1-base-uri-no-port', 'oauth1-realm-required'] as const)
    if ((a === breaksOAuth1 && CASES[b].oauth1) || (b === breaksOAuth1 && CASES[a].oauth1)) return true;
  return OVERLAPS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}

describe('fault modes', () => {
  // The restart faults (journal-on-exit, nonces-not-journaled) need a data directory: test/durability.test.ts.
  it('FAULT_VARIANTS names faults and variants only', () => {
    for (const [fault, variants] of Object.entries(FAULT_VARIANTS)) {
      expect(FAULT_NAMES).toContain(fault);
      expect(parseVariantNames([...(variants ?? [])])).toEqual(variants);
    }
  });

  it.each(SCENARIO_FAULT_NAMES)('%s switches on exactly the named defect', async (name) => {
    const c = CASES[name];
    // A fault of something only a variant offers is observed against that variant without the fault.
    expect(await c.observe(server([], [...(FAULT_VARIANTS[name] ?? [])]), 'correct')).toEqual(c.correct);
    expect(await c.observe(server([name]), 'faulty')).toEqual(c.faulty);
  });

  it.each(SCENARIO_FAULT_NAMES)('%s leaves the other observations correct', async (name) => {
    for (const other of SCENARIO_FAULT_NAMES) {
      if (other === name || overlaps(name, other)) continue;
      expect([other, await CASES[other].observe(server([name]), 'correct')]).toEqual([other, CASES[other].correct]);
    }
  });

  it('options-extra-method: the listed PATCH still answers 405, on items and the collection', () => {
    const s = server(['options-extra-method']);
    const item = s.call('PATCH', '/articles/x');
    expect([item.status, item.headers.allow]).toEqual([405, 'GET, HEAD, PUT, DELETE, PATCH, OPTIONS']);
    expect(s.call('OPTIONS', '/articles').headers.allow).toBe('POST, PATCH, OPTIONS');
    expect(s.call('PATCH', '/articles').status).toBe(405);
    expect(s.call('OPTIONS', '/').headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('put-generated-405: only server-generated ids refuse PUT, with an Allow that omits PUT', () => {
    const s = server(['put-generated-405']);
    s.call('POST', '/articles', articleXml());
    expect(s.call('PUT', '/article/id-1', articleXml()).headers.allow).toBe('GET, HEAD, DELETE, OPTIONS');
    expect(s.call('PUT', '/articles/chosen', articleXml()).status).toBe(201);
    expect(s.call('PUT', '/articles/chosen', articleXml()).status).toBe(200);
  });

  it('post-location-shape: the article is still stored under /articles/<id>', () => {
    const s = server(['post-location-shape']);
    expect(s.call('POST', '/articles', articleXml()).headers.location).toBe('/items/id-1');
    expect(s.call('GET', '/articles/id-1').status).toBe(200);
  });

  it('delete-then-put-resurrects and put-after-delete-200 apply to the first create after a DELETE only', () => {
    const s = server(['delete-then-put-resurrects', 'put-after-delete-200']);
    created(s, '/articles/x', articleXml({ summary: 'old' })).call('DELETE', '/articles/x');
    expect(s.call('PUT', '/articles/y', articleXml()).status).toBe(201);
    const again = s.call('PUT', '/articles/x', articleXml());
    expect([again.status, again.headers.location, elementText(again, 'summary')]).toEqual([200, undefined, 'old']);
    s.call('PUT', '/articles/x', articleXml({ summary: 'new' }));
    expect(elementText(s.call('PUT', '/articles/x', articleXml()), 'summary')).toBeUndefined();
  });

  it('post-reuses-deleted-id: the latest deleted id first, and a fresh id once the deleted ones are used up', () => {
    const s = server(['post-reuses-deleted-id']);
    for (const title of ['a', 'b', 'c']) s.call('POST', '/articles', articleXml({ title }));
    s.call('DELETE', '/articles/id-1');
    s.call('DELETE', '/articles/id-2');
    const locations = ['d', 'e', 'f'].map(
      (title) => s.call('POST', '/articles', articleXml({ title })).headers.location,
    );
    expect(locations).toEqual(['/articles/id-2', '/articles/id-1', '/articles/id-4']);
  });

  it('alias-diverges-after-replace: a PUT through the alias updates its copy; a DELETE of either form drops it', () => {
    const s = server(['alias-diverges-after-replace']);
    s.call('PUT', '/article/x', articleXml({ title: 'One' }));
    s.call('PUT', '/articles/x', articleXml({ title: 'Two' }));
    expect([
      elementText(s.call('GET', '/article/x'), 'title'),
      elementText(s.call('GET', '/articles/x'), 'title'),
    ]).toEqual(['One', 'Two']);
    expect(s.call('HEAD', '/article/x').headers['content-length']).toBe(
      s.call('GET', '/article/x').headers['content-length'],
    );
    s.call('PUT', '/article/x', articleXml({ title: 'Three' }));
    expect(elementText(s.call('GET', '/article/x'), 'title')).toBe('Three');
    s.call('DELETE', '/articles/x');
    expect(s.call('GET', '/article/x').status).toBe(404);
    s.call('PUT', '/articles/x', articleXml({ title: 'Four' }));
    expect(elementText(s.call('GET', '/article/x'), 'title')).toBe('Four');
  });

  it('lost-update: nothing is lost one request at a time; a concurrent DELETE and POST undo each other', async () => {
    const s = server(['lost-update']);
    expect(created(s, '/articles/a').call('POST', '/articles', articleXml()).status).toBe(201);
    expect([
      s.call('DELETE', '/articles/id-1').status,
      s.call('GET', '/articles/a').status,
      s.call('GET', '/articles/id-1').status,
    ]).toEqual([204, 200, 404]);
    const headers = { ...s.basic('bob'), ...XML_BODY };
    const [deleted, posted] = await Promise.all([
      s.sendAsync({ method: 'DELETE', target: '/articles/a', headers, secure: true }),
      s.sendAsync({ method: 'POST', target: '/articles', body: articleXml({ title: 'new' }), headers, secure: true }),
    ]);
    expect([deleted.status, posted.status]).toEqual([204, 201]);
    const stillThere = s.call('GET', '/articles/a').status === 200;
    const newServed = s.call('GET', String(posted.headers.location)).status === 200;
    expect(stillThere === newServed).toBe(true);
  });

  it('price-float loses the fractional part of a whole price', () => {
    const s = created(server(['price-float']), '/articles/x', articleXml({ price: '10.00' }));
    expect(elementText(s.call('GET', '/articles/x'), 'price')).toBe('10');
  });

  it('put-incomplete-merged: a missing title is kept too, the answer is the merged article, POST still refuses', () => {
    const s = created(server(['put-incomplete-merged']), '/articles/x', articleXml({ title: 'Old', summary: 'gone' }));
    const put = s.call('PUT', '/articles/x', '<article><price currency="usd">9.99</price></article>');
    expect([put.status, elementText(put, 'title'), elementText(put, 'price'), elementText(put, 'summary')]).toEqual([
      200,
      'Old',
      '9.99',
      undefined,
    ]);
    expect(/currency="([^"]*)"/.exec(String(s.call('GET', '/articles/x').body))?.[1]).toBe('usd');
    expect(s.call('POST', '/articles', '<article><title>New</title></article>').status).toBe(400);
    expect(s.call('PUT', '/articles/x', '<article><title> </title></article>').status).toBe(400);
  });

  it('put-revision counts the writes of one article, through either path form, and starts again after a DELETE', () => {
    const s = server(['put-revision']);
    const revisions = [
      s.call('PUT', '/articles/x', articleXml()),
      s.call('PUT', '/article/x', articleXml()),
      s.call('PUT', '/articles/x', articleXml()),
      s.call('GET', '/articles/x'),
    ].map((res) => elementText(res, 'revision'));
    expect(revisions).toEqual(['1', '2', '3', '3']);
    s.call('DELETE', '/articles/x');
    expect(elementText(s.call('PUT', '/articles/x', articleXml()), 'revision')).toBe('1');
  });

  it('the value faults apply to POST and to the answer of the write', () => {
    const post = (fault: FaultName, fields: Parameters<typeof articleXml>[0]) => {
      const res = server([fault]).call('POST', '/articles', articleXml(fields));
      return [res.status, elementText(res, 'title'), elementText(res, 'price'), elementText(res, 'summary')];
    };
    expect(post('title-trimmed', { title: '\t\n Hi \n', summary: '\n' })).toEqual([201, 'Hi', '12.50', '']);
    expect(post('title-whitespace-collapsed', { title: '\n a \t\n b ' })).toEqual([201, ' a b ', '12.50', undefined]);
    expect(post('title-nfc', { title: 'A\u030a' })).toEqual([201, '\u00c5', '12.50', undefined]);
    expect(post('title-nfkc', { title: '\uff28\uff49' })).toEqual([201, 'Hi', '12.50', undefined]);
    expect(post('title-bmp-only', { title: '\u{1F600}\u{1F600} \u00e9\u4e2d' })).toEqual([
      201,
      '?? \u00e9\u4e2d',
      '12.50',
      undefined,
    ]);
    expect(post('price-truncated', { price: '-3.999' })).toEqual([201, 'Hello', '-3.99', undefined]);
    expect(post('price-truncated', { price: '3.5' })).toEqual([201, 'Hello', '3.5', undefined]);
  });

  it('oauth2-secret-optional: an unknown id without a secret is still refused', () => {
    const s = server(['oauth2-secret-optional']);
    expect(
      tokenRequest(s, { authorization: null, body: 'grant_type=client_credentials&client_id=nobody' }).status,
    ).toBe(401);
    expect(tokenRequest(s, { authorization: clientBasic('nobody', '') }).status).toBe(401);
    expect(
      tokenRequest(s, { authorization: null, body: 'grant_type=client_credentials&client_id=reporting&client_secret=' })
        .status,
    ).toBe(200);
  });

  it('oauth1-verifier-unchecked: an empty verifier and unapproved temporary credentials are still refused', () => {
    const s = server(['oauth1-verifier-unchecked']);
    const { token } = approved(s);
    expect(
      oauth1Request(s, { method: 'POST', target: '/oauth1/access_token', token, extra: [['oauth_verifier', '']] }).res
        .status,
    ).toBe(401);
    const temporary = formOf(temporaryRequest(s));
    const pending = { key: temporary.oauth_token ?? '', secret: temporary.oauth_token_secret ?? '' };
    expect(
      oauth1Request(s, {
        method: 'POST',
        target: '/oauth1/access_token',
        token: pending,
        extra: [['oauth_verifier', 'x']],
      }).res.status,
    ).toBe(401);
  });

  it("oauth1-temporary-as-token acts for the consumer's user, and still needs the temporary secret", () => {
    const s = server(['oauth1-temporary-as-token']);
    const temporary = formOf(temporaryRequest(s));
    const token = { key: temporary.oauth_token ?? '', secret: temporary.oauth_token_secret ?? '' };
    expect(oauth1Request(s, { target: '/users/bob/financialrecords', token }).res.status).toBe(403);
    expect(oauth1Request(s, { target: RECORDS, token: { ...token, secret: 'wrong' } }).res.status).toBe(401);
  });

  it("oauth1-token-any-consumer acts for the token's user, and leaves temporary credentials bound to their consumer", () => {
    const s = server(['oauth1-token-any-consumer']);
    const other = { key: 'conform-consumer-2', secret: 'consumer secret+/:2' };
    const token = oauth1Tokens(s);
    expect(oauth1Request(s, { target: '/users/bob/financialrecords', token, consumer: other }).res.status).toBe(403);
    expect(
      oauth1Request(s, { target: RECORDS, token, consumer: { key: other.key, secret: CONSUMER.secret } }).res.status,
    ).toBe(401);
    const { token: temporary, verifier } = approved(s);
    expect(
      oauth1Request(s, {
        method: 'POST',
        target: '/oauth1/access_token',
        token: temporary,
        consumer: other,
        extra: [['oauth_verifier', verifier]],
      }).res.status,
    ).toBe(401);
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
    expect((error as Error).message).toMatch(
      /^unknown fault "nope"; valid faults: post-200, .*delete-noop, nonce-unchecked, .*write-digest-unchecked, oauth2-.*oauth2-any-grant, (.*, )?journal-on-exit, nonces-not-journaled, nonce-per-instance, tokens-per-instance, articles-per-instance$/,
    );
  });
});
