import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerOptions as HttpServerOptions, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { ConnectionGate, lingeringClose } from './connections.js';
import type { ConnectionMemory } from './records.js';
import { createState, handleAsync, unparsedMethodResponse } from './handle.js';
import { declaredLength, readBody, toRequestRecord, writeResponse } from './io.js';
import { resolveServerOptions } from './options.js';
import type { ResolvedServerOptions, ServerOptions } from './options.js';
import { byteLength, problem, reasonPhrase } from './responses.js';
import type { ChangeListener } from './store/changes.js';
import { openJournal } from './store/journal.js';
import type { Journal } from './store/journal.js';
import { generateSelfSignedCertificate } from './tls/certificate.js';
import { keyLayout } from './cluster/keys.js';
import { connectRedis } from './cluster/redis.js';
import { handleShared } from './cluster/shared-handler.js';
import type { SharedContext } from './cluster/shared-handler.js';
import type { ResponseRecord } from './records.js';
import type { HandlerDeps, ServerState } from './types.js';

export { parseFaultNames, UnknownFaultError } from './faults.js';
export { resolveServerOptions } from './options.js';
export type { ResolvedServerOptions, ServerOptions } from './options.js';

/** A listening reference server: plain HTTP, and TLS when `httpsPort` was given; one shared state. */
export interface RunningServer {
  /** Plain-HTTP base URL, e.g. `http://127.0.0.1:43211`. */
  url: string;
  port: number;
  /** TLS base URL, e.g. `https://127.0.0.1:43212`, when a TLS listener runs. */
  httpsUrl?: string;
  httpsPort?: number;
  /** PEM certificate of the TLS listener (generated or given), for clients to trust. */
  certificate?: string;
  /** Nonces remembered right now (both listeners share the store); for benchmarks of its memory bound. */
  nonceCount(): number;
  /** Articles stored right now (memory store; with Redis, this instance's local view is not counted). */
  articleCount(): number;
  /** Open TCP connections right now, both listeners, lingering ones included (each holds a descriptor). */
  connectionCount(): number;
  /** Stops both listeners and closes every connection, idle keep-alive ones included. Safe to call twice. */
  close(): Promise<void>;
}

/** Everything a listener's request handlers share. */
interface Shared {
  state: ServerState;
  deps: HandlerDeps;
  options: ResolvedServerOptions;
  /** The `--data` journal: every answer waits until the changes made so far are on disk. */
  journal?: Journal;
  /** Per-socket memory, only under the `connection-remembers` fault. */
  memory?: WeakMap<object, ConnectionMemory>;
  /** With `redis`: the store this instance shares with the others of its cluster. */
  cluster?: SharedContext;
  /** Counts and caps the connections of both listeners, and closes refused ones without keeping descriptors. */
  gate: ConnectionGate;
}

/** One listener: node's HTTP or TLS server, fed by the front door that listens and counts connections. */
interface Listener {
  door: NetServer;
  http: Server;
}

