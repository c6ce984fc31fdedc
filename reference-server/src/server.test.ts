import { Readable } from 'node:stream';
import { Client, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveServerOptions, startServer } from './server.js';
import type { RunningServer } from './server.js';
import { articleXml, signAs } from '../testkit/index.js';
import { raw } from '../testkit/raw.js';

/** Simple-form hmac headers of alice for one request (body hash included for PUT and POST). */
function alice(method: string, target: string, body = ''): { authentication: string } {
  return signAs({ method, target, body });
}

let running: RunningServer | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  running = await startServer({ port: 0, ...options });
  return running;
}

describe('startServer', () => {
  it('listens on 127.0.0.1 at a free port and serves articles', async () => {
    const server = await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const headers = { 'content-type': 'application/xml', ...alice('POST', '/articles', articleXml()) };
    const post = await request(`${server.url}/articles`, { method: 'POST', body: articleXml(), headers });
    expect(post.statusCode).toBe(201);
    const location = String(post.headers.location);
    expect(location).toMatch(/^\/articles\/[0-9a-f]{16}$/);
    const body = await post.body.text();
    const get = await request(`${server.url}${location}`);
    expect([get.statusCode, await get.body.text()]).toEqual([200, body]);
  });

  it('answers 413 from Content-Length without reading the body', async () => {
    const server = await start({ maxBodyBytes: 1000 });
    const res = await request(`${server.url}/articles`, { method: 'POST', body: 'x'.repeat(200_000) });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(await res.body.text())).toMatchObject({ status: 413, detail: 'request body exceeds 1000 bytes' });
  });

  it('answers 413 to a chunked body once it passes the cap', async () => {
    const server = await start({ maxBodyBytes: 1000 });
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 100; i++) yield Buffer.alloc(1000, 0x61);
    }
    const res = await request(`${server.url}/articles/a`, { method: 'PUT', body: Readable.from(chunks()) });
    expect(res.statusCode).toBe(413);
    await res.body.dump();
  });

  it('answers 413 to Expect: 100-continue without asking for the body', async () => {
    const server = await start({ maxBodyBytes: 10 });
    const reply = await raw(
      server.port,
      'PUT /articles/a HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n',
      (r) => r.endsWith('}'),
    );
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).not.toContain('100 Continue');
  });

  it('keeps connections alive and sends no body for HEAD', async () => {
    const server = await start();
    const head = `HEAD / HTTP/1.1\r\nHost: x\r\nAuthentication: ${alice('HEAD', '/').authentication}\r\n\r\n`;
    const get = `GET / HTTP/1.1\r\nHost: x\r\nAuthentication: ${alice('GET', '/').authentication}\r\n\r\n`;
    const reply = await raw(server.port, head + get, (r) => r.endsWith('</service>'));
    const responses = reply.split(/(?=HTTP\/1\.1 )/);
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*content-length: 87\r\n[^]*\r\n\r\n$/);
    expect(responses[1]).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\n<\?xml [^]*<\/service>$/);
  });

  it('answers 405 with Allow to a method the HTTP parser rejects (as the handler does) and keeps serving', async () => {
    const server = await start();
    const reply = await raw(server.port, 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', () => false);
    expect(reply).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n[^]*allow: GET, HEAD, OPTIONS\r\n/);
    expect(reply).toContain('method FOO is not implemented by this server');
    const collection = await raw(server.port, 'BREW http://x/articles?q=1 HTTP/1.1\r\nHost: x\r\n\r\n', () => false);
    expect(collection).toMatch(/^HTTP\/1\.1 405 [^]*allow: OPTIONS\r\n/);
    const token = await raw(server.port, 'BREW /oauth2/token HTTP/1.1\r\nHost: x\r\n\r\n', () => false);
    expect(token).toMatch(/^HTTP\/1\.1 405 [^]*allow: POST, OPTIONS\r\n/);
    expect((await request(`${server.url}/`, { headers: alice('GET', '/') })).statusCode).toBe(200);
  });

  it('keeps serving after an unexpected error', async () => {
    const server = await start({
      newId: () => {
        throw new Error('boom');
      },
    });
    const res = await request(`${server.url}/articles`, {
      method: 'POST',
      body: articleXml(),
      headers: alice('POST', '/articles', articleXml()),
    });
    expect(res.statusCode).toBe(500);
    await res.body.dump();
    expect((await request(`${server.url}/`, { headers: alice('GET', '/') })).statusCode).toBe(200);
  });

  it('logs one line per request', async () => {
    const lines: string[] = [];
    const server = await start({ log: (line) => lines.push(line) });
    await (await request(`${server.url}/nowhere?q=1`)).body.dump();
    expect(lines).toEqual(['GET /nowhere?q=1 404']);
  });

  it('close() returns promptly with an idle keep-alive connection open, and twice', async () => {
    // Kept alive for a minute: a close that waited for it would take that long; a prompt one, well under.
    const server = await start({ keepAliveTimeoutMs: 60_000 });
    const client = new Client(server.url);
    try {
      const res = await client.request({ method: 'GET', path: '/', headers: alice('GET', '/') });
      await res.body.text();
      const began = Date.now();
      await server.close();
      await server.close();
      expect(Date.now() - began).toBeLessThan(30_000);
    } finally {
      await client.destroy();
    }
  });
});

