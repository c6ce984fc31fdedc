/**
 * The harness's HTTP layer over undici: keep-alive connections, a whole-request timeout, a hard cap on response
 * size, no automatic redirects. Transport failures are returned as data (`{ ok: false, error }`), never thrown:
 * for the runner they are the "errored" verdict.
 */
import { Agent, type Dispatcher } from 'undici';
import { exchange } from './exchange.js';
import { sendTogether } from './together.js';
import { splitUrl } from './url.js';
import type { HttpRequest, SendResult } from './types.js';

export type { HttpRequest, HttpResponse, SendResult, TransportError, TransportErrorCode } from './types.js';
export { notHttp } from './types.js';
export { transportErrorOf } from './exchange.js';
export { splitUrl } from './url.js';

/** Settings of {@link createHttpClient}, all optional. */
export interface HttpClientOptions {
  /** Whole-request timeout (headers and body), ms. Default 10 000. */
  timeoutMs?: number;
  /** Largest response body read, bytes. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Accept any TLS certificate. Default false. */
  insecure?: boolean;
  /** Extra CA certificates (PEM) to trust. */
  ca?: string;
  /**
   * Connections per origin for ordinary requests of one lane. Default 1: a scenario's requests follow one another
   * on the same keep-alive connection (which is what statelessness checks rely on). Concurrent sends use a
   * separate pool.
   */
  connections?: number;
}

export interface SendOptions {
  /** Send over the concurrent pool (many connections) instead of the default single keep-alive connection. */
  concurrent?: boolean;
}

/** Sends requests and reports transport failures as {@link SendResult} values. */
export interface HttpClient {
  send(request: HttpRequest, options?: SendOptions): Promise<SendResult>;
  /**
   * Sends requests over connections of their own so that their last bytes reach the target together (together.ts);
   * the answers in the same order. Absent (a client over an injected dispatcher): the caller sends them concurrently.
   */
  sendTogether?(requests: readonly HttpRequest[]): Promise<SendResult[]>;
  /**
   * A client with the same settings and its own keep-alive connections for ordinary requests (concurrent sends
   * share this client's pool): one per scenario, so what one scenario leaves on a connection can never change
   * another's answers, whatever ran before it or beside it. Close it when the scenario ends.
   */
  session(): HttpClient;
  close(): Promise<void>;
}

/** An HTTP client over undici: per-request timeout, bounded response bodies, one keep-alive connection per scenario (`session()`), TLS trust from `ca`/`insecure`; transport failures come back as values, never thrown. */
export function createHttpClient(options: HttpClientOptions = {}, dispatcher?: Dispatcher): HttpClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 1024 * 1024;
  const makeAgent = (connections: number) =>
    new Agent({
      keepAliveTimeout: 10_000,
      connections,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connectTimeout: Math.min(timeoutMs, 10_000),
      maxResponseSize: maxBytes,
      connect: { rejectUnauthorized: !options.insecure, ...(options.ca ? { ca: options.ca } : {}) },
    });
  let pool: Dispatcher | undefined;
  const connections = () => dispatcher ?? makeAgent(options.connections ?? 1);
  const open = new Set<Dispatcher>();

  const send = (req: HttpRequest, sendOptions: SendOptions, own: Dispatcher): Promise<SendResult> => {
    const via = sendOptions.concurrent ? (pool ??= dispatcher ?? makeAgent(256)) : own;
    const target = splitUrl(req.url);
    return exchange(
      via,
      {
        origin: target.origin,
        path: target.path,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? null,
      },
      timeoutMs,
      maxBytes,
    );
  };
  const together = dispatcher
    ? undefined
    : (requests: readonly HttpRequest[]) =>
        sendTogether(requests, {
          timeoutMs,
          maxBytes,
          ...(options.insecure ? { insecure: true } : {}),
          ...(options.ca ? { ca: options.ca } : {}),
        });
  const session = (): HttpClient => {
    let own: Dispatcher | undefined;
    return {
      ...(together ? { sendTogether: together } : {}),
      send: (req, o = {}) => {
        if (!own) open.add((own = connections()));
        return send(req, o, own);
      },
      session,
      close: async () => {
        if (!own || !open.delete(own)) return;
        if (own !== dispatcher) await own.close();
      },
    };
  };
  const main = session();
  const close = async () => {
    const all = [...open, pool].filter((a): a is Dispatcher => a !== undefined && a !== dispatcher);
    open.clear();
    pool = undefined;
    await Promise.all(all.map((a) => a.close()));
  };
  return { send: main.send, ...(together ? { sendTogether: together } : {}), session, close };
}