/**
 * Starts the reference server over plain HTTP, and over TLS too when `httpsPort` is set (with `tls`, or a
 * self-signed certificate generated now); resolves once every listener listens.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const resolved = resolveServerOptions(options);
  let journal: Journal | undefined;
  const state = createState(
    { maxArticles: resolved.maxArticles, maxBodyBytes: resolved.maxBodyBytes },
    {
      users: resolved.users,
      window: resolved.window,
      bodyHash: resolved.bodyHash,
      nonceCapacity: resolved.nonceCapacity,
      ...(resolved.nonceShare === undefined ? {} : { nonceShare: resolved.nonceShare }),
      oauth2Clients: resolved.oauth2Clients,
      tokenTtl: resolved.tokenTtl,
      tokenCapacity: resolved.tokenCapacity,
      oauth1Consumers: resolved.oauth1Consumers,
    },
    resolved.dataDir === undefined ? undefined : journalListener(resolved, (change) => journal?.append(change)),
  );
  if (resolved.dataDir !== undefined) {
    journal = await openJournal(resolved.dataDir, state, { nowMs: () => resolved.now().getTime(), log: resolved.log });
  }
  const deps: HandlerDeps = { now: resolved.now, newId: resolved.newId, faults: resolved.faults, variants: resolved.variants };
  const { redis } = resolved;
  const store = redis === undefined ? undefined : await connectRedis(redis.url, { timeoutMs: redis.timeoutMs, connectionName: `conform-${redis.prefix}-${redis.instance}`, log: resolved.log });
  const shared: Shared = {
    state,
    deps,
    options: resolved,
    ...(journal === undefined ? {} : { journal }),
    ...(resolved.faults.has('connection-remembers') ? { memory: new WeakMap() } : {}),
    ...(store === undefined || redis === undefined ? {} : { cluster: { store, layout: keyLayout(redis.prefix, redis.instance, resolved.faults), local: state, log: resolved.log } }),
    gate: new ConnectionGate({ maxConnections: resolved.maxConnections, maxPerClient: resolved.maxConnectionsPerClient, lingerMs: resolved.lingerMs }, resolved.log),
  };
  // The 408 check runs every second, or more often when the request timeout is shorter.
  const base: HttpServerOptions = { maxHeaderSize: resolved.maxHeaderBytes, connectionsCheckingInterval: Math.min(1000, resolved.requestTimeoutMs) };
  const listeners: Listener[] = [];
  const close = closer(listeners, shared.gate, journal, store);
  try {
    const plain = wire(createServer(base), false, shared);
    listeners.push(plain);
    const port = await listen(plain.door, resolved.host, resolved.port, resolved.log);
    const running: RunningServer = { url: `http://${hostPart(resolved.host)}:${port}`, port, close, nonceCount: () => state.nonces.size(), articleCount: () => state.store.size, connectionCount: () => shared.gate.size() };
    if (resolved.httpsPort === undefined) return running;
    const credentials = resolved.tls ?? generateSelfSignedCertificate(new Date());
    // A connection that has not finished its handshake by then is closed (tlsClientError → clientError → destroyed).
    const tlsOptions = { ...base, cert: credentials.cert, key: credentials.key, handshakeTimeout: resolved.handshakeTimeoutMs };
    const secure = wire(createTlsServer(tlsOptions), true, shared);
    listeners.push(secure);
    const httpsPort = await listen(secure.door, resolved.host, resolved.httpsPort, resolved.log);
    return { ...running, httpsUrl: `https://${hostPart(resolved.host)}:${httpsPort}`, httpsPort, certificate: credentials.cert };
  } catch (err) {
    await close();
    throw err;
  }
}

function wire(server: Server, secure: boolean, shared: Shared): Listener {
  const { options, gate } = shared;
  // No count limit: node's default (2000) silently drops the fields beyond it — a repeated credential among them
  // would go unseen. The head's byte cap (maxHeaderBytes, 431) bounds the count instead.
  server.maxHeadersCount = 0;
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = options.requestTimeoutMs;
  server.keepAliveTimeout = options.keepAliveTimeoutMs;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    serve(req, res, secure, shared).catch((err: unknown) => {
      options.log(`unexpected error: ${err instanceof Error ? err.message : String(err)}`);
      writeResponse(res, problem(500, 'unexpected server error'));
    });
  };
  server.on('request', onRequest);
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if ((declaredLength(req) ?? 0) > options.maxBodyBytes) return void reply(req, res, tooLarge(options), options);
    res.writeContinue();
    onRequest(req, res);
  });
  // Which TLS connections finished their handshake: before it, no HTTP answer can be sent, only a close.
  const established = new WeakSet<object>();
  if (secure) server.on('secureConnection', (socket: object) => established.add(socket));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (secure && !established.has(socket)) socket.destroy();
    else rejectClient(err, socket, shared.deps, options.lingerMs);
  });
  // CONNECT (a tunnel request; node hands it to this event, not to 'request'): the 405 unknown methods get.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const record = unparsedMethodResponse('CONNECT', connectPath(req.url ?? ''), shared.deps);
    options.log(`CONNECT ${req.url ?? ''} ${record.status}`);
    lingeringClose(socket, options.lingerMs, rawResponse(record));
  });
  return { door: gate.frontDoor(server, secure), http: server };
}

async function serve(req: IncomingMessage, res: ServerResponse, secure: boolean, shared: Shared): Promise<void> {
  const { state, deps, options, memory } = shared;
  // `oversize-acknowledged` reads a body up to 16 times the cap, for the core to drop while claiming it stored it.
  const cap = deps.faults.has('oversize-acknowledged') ? options.maxBodyBytes * 16 : options.maxBodyBytes;
  if ((declaredLength(req) ?? 0) > cap) return reply(req, res, tooLarge(options), options);
  const read = await readBody(req, cap);
  if (read.kind === 'aborted') return;
  if (read.kind === 'too-large') return reply(req, res, tooLarge(options), options);
  const record = toRequestRecord(req, read.body, secure, memory === undefined ? undefined : remembered(memory, req.socket));
  const response = shared.cluster ? await handleShared(record, shared.cluster, deps) : await handleAsync(record, state, deps);
  reply(req, res, await durable(response, shared), options);
}

/**
 * `response` once every change made so far is on disk (with `--data`); a 503 when the journal cannot be written
 * (then nothing is acknowledged any more). Under `journal-on-exit` the answer goes out at once.
 */
async function durable(response: ResponseRecord, { journal, deps }: Shared): Promise<ResponseRecord> {
  if (journal === undefined || deps.faults.has('journal-on-exit')) return response;
  try {
    await journal.commit();
    return response;
  } catch {
    return problem(503, 'the data directory cannot be written: nothing is acknowledged');
  }
}

