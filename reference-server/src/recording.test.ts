import { describe, expect, it } from 'vitest';
import { exchangeRecorder, type RecordedExchange } from './recording.js';
import { startServer } from './server.js';

describe('the onExchange recorder', () => {
  it('records each answered request: method, target, headers, body, transport, arrival by the injected clock, status, detail', async () => {
    const at = new Date('2026-11-26T14:05:09Z');
    const exchanges: RecordedExchange[] = [];
    const server = await startServer({ now: () => at, onExchange: (ex) => exchanges.push(ex) });
    try {
      expect((await fetch(`${server.url}/articles?x=1`, { method: 'OPTIONS' })).status).toBe(200);
      const refused = await fetch(`${server.url}/users/alice/financialrecords`, {
        method: 'GET',
        headers: { authentication: 'hmac alice:AAAA' },
      });
      expect(refused.status).toBe(401);
      await fetch(`${server.url}/articles`, {
        method: 'POST',
        body: '<article/>',
        headers: { 'content-type': 'application/xml' },
      });
    } finally {
      await server.close();
    }
    expect(exchanges.map((e) => [e.seq, e.method, e.target, e.transport, e.at, e.status])).toEqual([
      [1, 'OPTIONS', '/articles?x=1', 'http', at.getTime(), 200],
      [2, 'GET', '/users/alice/financialrecords', 'http', at.getTime(), 401],
      [3, 'POST', '/articles', 'http', at.getTime(), exchanges[2]?.status],
    ]);
    expect(exchanges[1]?.headers['authentication']).toBe('hmac alice:AAAA');
    expect(exchanges[1]?.detail).toBe(
      'GET /users/alice/financialrecords needs credentials: unknown user or wrong digest',
    );
    expect(exchanges[0]?.detail).toBeUndefined();
    expect(Buffer.from(exchanges[2]?.body ?? []).toString()).toBe('<article/>');
  });

  it('a server without onExchange answers as before', async () => {
    const server = await startServer();
    try {
      expect((await fetch(`${server.url}/articles`, { method: 'OPTIONS' })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("keeps a redirect's Location and a JSON token answer's refresh_token, for the grant rules", () => {
    const exchanges: RecordedExchange[] = [];
    const record = exchangeRecorder((ex) => exchanges.push(ex));
    const req = {
      method: 'GET',
      path: '/oauth2/authorize',
      query: 'x=1',
      headers: {},
      body: new Uint8Array(),
      secure: true,
    };
    const location = 'https://client.example/cb?code=c1';
    record(req, { status: 302, headers: { location } }, 0);
    const json = { 'content-type': 'application/json' };
    record(req, { status: 200, headers: json, body: '{"access_token":"a","refresh_token":"r1"}' }, 0);
    record(req, { status: 200, headers: json, body: '{"access_token":"a"}' }, 0);
    record(req, { status: 400, headers: json, body: '{"error":"invalid_grant","refresh_token":"r2"}' }, 0);
    record(req, { status: 200, headers: { location } }, 0);
    expect(exchanges.map((e) => [e.location, e.refreshToken])).toEqual([
      [location, undefined],
      [undefined, 'r1'],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });
});
