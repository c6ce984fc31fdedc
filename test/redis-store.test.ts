/**
 * The reference server's shared store on a real redis-server (test/redis/server.ts): two in-process instances on one
 * Redis behave as one server — a nonce is accepted once across both, even sent to both at the same instant; an
 * article written through one is read, replaced and deleted through the other, and concurrent replaces never mix;
 * OAuth tokens issued or revoked on one hold on the other. Redis down → 503 and nothing stored; Redis back → served
 * again; a Redis that evicts keys is refused at start. Skipped, with the install command, where redis-server is
 * missing.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { RedisEvictionError, type RunningServer } from '../reference-server/src/index.js';
import { it, signedHeaders } from './fixtures.js';
import { redisMissing, startRedis, type RedisServer } from './redis/server.js';

const missing = redisMissing();

interface Answer {
  status: number;
  body: string;
}

async function send(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
  ca?: string,
): Promise<Answer> {
  const { Agent } = await import('undici');
  const dispatcher = ca === undefined ? undefined : new Agent({ connect: { ca } });
  try {
    const res = await request(base + target, {
      method: method as 'GET',
      headers,
      ...(body === undefined ? {} : { body }),
      ...(dispatcher ? { dispatcher } : {}),
    });
    return { status: res.statusCode, body: await res.body.text() };
  } finally {
    await dispatcher?.close();
  }
}

const article = (title: string, price = '1.50') =>
  `<article><title>${title}</title><price currency="eur">${price}</price></article>`;

describe.skipIf(missing !== undefined)(`shared store on redis-server${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });

  const pair = async (
    startReference: (o: object) => Promise<RunningServer>,
    prefix: string,
  ): Promise<[RunningServer, RunningServer]> => [
    await startReference({ redis: { url: redis.url, prefix, instance: 1 } }),
    await startReference({ redis: { url: redis.url, prefix, instance: 2 } }),
  ];

  it('accepts a nonce once across instances, also when sent to both at once', async ({ startReference }) => {
    const [a, b] = await pair(startReference, 'nonce');
    const records = '/users/alice/financialrecords';
    const headers = signedHeaders({ method: 'GET', target: records });
    expect((await send(a.url, 'GET', records, headers)).status).toBe(200);
    expect((await send(b.url, 'GET', records, headers)).status).toBe(401);
    expect((await send(a.url, 'GET', records, headers)).status).toBe(401);
    const once = signedHeaders({ method: 'GET', target: records });
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, k) => send(k % 2 === 0 ? a.url : b.url, 'GET', records, once)),
    );
    expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
    expect(answers.every((x) => x.status === 200 || x.status === 401)).toBe(true);
  });

  it('shares articles: written on one, read, replaced and deleted on the other; concurrent replaces never mix', async ({
    startReference,
  }) => {
    const [a, b] = await pair(startReference, 'articles');
    const path = '/articles/shared-1';
    const put = (base: string, body: string) =>
      send(base, 'PUT', path, signedHeaders({ method: 'PUT', target: path, body }), body);
    expect((await put(a.url, article('one'))).status).toBe(201);
    expect((await send(b.url, 'GET', path)).body).toContain('<title>one</title>');
    expect((await put(b.url, article('two', '2.00'))).status).toBe(200);
    expect((await send(a.url, 'GET', path)).body).toContain('<title>two</title>');
    const writes = await Promise.all(
      Array.from({ length: 12 }, (_, k) => put(k % 2 === 0 ? a.url : b.url, article(`w${k}`, `${k}.25`))),
    );
    expect(writes.every((w) => w.status === 200)).toBe(true);
    const now = (await send(a.url, 'GET', path)).body;
    const k = /<title>w(\d+)<\/title>/.exec(now)?.[1];
    expect(now).toContain(`>${k}.25<`);
    expect((await send(b.url, 'DELETE', path, signedHeaders({ method: 'DELETE', target: path }))).status).toBe(204);
    expect((await send(a.url, 'GET', path)).status).toBe(404);
  });

  it('shares OAuth 2 tokens: issued on one, used on the other; revoked on one, refused on both', async ({
    startReference,
  }) => {
    const [a, b] = await pair(startReference, 'tokens');
    const ca = a.certificate;
    const client = {
      authorization: `Basic ${Buffer.from('reporting:rep-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    };
    const issued = await send(a.httpsUrl!, 'POST', '/oauth2/token', client, 'grant_type=client_credentials', ca);
    expect(issued.status, issued.body).toBe(200);
    const token = (JSON.parse(issued.body) as { access_token: string }).access_token;
    const bearer = { authorization: `Bearer ${token}` };
    expect(
      (await send(b.httpsUrl!, 'GET', '/users/alice/financialrecords', bearer, undefined, b.certificate)).status,
    ).toBe(200);
    expect((await send(b.httpsUrl!, 'POST', '/oauth2/revoke', client, `token=${token}`, b.certificate)).status).toBe(
      200,
    );
    expect((await send(a.httpsUrl!, 'GET', '/users/alice/financialrecords', bearer, undefined, ca)).status).toBe(401);
  });

  it('answers 503 and stores nothing while Redis is down, and serves again once it is back', async ({
    startReference,
  }) => {
    const own = await startRedis();
    try {
      const server = await startReference({ redis: { url: own.url, prefix: 'down', timeoutMs: 500 } });
      const path = '/articles/while-down';
      const body = article('down');
      await own.stop();
      const refused = await send(server.url, 'PUT', path, signedHeaders({ method: 'PUT', target: path, body }), body);
      expect(refused.status).toBe(503);
      const back = await startRedis({ port: own.port });
      try {
        let status = 0;
        for (let tries = 0; tries < 50 && status !== 404; tries++) {
          status = (await send(server.url, 'GET', path)).status;
          if (status !== 404) await new Promise((r) => setTimeout(r, 100));
        }
        expect(status).toBe(404);
        expect(
          (await send(server.url, 'PUT', path, signedHeaders({ method: 'PUT', target: path, body }), body)).status,
        ).toBe(201);
      } finally {
        await back.close();
      }
    } finally {
      await own.close();
    }
  });

  it('refuses to start on a Redis that evicts keys (nonces could be forgotten early)', async ({ startReference }) => {
    const evicting = await startRedis({ extraArgs: ['--maxmemory-policy', 'allkeys-lru'] });
    try {
      await expect(startReference({ redis: { url: evicting.url } })).rejects.toBeInstanceOf(RedisEvictionError);
    } finally {
      await evicting.close();
    }
  });
});
