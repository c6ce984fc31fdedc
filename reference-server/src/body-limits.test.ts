/**
 * The body cap at the socket: a declared Content-Length above it is answered 413 at once, with `connection: close`,
 * and a request whose client goes away mid-body gets no answer and reaches no handler. Every server listens on
 * 127.0.0.1, port 0, and is closed after its test; waits are for events (bytes, a close), bounded, never fixed times.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './server.js';
import type { RunningServer, ServerOptions } from './server.js';
import { raw } from '../testkit/raw.js';

let running: RunningServer | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: ServerOptions): Promise<RunningServer> {
  running = await startServer({ port: 0, ...options });
  return running;
}

/** Polls `probe` every 10 ms until it is true; fails after a bound far above the expected time. */
async function until(probe: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !probe(); waited += 10) {
    if (waited > 15_000) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const put = (length: number, body = ''): string =>
  `PUT /articles/a HTTP/1.1\r\nHost: x\r\nContent-Type: application/xml\r\nContent-Length: ${length}\r\n\r\n${body}`;

describe('a declared Content-Length above the cap', () => {
  it('is answered 413 before any of the body is sent, and the answer closes the connection', async () => {
    const server = await start({ maxBodyBytes: 1000 });
    const reply = await raw(server.port, put(1001), (r) => r.endsWith('}'));
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(reply).toContain('request body exceeds 1000 bytes');
  });

  it('lingers after the 413: a client still sending its body reads the answer whole and is not reset', async () => {
    // RFC 9112 §9.6: closing with the body unread would reset the connection, and the answer could be lost.
    const server = await start({ maxBodyBytes: 1000 });
    const outcome = await new Promise<{ reply: string; error?: string }>((resolve) => {
      const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
      let reply = '';
      let more = false;
      socket.setEncoding('utf8');
      socket.on('error', (err: NodeJS.ErrnoException) => resolve({ reply, error: err.code ?? err.message }));
      socket.on('data', (chunk: string) => {
        reply += chunk;
        if (more || !reply.endsWith('}')) return;
        // The whole answer is in, and the server has ended its side: the client goes on with its body (1 MB, more
        // than a socket buffer holds), then ends. A server that closed at once answers these bytes with a reset.
        more = true;
        socket.write('x'.repeat(1 << 20), () => socket.end());
      });
      socket.on('close', () => resolve({ reply }));
      socket.write(put(2_000_000, 'x'.repeat(500)));
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.reply).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('is not refused when it equals the cap: the body is read and judged', async () => {
    const server = await start({ maxBodyBytes: 1000 });
    const reply = await raw(server.port, put(1000, 'x'.repeat(1000)), (r) => /\r\n\r\n[^]*\}$/.test(r));
    expect(reply).toMatch(/^HTTP\/1\.1 401 /);
  });
});

describe('a request aborted mid-body', () => {
  it('gets no answer and reaches no handler', async () => {
    const log: string[] = [];
    const server = await start({ maxBodyBytes: 1000, log: (line) => log.push(line) });
    // Expect: 100-continue tells when the server is reading the body; then the client sends part of it and goes.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      socket.setEncoding('utf8');
      socket.on('error', reject);
      socket.once('data', (chunk: string) => {
        expect(chunk).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
        socket.write('<article>');
        socket.destroy();
        resolve();
      });
      socket.write(put(100).replace('\r\n\r\n', '\r\nExpect: 100-continue\r\n\r\n'));
    });
    await until(() => server.connectionCount() === 0, 'the aborted connection is released');
    const next = await raw(
      server.port,
      'GET /nothing-here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      () => false,
    );
    expect(next).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(log).toEqual([expect.stringMatching(/^GET \/nothing-here \d{3}$/)]);
  });
});
