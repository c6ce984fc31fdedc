/**
 * The harness's HTTP layer over undici: keep-alive connections, a whole-request timeout, a hard cap on response
 * size, no automatic redirects. Transport failures are returned as data (`{ ok: false, error }`), never thrown:
 * for the runner they are the "errored" verdict.
 */
import { Agent, type Dispatcher } from 'undici';

export interface HttpRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

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

export type SendResult = { ok: true; response: HttpResponse } | { ok: false; error: TransportError };

export interface HttpClientOptions {
  /** Whole-request timeout (headers and body), ms. Default 10 000. */
  timeoutMs?: number;
  /** Largest response body read, bytes. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Accept any TLS certificate. Default false. */
  insecure?: boolean;
  /** Extra CA certificates (PEM) to trust. */
  ca?: string;
  /** Connections per origin. Default 8. */
  connections?: number;
}

export interface HttpClient {
  send(request: HttpRequest): Promise<SendResult>;
  close(): Promise<void>;
}

export function createHttpClient(options: HttpClientOptions = {}, dispatcher?: Dispatcher): HttpClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 1024 * 1024;
  const agent =
    dispatcher ??
    new Agent({
      keepAliveTimeout: 10_000,
      connections: options.connections ?? 8,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connectTimeout: Math.min(timeoutMs, 10_000),
      maxResponseSize: maxBytes,
      connect: { rejectUnauthorized: !options.insecure, ...(options.ca ? { ca: options.ca } : {}) },
    });

  const send = async (req: HttpRequest): Promise<SendResult> => {
    const started = performance.now();
    const url = new URL(req.url);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? null,
        signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          return fail('RESPONSE_TOO_LARGE', `response body larger than ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = v;
      return { ok: true, response: { status: res.statusCode, headers, body: Buffer.concat(chunks), durationMs: performance.now() - started } };
    } catch (err) {
      return { ok: false, error: classify(err, timeoutMs, maxBytes, signal.aborted) };
    }
  };
  return { send, close: () => (dispatcher ? Promise.resolve() : agent.close()) };
}

function fail(code: TransportErrorCode, message: string, cause?: string): SendResult {
  return { ok: false, error: { code, message, ...(cause ? { cause } : {}) } };
}

/** Maps undici and socket errors to stable codes with a sentence a user can act on. */
export function classify(err: unknown, timeoutMs: number, maxBytes: number, aborted: boolean): TransportError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? e.name ?? 'UNKNOWN';
  const msg = e.message ?? String(err);
  const out = (c: TransportErrorCode, message: string): TransportError => ({ code: c, message, cause: code });
  if (aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'TimeoutError' || code === 'AbortError') {
    return out('TIMEOUT', `no complete response within ${timeoutMs} ms (${code})`);
  }
  if (code === 'ECONNREFUSED') return out('CONNECTION_REFUSED', `connection refused: ${msg}`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') return out('CONNECTION_RESET', `connection closed or reset by the target: ${e.cause?.message ?? msg}`);
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return out('RESPONSE_TOO_LARGE', `response body larger than ${maxBytes} bytes`);
  if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_') || code === 'UND_ERR_INFO' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return out('BAD_RESPONSE', `the target answered something that is not valid HTTP/1.1: ${msg}`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return out('DNS', `host not found: ${msg}`);
  if (/CERT|SSL|TLS|self[- ]signed|ERR_SSL/i.test(code + ' ' + msg)) return out('TLS', `TLS failure: ${msg} (use --insecure or --ca for a self-signed target)`);
  return out('OTHER', msg);
}