describe('limits (README "Limits")', () => {
  it('answers 431 to a request head over maxHeaderBytes and serves one under it', async () => {
    const server = await start({ maxHeaderBytes: 2048 });
    const big = await raw(server.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(3000)}\r\n\r\n`, (r) =>
      r.includes('\r\n\r\n'),
    );
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    const small = await request(`${server.url}/articles/none`, { headers: { 'x-pad': 'a'.repeat(1500) } });
    expect(small.statusCode).toBe(404);
    await small.body.dump();
  });

  it('drops no header field, however many (a credential repeated after 2,500 fields is still seen)', async () => {
    const server = await start();
    const auth = alice('GET', '/').authentication;
    const filler = Array.from({ length: 2500 }, (_, i) => `x${i}: 1\r\n`).join('');
    const once = await raw(
      server.port,
      `GET / HTTP/1.1\r\nHost: x\r\nAuthentication: ${auth}\r\n${filler}Connection: close\r\n\r\n`,
      () => false,
    );
    expect(once).toMatch(/^HTTP\/1\.1 200 /);
    const twice = await raw(
      server.port,
      `GET / HTTP/1.1\r\nHost: x\r\nAuthentication: ${auth}\r\n${filler}Authentication: ${auth}\r\nConnection: close\r\n\r\n`,
      () => false,
    );
    expect(twice).toMatch(/^HTTP\/1\.1 401 /); // node's default count limit would have dropped the second one: 200
  });

  it('answers 408 and closes when a request is not complete within requestTimeoutMs', async () => {
    const server = await start({ requestTimeoutMs: 200 });
    const reply = await raw(
      server.port,
      'PUT /articles/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc',
      () => false,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after keepAliveTimeoutMs', async () => {
    const server = await start({ keepAliveTimeoutMs: 200 });
    const reply = await raw(server.port, 'GET /articles/none HTTP/1.1\r\nHost: x\r\n\r\n', () => false);
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    expect(reply).toMatch(/keep-alive/i);
  });

  it('refuses limits that are not positive integers', () => {
    for (const bad of [{ maxHeaderBytes: 0 }, { requestTimeoutMs: 1.5 }, { keepAliveTimeoutMs: -1 }])
      expect(() => resolveServerOptions(bad)).toThrow(RangeError);
  });
});

describe('resolveServerOptions', () => {
  it('refuses a window or nonce capacity that cannot work', () => {
    expect(() => resolveServerOptions({ window: 0 })).toThrow(RangeError);
    expect(() => resolveServerOptions({ nonceCapacity: 1.5 })).toThrow(RangeError);
  });

  it('fills in every default', () => {
    const resolved = resolveServerOptions();
    expect(resolved).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: 65536,
      maxArticles: 10000,
      window: 600,
      bodyHash: true,
      nonceCapacity: 1_000_000,
    });
    expect(resolved).toMatchObject({
      maxHeaderBytes: 16384,
      requestTimeoutMs: 5000,
      keepAliveTimeoutMs: 5000,
      tokenCapacity: 100_000,
    });
    expect(resolved.dataDir).toBeUndefined();
    expect(resolved.users.map((u) => [u.name, u.password, u.secret])).toEqual([
      ['alice', 'wonder:land', 'alice-secret-1'],
      ['bob', 'builder', 'bob-secret-2'],
      ['carol', 'pä:ss wörd✓', 'carol-secret-3'],
    ]);
    expect(resolved.httpsPort).toBeUndefined();
    expect(resolved.tls).toBeUndefined();
    expect([...resolved.faults]).toEqual([]);
    expect(resolved.newId()).toMatch(/^[0-9a-f]{16}$/);
  });
});
