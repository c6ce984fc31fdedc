/**
 * The harness's HTTP layer over undici: keep-alive connections, a whole-request timeout, a hard cap on response
 * size, no automatic redirects. Transport failures are returned as data (`{ ok: false, error }`), never thrown:
 * for the runner they are the "errored" verdict.
 */
import { Agent, type Dispatcher } from 'undici';

/** A request as the harness sends it: method, absolute URL, header fields (a list repeats a field), body bytes. */
export interface HttpRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Lowercase names. A list sends the field once per value, in order (targets are tested with repeated fields). */
  headers: Record<string, string | string[]>;
  body?: string | Uint8Array;
}

/** A response as the harness judges it: status, header fields by lower-case name, body bytes (bounded). */
export interface HttpResponse {
  status: number;
  /** Lowercased names; repeated headers are arrays. */
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  durationMs: number;
}

export type TransportErrorCode =
  | 'TIMEOUT'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_RESET'
  | 'RESPONSE_TOO_LARGE'
  | 'BAD_RESPONSE'
  | 'TLS'
  | 'DNS'
  | 'OTHER';

export interface TransportError {
  code: TransportErrorCode;
  message: string;
  /** Underlying library code, e.g. `UND_ERR_HEADERS_TIMEOUT` or `ECONNREFUSED`. */
  cause?: string;
}

/** Whether a transport error says the other end is not an HTTP server at all (an SSH or SMTP banner, random bytes). */
export function notHttp(error: TransportError): boolean {
  return error.code === 'BAD_RESPONSE' && error.message.startsWith('the target does not speak HTTP');
}

/** The outcome of a send: the response, or the transport error (timeout, refused, reset, TLS, too large). */
export type SendResult = { ok: true; response: HttpResponse } | { ok: false; error: TransportError };

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
  const session = (): HttpClient => {
    let own: Dispatcher | undefined;
    return {
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
  return { send: main.send, session, close };
}

/**
 * The parts undici needs from an absolute URL: its origin and the path with its query, as WHATWG URL parsing gives
 * them (dot segments resolved, non-ASCII percent-encoded, default ports dropped). A URL whose path holds only
 * characters that parsing leaves as they are, no dot segment and no empty query, is split directly, with the origin of its prefix
 * parsed once and remembered: a run sends thousands of requests to a handful of bases.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&()*+,;=:@%/?.]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;
const ORIGINS = new Map<string, string>();

export function splitUrl(url: string): { origin: string; path: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash > 0) {
    const path = url.slice(slash);
    const prefix = url.slice(0, slash);
    let origin = ORIGINS.get(prefix);
    if (origin === undefined && ORIGINS.size < 64 && /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(prefix))
      ORIGINS.set(prefix, (origin = new URL(prefix).origin));
    if (origin !== undefined && PLAIN_PATH.test(path) && !path.endsWith('?') && !DOT_SEGMENT.test(path.split('?')[0]!))
      return { origin, path };
  }
  const u = new URL(url);
  return { origin: u.origin, path: u.pathname + u.search };
}

/**
 * One request through undici's dispatch API, the body collected as it arrives (no stream in between): a hard cap on
 * its size and one timer for the whole exchange, so a body that trickles a byte at a time ends at the deadline like
 * one that stalls. Transport failures are data.
 */
function exchange(
  via: Dispatcher,
  options: Dispatcher.DispatchOptions,
  timeoutMs: number,
  maxBytes: number,
): Promise<SendResult> {
  return new Promise<SendResult>((resolve) => {
    const started = performance.now();
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers: Record<string, string | string[]> = {};
    let chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: SendResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const fail = (error: TransportError) => {
      finish({ ok: false, error });
      if (controller && !controller.aborted) controller.abort(new Error(error.message));
    };
    const timer = setTimeout(
      () =>
        fail({
          code: 'TIMEOUT',
          message: `no complete response within ${timeoutMs} ms` + (status === 0 ? '' : ' (the body did not finish)'),
        }),
      timeoutMs,
    );
    try {
      via.dispatch(options, {
        onRequestStart: (c) => {
          controller = c;
          if (done) c.abort(new Error('ended'));
        },
        onResponseStart: (_c, statusCode, h) => {
          // An informational (1xx) answer is followed by the final one, which replaces it.
          status = statusCode;
          // A fresh object per answer, lowercase names, repeated headers as arrays, never an undefined value (and a
          // "__proto__" header as an own property): undici's parseHeaders.
          headers = h as Record<string, string | string[]>;
          chunks = [];
          size = 0;
        },
        onResponseData: (_c, chunk) => {
          size += chunk.length;
          if (size > maxBytes)
            fail({ code: 'RESPONSE_TOO_LARGE', message: `response body larger than ${maxBytes} bytes` });
          else chunks.push(chunk);
        },
        onResponseEnd: () => {
          const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          finish({ ok: true, response: { status, headers, body, durationMs: performance.now() - started } });
        },
        onResponseError: (_c, err) => fail(transportErrorOf(err, timeoutMs, maxBytes, false)),
      });
    } catch (err) {
      fail(transportErrorOf(err, timeoutMs, maxBytes, false));
    }
  });
}

/** Maps undici and socket errors to stable codes with a sentence a user can act on. */
export function transportErrorOf(err: unknown, timeoutMs: number, maxBytes: number, aborted: boolean): TransportError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? e.name ?? 'UNKNOWN';
  const msg = e.message ?? String(err);
  const out = (c: TransportErrorCode, message: string): TransportError => ({ code: c, message, cause: code });
  if (
    aborted ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'TimeoutError' ||
    code === 'AbortError'
  ) {
    return out('TIMEOUT', `no complete response within ${timeoutMs} ms (${code})`);
  }
  if (code === 'ECONNREFUSED') return out('CONNECTION_REFUSED', `connection refused: ${msg}`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED')
    return out('CONNECTION_RESET', `connection closed or reset by the target: ${e.cause?.message ?? msg}`);
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE')
    return out('RESPONSE_TOO_LARGE', `response body larger than ${maxBytes} bytes`);
  // undici's parser errors carry no `code` (its table maps names to numbers), only the name HTTPParserError.
  if (
    e.name === 'HTTPParserError' ||
    code.startsWith('HPE_') ||
    code === 'UND_ERR_INFO' ||
    code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'
  ) {
    // "Expected HTTP/": the very first bytes were not a status line — not a broken HTTP server, something else.
    if (/Expected HTTP\//.test(msg))
      return out('BAD_RESPONSE', `the target does not speak HTTP (its first bytes are not a status line): ${msg}`);
    return out('BAD_RESPONSE', `the target answered something that is not valid HTTP/1.1: ${msg}`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return out('DNS', `host not found: ${msg}`);
  if (/CERT|SSL|TLS|self[- ]signed|ERR_SSL/i.test(code + ' ' + msg))
    return out('TLS', `TLS failure: ${msg} (use --insecure or --ca for a self-signed target)`);
  return out('OTHER', msg);
}
