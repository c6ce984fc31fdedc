import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { parse } from 'yaml';
import { startAltServer } from './server.js';
import type { AltServer } from './server.js';

let server: AltServer;
beforeAll(async () => {
  server = await startAltServer();
});
afterAll(async () => {
  await server?.close();
});

// Signing, computed here with node:crypto alone (no harness, no server code).
const SECRETS: Record<string, string> = { carol: 'carol-s', dave: 'dave-s' };
const digestOf = (secret: string, message: string) =>
  createHmac('sha256', secret).update(message, 'utf8').digest('base64');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');
/** `DD Mon YYYY hh:mm:ss`, UTC. */
const specDate = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
};
/** Simple form: `X-Authentication: hmac <user>:<digest>` over `<VERB>+<path>`. */
const simple = (method: string, path: string, user = 'carol', secret = SECRETS[user]!) => ({
  'X-Authentication': `hmac ${user}:${digestOf(secret, `${method}+${path}`)}`,
});
let nonceCounter = BigInt(Date.now()) * 1000n;
const freshNonce = () => String(nonceCounter++);
/** Date-and-nonce form over `<VERB>+<path>+<date_text>+<nonce>` (no body hash, ever). */
const withNonce = (
  method: string,
  path: string,
  o: { user?: string; nonce?: string; date?: string; secret?: string } = {},
) => {
  const user = o.user ?? 'carol';
  const nonce = o.nonce ?? freshNonce();
  const date = o.date ?? specDate(Date.now());
  const message = `${method}+${path}+${date.replaceAll(' ', '').toLowerCase()}+${nonce}`;
  return { 'X-Authentication': `hmac ${user}:${nonce}:${digestOf(o.secret ?? SECRETS[user]!, message)}`, Date: date };
};

