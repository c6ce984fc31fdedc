/**
 * Answers to what node's HTTP parser refused before a request reached the handler: a method token it does not know
 * (the 405 `handle` gives unknown methods), CONNECT, a head too large, a timeout, anything malformed. Written to the
 * socket directly, with a bounded lingering close.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { lingeringClose } from './connections.js';
import { unparsedMethodResponse } from './handle.js';
import type { ResponseRecord } from './records.js';
import { problem, reasonPhrase } from './responses.js';
import type { HandlerDeps, ServerState } from './types.js';

/** A request line whose method is a valid token (RFC 9110 §5.6.2) that node's parser does not know. */
const TOKEN_REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) /;

/**
 * Answers requests node:http could not parse: a method token it does not know → the same 405 with `Allow` the
 * handler gives unknown methods; huge headers → 431; timeout → 408; anything else → 400. Always closes.
 */
export function rejectClient(
  err: NodeJS.ErrnoException & { rawPacket?: Buffer },
  socket: Duplex,
  state: ServerState,
  deps: HandlerDeps,
  lingerMs: number,
): void {
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const line = TOKEN_REQUEST_LINE.exec((err.rawPacket ?? Buffer.alloc(0)).subarray(0, 8192).toString('latin1'));
  const record =
    err.code === 'HPE_INVALID_METHOD' && line !== null
      ? unparsedMethodResponse(line[1]!, targetPath(line[2]!), state, deps)
      : parserProblem(
          err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400,
          err.code,
        );
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

/**
 * Answers CONNECT (a tunnel request; node hands it to its own event, not to 'request'): the 405 unknown methods get,
 * with the `Allow` of the resource it names, then a lingering close.
 */
export function answerConnect(
  req: IncomingMessage,
  socket: Duplex,
  state: ServerState,
  deps: HandlerDeps,
  options: { lingerMs: number; log: (line: string) => void },
): void {
  const record = unparsedMethodResponse('CONNECT', connectPath(req.url ?? ''), state, deps);
  options.log(`CONNECT ${req.url ?? ''} ${record.status}`);
  lingeringClose(socket, options.lingerMs, rawResponse(record));
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
