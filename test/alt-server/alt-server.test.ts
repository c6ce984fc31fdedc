import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { startAltServer } from './server.js';
import type { AltServer } from './server.js';

let server: AltServer;
beforeAll(async () => {
  server = await startAltServer();
});
afterAll(async () => {
  await server?.close();
});

const XML = { 'Content-Type': 'application/xml' };
const req = (method: string, path: string, body?: string, headers: Record<string, string> = XML) =>
  fetch(server.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
const article = (title: string, price = '12.500', currency = 'eur', extra = '') =>
  `<?xml version="1.0"?><article><title>${title}</title><price currency="${currency}">${price}</price>${extra}</article>`;

/** Decodes a title as an XML reader would: CDATA sections and the references this server writes. */
function titleOf(xml: string): string {
  const inner = /<title>([\s\S]*)<\/title>/.exec(xml)?.[1] ?? '';
  return inner.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|&#x([0-9A-F]+);|&#(\d+);|&(amp|lt|gt|apos|quot);|([^<&]+)/g, (_m, cd, hex, dec, ent, plain) =>
    cd !== undefined ? cd : hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : ent ? ({ amp: '&', lt: '<', gt: '>', apos: "'", quot: '"' } as Record<string, string>)[ent]! : plain,
  );
}

describe('alt server', () => {
  it('POST creates with 201, empty body and an absolute Location; GET serves the reordered document', async () => {
    const res = await req('POST', '/articles', article('Caf&#233; &amp; cr&#xE8;me 😀', '007.500', 'eur', '<summary>x</summary>'));
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('');
    const loc = res.headers.get('location')!;
    expect(loc).toMatch(new RegExp(`^${server.url}/articles/[0-9a-f-]{36}$`));
    const got = await fetch(loc);
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

  it('OPTIONS lists methods without spaces; 405 carries Allow; PATCH and unknown tokens are 501', async () => {
    const item = await req('OPTIONS', '/articles/my-slug');
    expect(item.status).toBe(200);
    expect(item.headers.get('allow')).toBe('GET,HEAD,PUT,DELETE,OPTIONS');
    expect(await item.text()).toContain('DELETE');
    expect((await req('OPTIONS', '/articles')).headers.get('allow')).toBe('GET,HEAD,POST,OPTIONS');
    expect((await req('OPTIONS', '/')).headers.get('allow')).toBe('GET,HEAD,OPTIONS');
    expect((await req('OPTIONS', '/elsewhere')).status).toBe(404);

    const post = await req('POST', '/articles/my-slug', article('x'));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET,HEAD,PUT,DELETE,OPTIONS');
    expect(post.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await req('DELETE', '/articles')).status).toBe(405);
    expect((await req('PATCH', '/articles/my-slug', article('x'))).status).toBe(501);

    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(server.url);
      const sock = net.connect(Number(url.port), url.hostname, () => sock.write('FROB /articles HTTP/1.1\r\nHost: x\r\n\r\n'));
      let data = '';
      sock.on('data', (c) => (data += c.toString()));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 501 /);
  });

  it('validates: DOCTYPE and malformed XML are 422, wrong media type 415, oversize 413, HEAD mirrors GET', async () => {
    const dtd = '<?xml version="1.0"?><!DOCTYPE article [<!ENTITY x "boom">]><article><title>&x;</title><price currency="eur">1.0</price></article>';
    const refused = await req('POST', '/articles', dtd);
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await req('POST', '/articles', '<article><title>x</title>')).status).toBe(422);
    expect((await req('POST', '/articles', article('x', '12'))).status).toBe(422);
    expect((await req('POST', '/articles', article('x', '1.0', 'EUR'))).status).toBe(422);
    expect((await req('POST', '/articles', article(''))).status).toBe(422);
    expect((await req('POST', '/articles', article('x', '1.0', 'eur', '<title>y</title>'))).status).toBe(422);
    expect((await req('POST', '/articles', article('x'), { 'Content-Type': 'application/json' })).status).toBe(415);
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
