/**
 * One exchange through undici's dispatch API, with the harness's bounds (one timer for the whole exchange, a cap on
 * the body), and undici's and the socket's errors mapped to stable codes.
 */
import type { Dispatcher } from 'undici';
import type { SendResult, TransportError, TransportErrorCode } from './types.js';

/** An exchange under way: when it must have ended, and how it ends then. */
interface Deadline {
  at: number;
  expire(): void;
}

/**
 * The deadlines of the exchanges under way, checked together every {@link SWEEP_MS}: a Set entry per exchange instead
 * of a timer each (creating and cancelling a timer for every request was about 2.5 µs of it). A deadline is met
 * within SWEEP_MS of its time, never before it.
 */
const deadlines = new Set<Deadline>();
const SWEEP_MS = 10;
let sweeper: ReturnType<typeof setInterval> | undefined;

function sweep(): void {
  const now = performance.now();
  for (const d of deadlines)
    if (d.at <= now) {
      deadlines.delete(d);
      d.expire();
    }
  if (deadlines.size === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

function watch(d: Deadline): void {
  deadlines.add(d);
  sweeper ??= setInterval(sweep, SWEEP_MS);
}

/**
 * One request through undici's dispatch API, the body collected as it arrives (no stream in between): a hard cap on
 * its size and one deadline for the whole exchange, so a body that trickles a byte at a time ends at the deadline
 * like one that stalls. Transport failures are data.
 */
export function exchange(
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
      deadlines.delete(deadline);
      resolve(result);
    };
    const fail = (error: TransportError) => {
      finish({ ok: false, error });
      if (controller && !controller.aborted) controller.abort(new Error(error.message));
    };
    const deadline: Deadline = {
      at: started + timeoutMs,
      expire: () =>
        fail({
          code: 'TIMEOUT',
          message: `no complete response within ${timeoutMs} ms` + (status === 0 ? '' : ' (the body did not finish)'),
        }),
    };
    watch(deadline);
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
