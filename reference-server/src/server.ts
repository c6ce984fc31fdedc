import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createState, handle } from './handle.js';
import { declaredLength, readBody, toRequestRecord, writeResponse } from './io.js';
import { resolveServerOptions } from './options.js';
import type { ResolvedServerOptions, ServerOptions } from './options.js';
import { PROBLEM_TYPE, byteLength, problem, reasonPhrase } from './responses.js';
import type { HandlerDeps, ResponseRecord, ServerState } from './types.js';

export { parseFaultNames, UnknownFaultError } from './faults.js';
export { resolveServerOptions } from './options.js';
export type { ResolvedServerOptions, ServerOptions } from './options.js';

/** A listening reference server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:43211`. */
  url: string;
  port: number;
  /** Stops listening and closes every connection, idle keep-alive ones included. Safe to call twice. */
  close(): Promise<void>;
}

/** Socket timeouts (request, headers, keep-alive) in milliseconds, and the header size cap in bytes. */
const TIMEOUT_MS = 5000;
const MAX_HEADER_BYTES = 16384;

/** Starts the reference server over plain HTTP; resolves once it listens. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const resolved = resolveServerOptions(options);
  const state = createState({ maxArticles: resolved.maxArticles, maxBodyBytes: resolved.maxBodyBytes });
  const deps: HandlerDeps = { now: resolved.now, newId: resolved.newId, faults: resolved.faults };
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, connectionsCheckingInterval: 1000 });
  server.requestTimeout = TIMEOUT_MS;
  server.headersTimeout = TIMEOUT_MS;
  server.keepAliveTimeout = TIMEOUT_MS;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    serve(req, res, state, deps, resolved).catch((err: unknown) => {
      resolved.log(`unexpected error: ${err instanceof Error ? err.message : String(err)}`);
      writeResponse(res, problem(500, 'unexpected server error'));
    });
  };
  server.on('request', onRequest);
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if ((declaredLength(req) ?? 0) > resolved.maxBodyBytes) return void reply(req, res, tooLarge(resolved), resolved);
    res.writeContinue();
    onRequest(req, res);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => rejectClient(err, socket));
  await listen(server, resolved);
  server.on('error', (err) => resolved.log(`server error: ${err.message}`));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : resolved.port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return { url: `http://${host}:${port}`, port, close };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  state: ServerState,
  deps: HandlerDeps,
  options: ResolvedServerOptions,
): Promise<void> {
  if ((declaredLength(req) ?? 0) > options.maxBodyBytes) return reply(req, res, tooLarge(options), options);
  const read = await readBody(req, options.maxBodyBytes);
  if (read.kind === 'aborted') return;
  if (read.kind === 'too-large') return reply(req, res, tooLarge(options), options);
  reply(req, res, handle(toRequestRecord(req, read.body, false), state, deps), options);
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

/** Answers requests node:http could not parse (unknown method → 501, huge headers → 431, timeout → 408, else 400). */
function rejectClient(err: NodeJS.ErrnoException, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const status =
    err.code === 'HPE_INVALID_METHOD' ? 501 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ type: 'about:blank', title: reasonPhrase(status), status, detail: `request rejected by the HTTP parser (${err.code ?? 'unknown'})` });
  const head = `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\nContent-Type: ${PROBLEM_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + body);
}

function listen(server: Server, options: ResolvedServerOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
