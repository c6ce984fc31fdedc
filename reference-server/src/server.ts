import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerOptions as HttpServerOptions, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { ConnectionGate } from './connections.js';
import { replyTooLarge } from './too-large.js';
import { faultKit } from './faults/index.js';
import type { IoFaults } from './faults/index.js';
import type { ConnectionMemory } from './records.js';
import { createState, handleAsync } from './handle.js';
import { declaredLength, readBody, toRequestRecord, writeResponse } from './io.js';
import { resolveServerOptions } from './options.js';
import type { ResolvedServerOptions, ServerOptions } from './options.js';
import { answerConnect, rejectClient } from './parser-errors.js';
import { problem } from './responses.js';
import type { ChangeListener } from './store/changes.js';
import { closer, hostPart, listen, type Listener } from './listen.js';
import { openJournal } from './store/journal.js';
import type { Journal } from './store/journal.js';
import { generateSelfSignedCertificate } from './tls/certificate.js';
import { keyLayout } from './store/redis/keys.js';
import { connectRedis } from './store/redis/redis.js';
import { handleShared } from './store/redis/shared-handler.js';
import type { SharedContext } from './store/redis/shared-handler.js';
import type { RequestRecord, ResponseRecord } from './records.js';
import { exchangeRecorder } from './recording.js';
import { withDiagnostic } from './client/diagnose.js';
import { RULES } from './rules.js';
import type { HandlerDeps, Rules, ServerState } from './types.js';

export { parseFaultNames, UnknownFaultError } from './faults/registry.js';
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
  /** What the switched-on faults change in this IO shell. */
  io: IoFaults;
  /** The `--data` journal: every answer waits until the changes made so far are on disk. */
  journal?: Journal;
  /** Per-socket memory, only when a fault asks for it. */
  memory?: WeakMap<object, ConnectionMemory>;
  /** With `redis`: the store this instance shares with the others of its cluster. */
  cluster?: SharedContext;
  /** Counts and caps the connections of both listeners, and closes refused ones without keeping descriptors. */
  gate: ConnectionGate;
  /** With `onExchange`: numbers each answered request and hands it over. */
  record?: (req: RequestRecord, res: ResponseRecord, at: number) => void;
}