const XML = { 'Content-Type': 'application/xml' };
/** Requests are signed (simple form, as carol) unless headers are given. */
const req = (
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = { ...XML, ...simple(method, path) },
) => fetch(server.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
const article = (title: string, price = '12.500', currency = 'eur', extra = '') =>
  `<?xml version="1.0"?><article><title>${title}</title><price currency="${currency}">${price}</price>${extra}</article>`;

/** Decodes a title as an XML reader would: CDATA sections and the references this server writes. */
function titleOf(xml: string): string {
  const inner = /<title>([\s\S]*)<\/title>/.exec(xml)?.[1] ?? '';
  return inner.replace(
    /<!\[CDATA\[([\s\S]*?)\]\]>|&#x([0-9A-F]+);|&#(\d+);|&(amp|lt|gt|apos|quot);|([^<&]+)/g,
    (_m, cd, hex, dec, ent, plain) =>
      cd !== undefined
        ? cd
        : hex
          ? String.fromCodePoint(parseInt(hex, 16))
          : dec
            ? String.fromCodePoint(Number(dec))
            : ent
              ? ({ amp: '&', lt: '<', gt: '>', apos: "'", quot: '"' } as Record<string, string>)[ent]!
              : plain,
  );
}

describe('alt server', () => {
  it('POST creates with 201, empty body and an absolute Location; GET serves the reordered document', async () => {
    const res = await req(
      'POST',
      '/articles',
      article('Caf&#233; &amp; cr&#xE8;me 😀', '007.500', 'eur', '<summary>x</summary>'),
    );
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('');
    const loc = res.headers.get('location')!;
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(loc).toMatch(new RegExp(`^${server.url}/articles/[0-9a-f-]{36}$`));
    const got = await fetch(loc); // reads need no credentials
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    const xml = await got.text();
    expect(xml).toMatch(/<price currency='eur'>7\.5<\/price>\s*<title>/);
    expect(xml).toContain('&#233;');
    expect(xml).toContain('&#x1F600;');
    expect(xml).not.toContain('summary');
    expect(xml).toMatch(/<id>[0-9a-f-]{36}<\/id>/);
    expect(xml).toContain("<link rel='self' href='/articles/");
    expect(/[^\x00-\x7f]/.test(xml)).toBe(false);
    expect(titleOf(xml)).toBe('Café & crème 😀');
  });

  it('PUT creates with 201 and a path Location, replaces with 204, and titles with "<" come back in CDATA', async () => {
    const created = await req('PUT', '/articles/my-slug', article('a &lt; b ]]&gt; é', '7.00'));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/articles/my-slug');
    expect(await created.text()).toBe('');
    let xml = await (await req('GET', '/articles/my-slug')).text();
    expect(xml).toContain('<![CDATA[');
    expect(xml).toContain('>7.0</price>');
    expect(titleOf(xml)).toBe('a < b ]]> é');

    for (let i = 0; i < 2; i++) {
      const replaced = await req('PUT', '/articles/my-slug', article('<![CDATA[plain]]> text', '0.10', 'usd'));
      expect(replaced.status).toBe(204);
      expect(await replaced.text()).toBe('');
    }
    xml = await (await req('GET', '/articles/my-slug')).text();
    expect(xml).not.toContain('CDATA');
    expect(xml).toContain("<price currency='usd'>0.1</price>");
    expect(titleOf(xml)).toBe('plain text');
    expect((await req('PUT', '/article/my-slug', article('x'))).status).toBe(404);
  });

  it('OPTIONS lists methods without spaces (the writes only with credentials); 405 carries Allow; PATCH and unknown tokens are 501', async () => {
    const item = await req('OPTIONS', '/articles/my-slug');
    expect(item.status).toBe(200);
    expect(item.headers.get('allow')).toBe('GET,HEAD,PUT,DELETE,OPTIONS');
    expect(await item.text()).toContain('DELETE');
    expect((await req('OPTIONS', '/articles')).headers.get('allow')).toBe('GET,HEAD,POST,OPTIONS');
    expect((await req('OPTIONS', '/')).headers.get('allow')).toBe('GET,HEAD,OPTIONS');
    for (const headers of [{}, { 'X-Authentication': 'hmac carol:AAAA' }] as Array<Record<string, string>>) {
      const anon = await req('OPTIONS', '/articles/my-slug', undefined, headers);
      expect(anon.status).toBe(200);
      expect(anon.headers.get('allow')).toBe('GET,HEAD,OPTIONS');
      expect((await req('OPTIONS', '/articles', undefined, headers)).headers.get('allow')).toBe('GET,HEAD,OPTIONS');
    }
    expect((await req('OPTIONS', '/elsewhere')).status).toBe(404);

    const post = await req('POST', '/articles/my-slug', article('x'));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET,HEAD,PUT,DELETE,OPTIONS');
    expect(post.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await req('DELETE', '/articles')).status).toBe(405);
    expect((await req('PATCH', '/articles/my-slug', article('x'))).status).toBe(501);

    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(server.url);
      const sock = net.connect(Number(url.port), url.hostname, () =>
        sock.write('FROB /articles HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      let data = '';
      sock.on('data', (c) => (data += c.toString()));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 501 /);
  });

  it('validates: DOCTYPE and malformed XML are 422, wrong media type 415, oversize 413, HEAD mirrors GET', async () => {
    const dtd =
      '<?xml version="1.0"?><!DOCTYPE article [<!ENTITY x "boom">]><article><title>&x;</title><price currency="eur">1.0</price></article>';
    const refused = await req('POST', '/articles', dtd);
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await req('POST', '/articles', '<article><title>x</title>')).status).toBe(422);
    expect((await req('POST', '/articles', article('x', '12'))).status).toBe(422);
    expect((await req('POST', '/articles', article('x', '1.0', 'EUR'))).status).toBe(422);
    expect((await req('POST', '/articles', article(''))).status).toBe(422);
    expect((await req('POST', '/articles', article('x', '1.0', 'eur', '<title>y</title>'))).status).toBe(422);
    expect(
      (
        await req('POST', '/articles', article('x'), {
          'Content-Type': 'application/json',
          ...simple('POST', '/articles'),
        })
      ).status,
    ).toBe(415);
    expect((await req('POST', '/articles', article('x'.repeat(300 * 1024)))).status).toBe(413);

    const get = await req('GET', '/articles/my-slug');
    const head = await req('HEAD', '/articles/my-slug');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
    const list = await req('GET', '/articles');
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("href='/articles/my-slug'");
    const missing = await req('GET', '/articles/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('DELETE answers 200 with a text body and the article is gone', async () => {
    const del = await req('DELETE', '/articles/my-slug');
    expect(del.status).toBe(200);
    expect(del.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await del.text()).trim()).toBe('deleted');
    expect((await req('GET', '/articles/my-slug')).status).toBe(404);
    expect((await req('DELETE', '/articles/my-slug')).status).toBe(404);
  });
});