/** What the journal records: every change, except nonces under `nonces-not-journaled`. */
function journalListener(options: ResolvedServerOptions, append: ChangeListener): ChangeListener {
  if (!options.faults.has('nonces-not-journaled')) return append;
  return (change) => {
    if (change.kind !== 'nonce') append(change);
  };
}

function remembered(memory: WeakMap<object, ConnectionMemory>, socket: object): ConnectionMemory {
  let entry = memory.get(socket);
  if (entry === undefined) {
    entry = {};
    memory.set(socket, entry);
  }
  return entry;
}

function reply(req: IncomingMessage, res: ServerResponse, record: ResponseRecord, options: ResolvedServerOptions): void {
  options.log(`${req.method ?? '?'} ${req.url ?? ''} ${record.status}`);
  writeResponse(res, record);
}

/** 413 sent before the body is read; the connection closes because the rest of the body stays unread. */
function tooLarge(options: ResolvedServerOptions): ResponseRecord {
  const record = problem(413, `request body exceeds ${options.maxBodyBytes} bytes`, { headers: { connection: 'close' } });
  return { ...record, headers: { ...record.headers, 'content-length': String(byteLength(record.body)) } };
}

/** A request line whose method is a valid token (RFC 9110 §5.6.2) that node's parser does not know. */
const TOKEN_REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) /;

/**
 * Answers requests node:http could not parse: a method token it does not know → the same 405 with `Allow` the
 * handler gives unknown methods; huge headers → 431; timeout → 408; anything else → 400. Always closes.
 */
function rejectClient(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex, deps: HandlerDeps, lingerMs: number): void {
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const line = TOKEN_REQUEST_LINE.exec((err.rawPacket ?? Buffer.alloc(0)).subarray(0, 8192).toString('latin1'));
  const record =
    err.code === 'HPE_INVALID_METHOD' && line !== null
      ? unparsedMethodResponse(line[1]!, targetPath(line[2]!), deps)
      : parserProblem(err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400, err.code);
  const answer = rawResponse(record);
  // An earlier request on this connection that arrived whole may still be in its handler: its answer goes first,
  // then this rejection, so no answer is lost (bounded: the rejection goes out after 5 s regardless). An earlier
  // request whose body never completed (the cause of a timeout) is not waited for.
  if (pending && !pending.writableFinished && pending.req?.complete) {
    const send = () => {
      clearTimeout(timer);
      lingeringClose(socket, lingerMs, answer);
    };
    const timer = setTimeout(send, 5_000);
    pending.once('finish', send);
    pending.once('close', () => {
      clearTimeout(timer);
      socket.destroy();
    });
    return;
  }
  lingeringClose(socket, lingerMs, answer);
}

/** A response record as bytes for a socket that node's HTTP layer no longer writes to; always `Connection: close`. */
function rawResponse(record: ResponseRecord): string {
  const body = typeof record.body === 'string' ? record.body : '';
  const fields = Object.entries(record.headers)
    .filter(([name]) => name !== 'content-length' && name !== 'connection')
    .map(([name, value]) => `${name}: ${String(value)}\r\n`)
    .join('');
  return `HTTP/1.1 ${record.status} ${reasonPhrase(record.status)}\r\n${fields}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** The resource a CONNECT names: its path in origin or absolute form; `/` for the authority form (`host:port`). */
function connectPath(target: string): string {
  return target.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target) ? targetPath(target) : '/';
}

function parserProblem(status: number, code: string | undefined): ResponseRecord {
  return problem(status, `request rejected by the HTTP parser (${code ?? 'unknown'})`);
}

/** The path of a request-target as the routes match it: origin form without the query, or an absolute URI's path. */
function targetPath(target: string): string {
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/.exec(target);
  const path = absolute === null ? target : absolute[1] || '/';
  return path.split('?')[0]!;
}

function listen(server: NetServer, host: string, port: number, log: (line: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', (err) => log(`server error: ${err.message}`));
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

function hostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** One idempotent close for every listener started so far and every connection, then the journal and the shared store. */
function closer(listeners: readonly Listener[], gate: ConnectionGate, journal: Journal | undefined, store: { close(): Promise<void> } | undefined): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= Promise.all(
      listeners.map(
        ({ door, http }) =>
          new Promise<void>((resolve) => {
            // The HTTP server never listened: its close only stops its timeout checks (and reports "not running").
            http.close(() => {});
            http.closeAllConnections();
            if (!door.listening) return resolve();
            door.close(() => resolve());
            gate.destroyAll();
          }),
      ),
    ).then(async () => {
      gate.destroyAll();
      await journal?.close();
      await store?.close();
    });
    return closing;
  };
}
