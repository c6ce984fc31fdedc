/**
 * Issue 22: idle connections cannot take the server down. Each test starts its own server on 127.0.0.1, port 0, with
 * short timeouts, and waits for events (an answer, a close, the server's count of open connections) with a bound —
 * never for a fixed time. The per-client caps need clients on distinct loopback addresses (127.0.0.2, 127.0.0.3),
 * which Linux routes to the loopback interface.
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './server.js';
import type { RunningServer, ServerOptions } from './server.js';

let running: RunningServer | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await running?.close();
  running = undefined;
});

async function start(options: ServerOptions): Promise<RunningServer> {
  running = await startServer({ port: 0, httpsPort: 0, ...options });
  return running;
}

/** Polls `probe` every 10 ms until it is true; fails after `boundMs` (a bound far above the expected time). */
async function until(probe: () => boolean, what: string, boundMs = 15_000): Promise<void> {
  for (let waited = 0; !probe(); waited += 10) {
    if (waited > boundMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A raw client that keeps its end open (never sends FIN) and records what it receives and whether the server closed. */
interface Peer {
  socket: Socket;
  received: () => string;
  /** The server sent FIN (or reset): nothing more will come. */
  ended: Promise<void>;
}

function peer(port: number, localAddress?: string): Promise<Peer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true, ...(localAddress ? { localAddress } : {}) });
    sockets.push(socket);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    const ended = new Promise<void>((done) => {
      socket.once('end', done);
      socket.once('close', done);
    });
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => data, ended }));
    socket.once('error', reject);
  });
}

/** Whether this machine routes 127.0.0.2 to loopback (Linux does; macOS only with an alias). */
const otherLoopback = await new Promise<boolean>((resolve) => {
  const probe = connect({ port: 9, host: '127.0.0.1', localAddress: '127.0.0.2' });
  probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'EADDRNOTAVAIL'));
  probe.once('connect', () => {
    probe.destroy();
    resolve(true);
  });
});

describe('idle connections', () => {
  it('an idle plain connection gets 408 and its descriptor is released while the client keeps its end open', async () => {
    const server = await start({ requestTimeoutMs: 200, lingerMs: 200 });
    const peers = await Promise.all(Array.from({ length: 20 }, () => peer(server.port)));
    await until(() => server.connectionCount() === 20, 'the server has accepted all 20');
    await Promise.all(peers.map((p) => p.ended));
    for (const p of peers) expect(p.received()).toMatch(/^HTTP\/1\.1 408 /);
    // The clients never closed their side, yet the server holds no descriptor for them.
    for (const p of peers) expect(p.socket.writable).toBe(true);
    await until(() => server.connectionCount() === 0, 'every idle connection is released');
  });

  it('a request that trickles in past the request timeout gets 408 and is released too', async () => {
    const server = await start({ requestTimeoutMs: 200, lingerMs: 200 });
    const p = await peer(server.port);
    p.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await p.ended;
    expect(p.received()).toMatch(/^HTTP\/1\.1 408 /);
    await until(() => server.connectionCount() === 0, 'the connection is released');
  });

  it('a TLS connection that never sends a ClientHello is closed at the handshake timeout', async () => {
    const server = await start({ handshakeTimeoutMs: 200 });
    const peers = await Promise.all(Array.from({ length: 10 }, () => peer(server.httpsPort!)));
    await Promise.all(peers.map((p) => p.ended));
    for (const p of peers) expect(p.received()).toBe('');
    await until(() => server.connectionCount() === 0, 'every silent TLS connection is released');
  });

  it('a TLS connection closed by its client before the handshake is released, and so is one that sent plain HTTP', async () => {
    const server = await start({ handshakeTimeoutMs: 60_000 });
    const quiet = await peer(server.httpsPort!);
    const plain = await peer(server.httpsPort!);
    plain.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await plain.ended;
    quiet.socket.end();
    await until(() => server.connectionCount() === 0, 'both pre-handshake connections are released');
  });

  it('after the handshake timeout has passed, a client that then closes leaves nothing behind (no CLOSE-WAIT)', async () => {
    const server = await start({ handshakeTimeoutMs: 200 });
    const p = await peer(server.httpsPort!);
    await p.ended;
    p.socket.end();
    await until(() => server.connectionCount() === 0, 'the connection is released');
  });

  it('TLS clients that finish their handshake are served as before', async () => {
    const server = await start({ handshakeTimeoutMs: 200 });
    const status = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect(
        { port: server.httpsPort!, host: '127.0.0.1', ca: server.certificate, servername: 'localhost' },
        () => {
          socket.write('GET /articles/none HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
        },
      );
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (data += chunk));
      socket.on('end', () => resolve(data.split('\r\n')[0] ?? ''));
      socket.on('error', reject);
    });
    expect(status).toBe('HTTP/1.1 404 Not Found');
  });
});