const VECTORS = parse(readFileSync(new URL('../../specs/vectors/auth.yaml', import.meta.url), 'utf8')) as {
  hmacSimple: Array<{
    name: string;
    user: string;
    secret: string;
    method: string;
    path: string;
    message: string;
    digest: string;
    header: string;
  }>;
  hmacNonce: Array<{
    name: string;
    user: string;
    secret: string;
    method: string;
    path: string;
    date: string;
    nonce: string;
    message: string;
    digest: string;
    header: string;
  }>;
};
const vector = <T extends { name: string }>(list: T[], name: string): T => list.find((v) => v.name === name)!;

describe('alt server: authentication', () => {
  const RECORDS = '/users/carol/financialrecords';
  const CHALLENGE = 'hmac realm="alt", charset="UTF-8"';
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(server.url + path, { method, headers });

  it('agrees with the known-answer vectors (digests computed independently here)', async () => {
    const v = vector(VECTORS.hmacSimple, 'GET on the root');
    expect(`${v.method}+${v.path}`).toBe(v.message);
    expect(digestOf(v.secret, v.message)).toBe(v.digest);
    expect(simple(v.method, v.path, v.user, v.secret)['X-Authentication']).toBe(v.header);
    const n = vector(VECTORS.hmacNonce, 'GET own records');
    expect(
      withNonce(n.method, n.path, { user: n.user, secret: n.secret, nonce: n.nonce, date: n.date })['X-Authentication'],
    ).toBe(n.header);

    // A server that knows the vectors' user, with its clock at the nonce vector's Date.
    const at = Date.UTC(2026, 10, 22, 10, 0, 30);
    const alt = await startAltServer({ users: { [v.user]: v.secret }, now: () => at });
    try {
      const root = await fetch(alt.url + v.path, { headers: { 'X-Authentication': v.header } });
      expect(root.status).toBe(200);
      expect(await root.text()).toContain(`signed in as ${v.user}`);
      // The reference server's header name is not this server's.
      expect((await fetch(alt.url + v.path, { headers: { Authentication: v.header } })).status).toBe(401);

      const headers = { 'X-Authentication': n.header, Date: n.date };
      const records = await fetch(alt.url + n.path, { headers });
      expect(records.status).toBe(200);
      expect(records.headers.get('content-type')).toBe('application/json');
      expect(await records.json()).toEqual({ user: n.user, records: [] });
      expect((await fetch(alt.url + n.path, { headers })).status).toBe(401); // replay
      const old = vector(VECTORS.hmacNonce, 'GET the root, 20-digit nonce beyond 2^53'); // 2012: far outside the window
      expect(
        (await fetch(alt.url + old.path, { headers: { 'X-Authentication': old.header, Date: old.date } })).status,
      ).toBe(401);
    } finally {
      await alt.close();
    }
  });

  it('protected resources answer 401 with a text/plain challenge without valid credentials, and open with them', async () => {
    for (const path of ['/', RECORDS, '/users/nobody/financialrecords']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await get(path, {}, method);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      }
      expect((await get(path, { Authentication: simple('GET', path)['X-Authentication'] })).status).toBe(401);
    }
    expect((await get('/', simple('GET', '/'))).status).toBe(200);
    expect((await get('/', simple('HEAD', '/'), 'HEAD')).status).toBe(200);
    const mine = await get(RECORDS, simple('GET', RECORDS));
    expect(mine.status).toBe(200);
    expect(mine.headers.get('set-cookie')).toBeNull();
    expect(await mine.json()).toEqual({ user: 'carol', records: [] });
    const dave = '/users/dave/financialrecords';
    expect(await (await get(dave, simple('GET', dave, 'dave'))).json()).toEqual({ user: 'dave', records: [] });
    // Another user's records, or a user that does not exist: not found.
    expect((await get(RECORDS, simple('GET', RECORDS, 'dave'))).status).toBe(404);
    expect((await get('/users/nobody/financialrecords', simple('GET', '/users/nobody/financialrecords'))).status).toBe(
      404,
    );
    // No state between requests: the next request without credentials is refused again.
    expect((await get(RECORDS)).status).toBe(401);
  });

  it('the simple form binds verb, path (exactly as sent, query included) and user; the digest must match exactly', async () => {
    const ok = simple('GET', RECORDS)['X-Authentication'];
    expect((await get(RECORDS, { 'X-Authentication': ok.replace(/^hmac/, 'HMAC') })).status).toBe(200);
    expect((await get(RECORDS, { 'X-Authentication': ok.replace(/^hmac /, 'hmac   ') })).status).toBe(200);
    expect((await get(RECORDS, simple('HEAD', RECORDS))).status).toBe(401);
    expect((await get(RECORDS, simple('GET', '/users/dave/financialrecords'))).status).toBe(401);
    expect((await get(RECORDS, simple('GET', RECORDS, 'dave', 'carol-s'))).status).toBe(401);
    expect((await get(RECORDS, simple('GET', RECORDS, 'mallory', 'carol-s'))).status).toBe(401);
    expect((await get(`${RECORDS}?page=%41`, simple('GET', `${RECORDS}?page=%41`))).status).toBe(200);
    expect((await get(`${RECORDS}?page=%41`, simple('GET', RECORDS))).status).toBe(401);
    expect((await get(`${RECORDS}?page=%41`, simple('GET', `${RECORDS}?page=A`))).status).toBe(401);
    const digest = ok.slice(ok.indexOf(':') + 1);
    const flip = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());
    const i = [...digest].findIndex((c) => /[a-zA-Z]/.test(c));
    for (const bad of [
      digest.slice(0, -1),
      digest.slice(0, -2),
      `${digest}=`,
      digest.slice(0, i) + flip(digest[i]!) + digest.slice(i + 1),
      '',
      'x',
    ])
      expect((await get(RECORDS, { 'X-Authentication': `hmac carol:${bad}` })).status).toBe(401);
    for (const bad of [
      'hmac',
      'hmac carol',
      `Basic ${Buffer.from('carol:c:pw').toString('base64')}`,
      `hmacx carol:${digest}`,
      `hmac carol:1:2:${digest}`,
    ])
      expect((await get(RECORDS, { 'X-Authentication': bad })).status).toBe(401);
    expect(
      (await get(RECORDS, { Authorization: `Basic ${Buffer.from('carol:c:pw').toString('base64')}` })).status,
    ).toBe(401);
  });

  it('the nonce form: once only, globally (a nonce carol used is refused for dave), compared as text', async () => {
    const n = freshNonce();
    const first = withNonce('GET', RECORDS, { nonce: n });
    expect((await get(RECORDS, first)).status).toBe(200);
    expect((await get(RECORDS, first)).status).toBe(401);
    expect((await get(RECORDS, withNonce('GET', RECORDS, { nonce: n }))).status).toBe(401); // a new Date does not help
    const dave = '/users/dave/financialrecords';
    expect((await get(dave, withNonce('GET', dave, { user: 'dave', nonce: n }))).status).toBe(401);
    // Leading zeros make another nonce; 20 digits are fine, 21 are not, and neither is anything but digits.
    expect((await get(RECORDS, withNonce('GET', RECORDS, { nonce: `0${n}` }))).status).toBe(200);
    expect((await get(RECORDS, withNonce('GET', RECORDS, { nonce: `00${n}` }))).status).toBe(200);
    const big = `9${freshNonce()}000`.slice(0, 20);
    expect(big).toHaveLength(20);
    expect((await get(RECORDS, withNonce('GET', RECORDS, { nonce: big }))).status).toBe(200);
    expect((await get(RECORDS, withNonce('GET', RECORDS, { nonce: `1${big}` }))).status).toBe(401);
    for (const bad of ['', '12a', '-1', '1.5', ' 1'])
      expect((await get(RECORDS, withNonce('GET', RECORDS, { nonce: bad }))).status).toBe(401);

    // Of 16 identical requests sent together, exactly one is accepted.
    const same = withNonce('GET', RECORDS);
    const statuses = await Promise.all(Array.from({ length: 16 }, () => get(RECORDS, same).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(15);
  });

  it('the nonce form needs a Date of the shape "DD Mon YYYY hh:mm:ss" within 300 s, and the digest covers date and nonce', async () => {
    const { Date: _omit, ...noDate } = withNonce('GET', RECORDS);
    expect((await get(RECORDS, noDate)).status).toBe(401);
    const now = Date.now();
    const oneDigitDay = specDate(now).replace(/^0/, '');
    if (oneDigitDay !== specDate(now))
      expect((await get(RECORDS, withNonce('GET', RECORDS, { date: oneDigitDay }))).status).toBe(200);
    const year = new Date(now).getUTCFullYear();
    const notLeap = year % 4 === 0 ? year + 1 : year; // impossible dates are refused before the window is looked at
    for (const bad of [
      new Date(now).toUTCString(),
      new Date(now).toISOString(),
      specDate(now).toLowerCase(),
      specDate(now).toUpperCase(),
      specDate(now).replace(/:\d\d$/, ''),
      specDate(now).replace(' ', '  '),
      `31 Apr ${year} 10:00:00`,
      `29 Feb ${notLeap} 10:00:00`,
      `00 Jan ${year} 10:00:00`,
      specDate(now).replace(/\d\d:/, '24:'),
      specDate(now).replace(/:\d\d$/, ':60'),
      `${specDate(now)} GMT`,
    ])
      expect((await get(RECORDS, withNonce('GET', RECORDS, { date: bad }))).status, bad).toBe(401);

    for (const skew of [-290, -120, 0, 120, 290])
      expect((await get(RECORDS, withNonce('GET', RECORDS, { date: specDate(now + skew * 1000) }))).status).toBe(200);
    for (const skew of [-86_400, -310, 310, 3600])
      expect((await get(RECORDS, withNonce('GET', RECORDS, { date: specDate(now + skew * 1000) }))).status).toBe(401);

    // Signed over another Date or another nonce than the ones sent.
    const h = withNonce('GET', RECORDS, { date: specDate(now + 1000) });
    expect((await get(RECORDS, { ...h, Date: specDate(now) })).status).toBe(401);
    const other = withNonce('GET', RECORDS)['X-Authentication'].split(':');
    expect(
      (
        await get(RECORDS, {
          ...withNonce('GET', RECORDS),
          'X-Authentication': `${other[0]}:${freshNonce()}:${other[2]}`,
        })
      ).status,
    ).toBe(401);
    // A simple-form digest under a nonce-form header.
    const d = digestOf('carol-s', `GET+${RECORDS}`);
    expect(
      (await get(RECORDS, { 'X-Authentication': `hmac carol:${freshNonce()}:${d}`, Date: specDate(now) })).status,
    ).toBe(401);
  });

  it('article writes need credentials (401, nothing changes); reads stay public; no body hash; OPTIONS takes a nonce too', async () => {
    const body = article('guarded');
    const put = await req('PUT', '/articles/guarded', body, XML);
    expect(put.status).toBe(401);
    expect(put.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(put.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await req('GET', '/articles/guarded', undefined, {})).status).toBe(404);
    const post = await req('POST', '/articles', body, { ...XML, 'X-Authentication': 'hmac carol:bogus' });
    expect(post.status).toBe(401);
    expect(post.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect((await req('POST', '/articles/guarded', body, XML)).status).toBe(405); // never handled here, credentials or not

    // The message is VERB+path(+date+nonce) only: the body is not part of it.
    expect(
      (await req('PUT', '/articles/guarded', body, { ...XML, ...withNonce('PUT', '/articles/guarded') })).status,
    ).toBe(201);
    expect((await req('GET', '/articles/guarded', undefined, {})).status).toBe(200);
    const del = await req('DELETE', '/articles/guarded', undefined, {});
    expect(del.status).toBe(401);
    expect((await req('GET', '/articles/guarded', undefined, {})).status).toBe(200);
    expect((await req('DELETE', '/articles/guarded', undefined, simple('PUT', '/articles/guarded'))).status).toBe(401);

    // A valid nonce-form OPTIONS shows the full list and uses its nonce up.
    const n = freshNonce();
    const opts = await req(
      'OPTIONS',
      '/articles/guarded',
      undefined,
      withNonce('OPTIONS', '/articles/guarded', { nonce: n }),
    );
    expect(opts.headers.get('allow')).toBe('GET,HEAD,PUT,DELETE,OPTIONS');
    expect(
      (await req('DELETE', '/articles/guarded', undefined, withNonce('DELETE', '/articles/guarded', { nonce: n })))
        .status,
    ).toBe(401);
    expect((await req('DELETE', '/articles/guarded', undefined, withNonce('DELETE', '/articles/guarded'))).status).toBe(
      200,
    );
  });

  it('forgets nonces once they cannot matter (max(date, now) + window), and refuses with 503 rather than forget early', async () => {
    let clock = Date.UTC(2030, 0, 1, 12, 0, 0);
    const alt = await startAltServer({ now: () => clock, nonceCap: 3 });
    const at = (path: string, headers: Record<string, string>) => fetch(alt.url + path, { headers }).then((r) => r);
    try {
      const signed = (nonce: string, skew = 0) =>
        withNonce('GET', RECORDS, { nonce, date: specDate(clock + skew * 1000) });
      const early = signed('1', 200); // kept until date + 300 s, i.e. 500 s from now
      expect((await at(RECORDS, early)).status).toBe(200);
      expect((await at(RECORDS, signed('2'))).status).toBe(200);
      expect((await at(RECORDS, signed('3', -200))).status).toBe(200); // kept until now + 300 s
      expect(alt.nonceCount()).toBe(3);
      const full = await at(RECORDS, signed('4'));
      expect(full.status).toBe(503);
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await at(RECORDS, early)).status).toBe(401); // still remembered

      clock += 301_000; // '2' and '3' have expired; '1' (signed 200 s ahead) has not
      expect((await at(RECORDS, signed('4'))).status).toBe(200);
      expect(alt.nonceCount()).toBe(2);
      expect((await at(RECORDS, early)).status).toBe(401); // its Date is now 101 s old, and its nonce still held
      expect((await at(RECORDS, signed('1'))).status).toBe(401);
      expect((await at(RECORDS, signed('2'))).status).toBe(200); // forgotten, and a fresh Date makes it valid again

      clock += 600_000;
      expect((await at(RECORDS, signed('5'))).status).toBe(200);
      expect(alt.nonceCount()).toBe(1);
    } finally {
      await alt.close();
    }
  });
});
