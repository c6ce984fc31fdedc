/**
 * Small misbehaving HTTP targets for the hostile-target tests, over raw `node:net` (and `node:tls`) so a test can
 * send anything at all: nothing, half a status line, garbage, an endless body, a reset. Every server binds
 * 127.0.0.1 on port 0, tracks its sockets and timers, and `close()` destroys them all.
 */
import net from 'node:net';
import tls from 'node:tls';

export interface ReceivedRequest {
  method: string;
  path: string;
}

export interface Exchange {
  socket: net.Socket;
  request: ReceivedRequest;
  /** setInterval whose timer is cleared when the socket closes or the server closes. */
  every(ms: number, fn: () => void): void;
  /** Writes a well-formed response (Content-Length framing). */
  respond(status: number, headers?: Record<string, string>, body?: string): void;
}

/** What the target does with one parsed request. */
export type Misbehaviour = (x: Exchange) => void;

export interface HostileOptions {
  /**
   * Answer every OPTIONS request (the harness's reachability probe, `options/collection-allow`) properly with
   * `200 OK` and an `Allow` header, and misbehave only on the other methods. Default true.
   */
  answerOptions?: boolean;
}

export interface HostileServer {
  url: string;
  port: number;
  /** Every request head the server parsed, in order. */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  302: 'Found',
  404: 'Not Found',
};

export function writeResponse(
  socket: net.Socket,
  status: number,
  headers: Record<string, string> = {},
  body = '',
): void {
  const lines = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Status'}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  if (!socket.destroyed) socket.write(lines.join('\r\n') + '\r\n\r\n' + body);
}

/** A server that parses HTTP/1.1 requests (head + Content-Length body) and hands each to `misbehave`. */
export function startHostile(misbehave: Misbehaviour, options: HostileOptions = {}): Promise<HostileServer> {
  return listen(net.createServer(), misbehave, options, 'http');
}

/** The same over TLS with the given certificate (which the harness should not trust). */
export function startHostileTls(
  credentials: { cert: string; key: string },
  misbehave: Misbehaviour,
  options: HostileOptions = {},
): Promise<HostileServer> {
  return listen(
    tls.createServer({ cert: credentials.cert, key: credentials.key }),
    misbehave,
    options,
    'https',
    'secureConnection',
  );
}

/** A plain TCP server (no HTTP, no TLS): `onConnection` decides what each accepted socket gets. */
export function startRawTcp(
  onConnection: (socket: net.Socket) => void,
): Promise<HostileServer & { connections: () => number }> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        requests: [],
        connections: () => count,
        close: () => closeAll(server, sockets, new Set()),
      });
    });
  });
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

function listen(
  server: net.Server,
  misbehave: Misbehaviour,
  options: HostileOptions,
  scheme: 'http' | 'https',
  event = 'connection',
): Promise<HostileServer> {
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: ReceivedRequest[] = [];
  const answerOptions = options.answerOptions ?? true;
  server.on('error', () => {});
  // TLS handshake failures (a client that does not trust the certificate) must not crash the test process.
  server.on('tlsClientError', () => {});
  server.on(event, (socket: net.Socket) => {
    sockets.add(socket);
    const own = new Set<NodeJS.Timeout>();
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      for (const t of own) {
        clearInterval(t);
        timers.delete(t);
      }
    });
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const [requestLine = '', ...headerLines] = head.split('\r\n');
        const length = Number(/^content-length:\s*(\d+)/im.exec(headerLines.join('\n'))?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        const [method = '', path = ''] = requestLine.split(' ');
        const request = { method, path };
        requests.push(request);
        if (answerOptions && method === 'OPTIONS') {
          writeResponse(socket, 200, { Allow: 'GET, HEAD, POST, PUT, DELETE, OPTIONS' });
          continue;
        }
        misbehave({
          socket,
          request,
          every: (ms, fn) => {
            const t = setInterval(() => {
              if (socket.destroyed) return;
              fn();
            }, ms);
            own.add(t);
            timers.add(t);
          },
          respond: (status, headers, body) => writeResponse(socket, status, headers, body),
        });
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({ url: `${scheme}://127.0.0.1:${port}`, port, requests, close: () => closeAll(server, sockets, timers) });
    });
  });
}

function closeAll(server: net.Server, sockets: Set<net.Socket>, timers: Set<NodeJS.Timeout>): Promise<void> {
  for (const t of timers) clearInterval(t);
  timers.clear();
  for (const s of sockets) s.destroy();
  sockets.clear();
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
  });
}

/** Writes as fast as the socket drains, forever (until the peer goes away): an endless chunked body. */
export function pumpForever(socket: net.Socket, chunk: Buffer, framing: 'chunked' | 'raw'): void {
  const piece =
    framing === 'chunked'
      ? Buffer.concat([Buffer.from(chunk.length.toString(16) + '\r\n'), chunk, Buffer.from('\r\n')])
      : chunk;
  const pump = () => {
    while (!socket.destroyed && socket.writable) {
      if (!socket.write(piece)) return;
    }
  };
  socket.on('drain', pump);
  pump();
}
