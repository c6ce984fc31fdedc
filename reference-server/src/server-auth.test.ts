/** Authentication through real sockets: the TLS listener, shared state, concurrency and per-connection state. */
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:net';
import { Agent, Client, request } from 'undici';
import type { Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { basicAuthorization } from './auth/sign.js';
import { startServer } from './server.js';
import type { RunningServer, ServerOptions } from './server.js';
import { generateSelfSignedCertificate } from './tls/certificate.js';
import { articleXml, signAs } from '../testkit/index.js';

const RECORDS = '/users/alice/financialrecords';
const started: RunningServer[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function start(options: ServerOptions = {}): Promise<RunningServer> {
  const server = await startServer({ host: '127.0.0.1', port: 0, ...options });
  started.push(server);
  return server;
}

function trusting(ca: string): Agent {
  const agent = new Agent({ connect: { ca } });
  closers.push(() => agent.close());
  return agent;
}

async function status(
  url: string,
  options: {
    method?: Dispatcher.HttpMethod;
    headers?: Record<string, string>;
    body?: string;
    dispatcher?: Dispatcher;
  } = {},
): Promise<number> {
  const res = await request(url, options);
  await res.body.dump();
  return res.statusCode;
}

function nonceHeaders(method: string, target: string, nonce: string): Record<string, string> {
  const signed = signAs({ method, target, nonce, date: new Date() });
  return { authentication: signed.authentication, date: signed.date ?? '' };
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

describe('TLS listener', () => {
  it('serves with a generated certificate for 127.0.0.1 that clients can trust', async () => {
    const server = await start({ httpsPort: 0 });
    expect(server.httpsUrl).toBe(`https://127.0.0.1:${server.httpsPort}`);
    const pem = server.certificate ?? '';
    const x509 = new X509Certificate(pem);
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    const dispatcher = trusting(pem);
    const basic = { authorization: basicAuthorization('alice', 'wonder:land') };
    expect(await status(`${server.httpsUrl}${RECORDS}`, { headers: basic, dispatcher })).toBe(200);
    expect(await status(`${server.url}${RECORDS}`, { headers: basic })).toBe(401);
    const challenge = await request(`${server.httpsUrl}/`, { dispatcher });
    await challenge.body.dump();
    expect([challenge.statusCode, challenge.headers['www-authenticate']]).toEqual([
      401,
      'hmac realm="conform", Basic realm="conform", charset="UTF-8", Bearer realm="conform", OAuth realm="conform"',
    ]);
    const plain = await request(`${server.url}/`);
    await plain.body.dump();
    expect(plain.headers['www-authenticate']).toBe('hmac realm="conform"');
  });

  it('shares one state between listeners: articles and nonces', async () => {
    const server = await start({ httpsPort: 0 });
    const dispatcher = trusting(server.certificate ?? '');
    const basic = { authorization: basicAuthorization('bob', 'builder'), 'content-type': 'application/xml' };
    expect(
      await status(`${server.httpsUrl}/articles/shared`, {
        method: 'PUT',
        body: articleXml(),
        headers: basic,
        dispatcher,
      }),
    ).toBe(201);
    expect(await status(`${server.url}/articles/shared`)).toBe(200);
    const headers = nonceHeaders('GET', RECORDS, '123');
    expect(await status(`${server.url}${RECORDS}`, { headers })).toBe(200);
    expect(await status(`${server.httpsUrl}${RECORDS}`, { headers, dispatcher })).toBe(401);
    expect(server.nonceCount()).toBe(1);
  });

  it('uses a given certificate, and close() closes both listeners', async () => {
    const tls = generateSelfSignedCertificate();
    const server = await start({ httpsPort: 0, tls });
    expect(server.certificate).toBe(tls.cert);
    expect(await status(`${server.httpsUrl}/articles/none`, { dispatcher: trusting(tls.cert) })).toBe(404);
    await server.close();
    expect([await refused(server.port), await refused(server.httpsPort ?? 0)]).toEqual([true, true]);
  });

  it('without httpsPort there is no TLS listener', async () => {
    const server = await start();
    expect([server.httpsUrl, server.httpsPort, server.certificate]).toEqual([undefined, undefined, undefined]);
  });
});

describe('nonces through sockets', () => {
  /** Sends N identical signed requests at once, each on its own connection; returns the statuses. */
  async function burst(server: RunningServer, n: number): Promise<number[]> {
    const headers = nonceHeaders('GET', RECORDS, '777');
    const clients = Array.from({ length: n }, () => new Client(server.url));
    try {
      await Promise.all(clients.map((c) => c.request({ method: 'OPTIONS', path: '/' }).then((r) => r.body.dump())));
      const responses = await Promise.all(clients.map((c) => c.request({ method: 'GET', path: RECORDS, headers })));
      await Promise.all(responses.map((r) => r.body.dump()));
      return responses.map((r) => r.statusCode);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }

  it('of 16 identical concurrent signed requests exactly one is accepted', async () => {
    const statuses = await burst(await start(), 16);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(15);
  });

  it('under nonce-race several are accepted', async () => {
    const statuses = await burst(await start({ faults: ['nonce-race'] }), 16);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(1);
  });
});

describe('per-connection state', () => {
  async function sameConnection(server: RunningServer): Promise<number[]> {
    const client = new Client(server.url);
    try {
      const first = await client.request({
        method: 'GET',
        path: RECORDS,
        headers: { ...signAs({ method: 'GET', target: RECORDS }) },
      });
      await first.body.dump();
      const second = await client.request({ method: 'GET', path: RECORDS });
      await second.body.dump();
      return [first.statusCode, second.statusCode];
    } finally {
      await client.close();
    }
  }

  it('a correct server remembers nothing on a keep-alive connection', async () => {
    expect(await sameConnection(await start())).toEqual([200, 401]);
  });

  it('connection-remembers treats the later request as the same user', async () => {
    expect(await sameConnection(await start({ faults: ['connection-remembers'] }))).toEqual([200, 200]);
  });
});