describe.skipIf(!otherLoopback)('connection caps (clients on 127.0.0.2 and 127.0.0.3)', () => {
  it('one client over its cap gets 503 with Retry-After on plain HTTP; another client is still served', async () => {
    const server = await start({ maxConnectionsPerClient: 5, maxConnections: 100 });
    const hog = await Promise.all(Array.from({ length: 5 }, () => peer(server.port, '127.0.0.2')));
    const over = await peer(server.port, '127.0.0.2');
    await over.ended;
    expect(over.received()).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(over.received()).toMatch(/\r\nRetry-After: 1\r\n/);
    expect(over.received()).toContain('too many open connections from this address');
    const other = await request(`${server.url}/articles/none`, { localAddress: '127.0.0.3' } as Parameters<
      typeof request
    >[1]);
    await other.body.dump();
    expect(other.statusCode).toBe(404);
    // The hog's own connections are untouched: one of them still gets an answer.
    hog[0]!.socket.write('GET /articles/none HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await hog[0]!.ended;
    expect(hog[0]!.received()).toMatch(/^HTTP\/1\.1 404 /);
  });

  it('over the per-client cap on TLS, the connection is closed at once', async () => {
    const server = await start({ maxConnectionsPerClient: 3, maxConnections: 100, handshakeTimeoutMs: 60_000 });
    await Promise.all(Array.from({ length: 3 }, () => peer(server.httpsPort!, '127.0.0.2')));
    const over = await peer(server.httpsPort!, '127.0.0.2');
    await over.ended;
    expect(over.received()).toBe('');
    const other = await peer(server.httpsPort!, '127.0.0.3');
    expect(other.socket.destroyed).toBe(false);
  });

  it('at the process cap every new connection gets 503, whoever it comes from, until one closes', async () => {
    const server = await start({ maxConnectionsPerClient: 100, maxConnections: 4, lingerMs: 200 });
    const held = await Promise.all(Array.from({ length: 4 }, () => peer(server.port, '127.0.0.2')));
    const over = await peer(server.port, '127.0.0.3');
    await over.ended;
    expect(over.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(over.received()).toContain('too many open connections; retry later');
    held[0]!.socket.destroy();
    await until(() => server.connectionCount() < 4, 'a held connection is released');
    const res = await request(`${server.url}/articles/none`, { localAddress: '127.0.0.3' } as Parameters<
      typeof request
    >[1]);
    await res.body.dump();
    expect(res.statusCode).toBe(404);
  });
});

describe('CONNECT and Host', () => {
  /** Sends `data` on a fresh connection and resolves with everything received until the server closes it. */
  async function exchange(port: number, data: string): Promise<string> {
    const p = await peer(port);
    p.socket.write(data);
    await p.ended;
    return p.received();
  }

  it('CONNECT is answered 405 with Allow, not dropped', async () => {
    const server = await start({ lingerMs: 200 });
    const authority = await exchange(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(authority).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(authority).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
    const origin = await exchange(server.port, 'CONNECT /articles HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(origin).toMatch(/^HTTP\/1\.1 405 /);
    expect(origin).toMatch(/\r\nallow: [A-Z]+/i);
  });

  it.each([
    ['two Host fields', 'Host: 127.0.0.1\r\nHost: evil.example\r\n'],
    ['a space inside', 'Host: a b\r\n'],
    ['a path', 'Host: 127.0.0.1/evil\r\n'],
    ['userinfo', 'Host: user@127.0.0.1\r\n'],
    ['a port that is not digits', 'Host: 127.0.0.1:80a\r\n'],
  ])('a Host with %s gets 400 (RFC 9112 §3.2)', async (_what, host) => {
    const server = await start({ lingerMs: 200 });
    const answer = await exchange(server.port, `GET /articles/none HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });
});
