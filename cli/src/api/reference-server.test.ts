import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type StartedReferenceServer } from './reference-server.js';

const started: StartedReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

/** One request over plain HTTP, resolving to the status. */
function statusOf(url: string, method: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startReferenceServer', () => {
  it('starts both listeners on free loopback ports, with a profile pointing at them, and closes twice safely', async () => {
    const server = await startReferenceServer();
    started.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.certificate).toContain('BEGIN CERTIFICATE');
    expect(server.profile.target).toMatchObject({ http: server.url, https: server.httpsUrl });
    expect(server.profile.auth.oauth2?.ttl).toBe(2);
    expect(await statusOf(`${server.url}/`, 'OPTIONS')).toBe(200);
    await server.close();
    await server.close();
    await expect(statusOf(`${server.url}/`, 'OPTIONS')).rejects.toThrow();
  });

  it('applies variants to the server and to its profile, and the token lifetime asked for', async () => {
    const server = await startReferenceServer({ variants: ['no-client-put'], httpsPort: false, tokenTtl: 30 });
    started.push(server);
    expect(server.httpsUrl).toBeUndefined();
    expect(server.profile.articles.clientChosenPut).toBe(false);
    expect(server.profile.auth.oauth2?.ttl).toBe(30);
  });

  it('refuses an unknown fault or variant by name, before anything listens', async () => {
    await expect(startReferenceServer({ faults: ['no-such-fault'] })).rejects.toThrow(/no-such-fault/);
    await expect(startReferenceServer({ variants: ['no-such-variant'] })).rejects.toThrow(/no-such-variant/);
  });
});