/**
 * Starts the reference server over plain HTTP, and over TLS too when `httpsPort` is set (with `tls`, or a
 * self-signed certificate generated now); resolves once every listener listens.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const resolved = resolveServerOptions(options);
  const kit = faultKit(resolved.faults);
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
    resolved.dataDir === undefined ? undefined : journalListener(kit.io, (change) => journal?.append(change)),
  );
  if (resolved.dataDir !== undefined) {
    journal = await openJournal(resolved.dataDir, state, { nowMs: () => resolved.now().getTime(), log: resolved.log });
  }
  const deps: HandlerDeps = {
    now: resolved.now,
    newId: resolved.newId,
    faults: resolved.faults,
    variants: resolved.variants,
    ...kit.deps,
    ...(resolved.oauth1Plaintext ? { rules: withPlaintext(kit.deps.rules ?? RULES) } : {}),
  };
  const { redis } = resolved;
  const store =
    redis === undefined
      ? undefined
      : await connectRedis(redis.url, {
          timeoutMs: redis.timeoutMs,
          connectionName: `conform-${redis.prefix}-${redis.instance}`,
          log: resolved.log,
        });
  const shared: Shared = {
    state,
    deps,
    options: resolved,
    io: kit.io,
    ...(journal === undefined ? {} : { journal }),
    ...(kit.io.remembersConnections ? { memory: new WeakMap() } : {}),
    ...(store === undefined || redis === undefined
      ? {}
      : {
          cluster: {
            store,
            layout: keyLayout(redis.prefix, redis.instance, resolved.faults),
            local: state,
            log: resolved.log,
          },
        }),
    ...(resolved.onExchange === undefined ? {} : { record: exchangeRecorder(resolved.onExchange) }),
    gate: new ConnectionGate(
      {
        maxConnections: resolved.maxConnections,
        maxPerClient: resolved.maxConnectionsPerClient,
        lingerMs: resolved.lingerMs,
      },
      resolved.log,
    ),
  };
  // The 408 check runs every second, or more often when the request timeout is shorter.
  const base: HttpServerOptions = {
    maxHeaderSize: resolved.maxHeaderBytes,
    connectionsCheckingInterval: Math.min(1000, resolved.requestTimeoutMs),
  };
  const listeners: Listener[] = [];
  const close = closer(listeners, shared.gate, journal, store);
  try {
    const plain = wire(createServer(base), false, shared);
    listeners.push(plain);
    const port = await listen(plain.door, resolved.host, resolved.port, resolved.log);
    const running: RunningServer = {
      url: `http://${hostPart(resolved.host)}:${port}`,
      port,
      close,
      nonceCount: () => state.nonces.size(),
      articleCount: () => state.store.size,
      connectionCount: () => shared.gate.size(),
    };
    if (resolved.httpsPort === undefined) return running;
    const credentials = resolved.tls ?? generateSelfSignedCertificate(new Date());
    // A connection that has not finished its handshake by then is closed (tlsClientError → clientError → destroyed).
    const tlsOptions = {
      ...base,
      cert: credentials.cert,
      key: credentials.key,
      handshakeTimeout: resolved.handshakeTimeoutMs,
    };
    const secure = wire(createTlsServer(tlsOptions), true, shared);
    listeners.push(secure);
    const httpsPort = await listen(secure.door, resolved.host, resolved.httpsPort, resolved.log);
    return {
      ...running,
      httpsUrl: `https://${hostPart(resolved.host)}:${httpsPort}`,
      httpsPort,
      certificate: credentials.cert,
    };
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
    if ((declaredLength(req) ?? 0) > options.maxBodyBytes) return replyTooLarge(req, res, options);
    res.writeContinue();
    onRequest(req, res);
  });
  // Which TLS connections finished their handshake: before it, no HTTP answer can be sent, only a close.
  const established = new WeakSet<object>();
  if (secure) server.on('secureConnection', (socket: object) => established.add(socket));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (secure && !established.has(socket)) socket.destroy();
    else rejectClient(err, socket, shared.state, shared.deps, options.lingerMs);
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex) =>
    answerConnect(req, socket, shared.state, shared.deps, options),
  );
  return { door: gate.frontDoor(server, secure), http: server };
}

async function serve(req: IncomingMessage, res: ServerResponse, secure: boolean, shared: Shared): Promise<void> {
  const { state, deps, options, memory } = shared;
  const at = deps.now().getTime();
  const cap = shared.io.readCap(options.maxBodyBytes);
  if ((declaredLength(req) ?? 0) > cap) return replyTooLarge(req, res, options);
  const read = await readBody(req, cap);
  if (read.kind === 'aborted') return;
  if (read.kind === 'too-large') return replyTooLarge(req, res, options);
  const record = toRequestRecord(
    req,
    read.body,
    secure,
    memory === undefined ? undefined : remembered(memory, req.socket),
  );
  const response = shared.cluster
    ? await handleShared(record, shared.cluster, deps)
    : await handleAsync(record, state, deps);
  const explained = options.diagnose ? withDiagnostic(record, response, state, deps) : response;
  const answer = await durable(explained, shared);
  shared.record?.(record, answer, at);
  reply(req, res, answer, options);
}

/**
 * `response` once every change made so far is on disk (with `--data`); a 503 when the journal cannot be written
 * (then nothing is acknowledged any more).
 */
async function durable(response: ResponseRecord, { journal, io }: Shared): Promise<ResponseRecord> {
  if (journal === undefined || !io.waitsForDisk) return response;
  try {
    await journal.commit();
    return response;
  } catch {
    return problem(503, 'the data directory cannot be written: nothing is acknowledged');
  }
}

/** What the journal records: every change the faults let it. */
function journalListener(io: IoFaults, append: ChangeListener): ChangeListener {
  return (change) => {
    if (io.journaled(change)) append(change);
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

function reply(
  req: IncomingMessage,
  res: ServerResponse,
  record: ResponseRecord,
  options: ResolvedServerOptions,
): void {
  options.log(`${req.method ?? '?'} ${req.url ?? ''} ${record.status}`);
  writeResponse(res, record);
}

/** The rules with PLAINTEXT among the OAuth 1 signature methods (the `oauth1Plaintext` option). */
function withPlaintext(rules: Rules): Rules {
  const { oauth1 } = rules;
  if (oauth1.signatureMethods.includes('PLAINTEXT')) return rules;
  return { ...rules, oauth1: { ...oauth1, signatureMethods: [...oauth1.signatureMethods, 'PLAINTEXT'] } };
}
