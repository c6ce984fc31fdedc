/**
 * Last-byte synchronisation (together.ts): every request arrives whole, its answer in its place; a request that
 * cannot connect holds no other back; and a server that checks on arrival and records one turn of its event loop
 * later (the race of issue 37) sees every copy before it records any.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendTogether } from './together.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const SETTINGS = { timeoutMs: 5000, maxBytes: 1 << 20 };

describe('sendTogether', () => {
  it('delivers each request whole (method, path, fields, body) and returns the answers in order', async () => {
    const base = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        res.end(`${req.method} ${req.url} ${req.headers['x-n']} ${Buffer.concat(chunks).toString()}`),
      );
    });
    const requests = [0, 1, 2, 3].map((n) => ({
      method: n % 2 === 0 ? 'GET' : 'PUT',
      url: `${base}/r/${n}?q=${n}`,
      headers: { 'x-n': String(n) },
      ...(n % 2 === 1 ? { body: `body é ${n}` } : {}),
    }));
    const answers = await sendTogether(requests, SETTINGS);
    expect(answers.map((a) => (a.ok ? Buffer.from(a.response.body).toString() : a.error.code))).toEqual([
      'GET /r/0?q=0 0 ',
      'PUT /r/1?q=1 1 body é 1',
      'GET /r/2?q=2 2 ',
      'PUT /r/3?q=3 3 body é 3',
    ]);
  });

  it('a request that cannot connect is an error of its own and holds no other back', async () => {
    const base = await listen((_req, res) => res.end('ok'));
    const closed = await listen(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const answers = await sendTogether(
      [
        { method: 'GET', url: `${base}/a`, headers: {} },
        { method: 'GET', url: `${closed}/b`, headers: {} },
      ],
      SETTINGS,
    );
    expect(answers[0]!.ok).toBe(true);
    expect(answers[1]!.ok ? 'ok' : answers[1]!.error.code).toBe('CONNECTION_REFUSED');
  });

  it('every copy reaches a check-then-record-later server before it records any', async () => {
    let recorded = false;
    const base = await listen((req, res) => {
      req.resume();
      req.on('end', () => {
        const fresh = !recorded;
        setImmediate(() => (recorded = true));
        res.end(fresh ? 'accepted' : 'refused');
      });
    });
    const answers = await sendTogether(
      Array.from({ length: 8 }, () => ({ method: 'GET', url: `${base}/x`, headers: {} })),
      SETTINGS,
    );
    const accepted = answers.filter((a) => a.ok && Buffer.from(a.response.body).toString() === 'accepted');
    expect(accepted.length).toBeGreaterThan(1);
  });
});
