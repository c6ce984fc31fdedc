/** The answer to a body over the cap: 413 at once, and a lingering close. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { lingeringClose } from './connections.js';
import { writeResponse } from './io.js';
import type { ResolvedServerOptions } from './options.js';
import { byteLength, problem } from './responses.js';
import type { ResponseRecord } from './records.js';

/**
 * 413 before the body is read (or the rest of it), then a lingering close (RFC 9112 §9.6, nginx's lingering_close):
 * what the client still sends is read and dropped until it closes its side or `lingerMs` pass. Closing with the body
 * unread would reset the connection, and a client still writing it could lose the 413 before reading it (behind a
 * TCP balancer too: the reset reaches the balancer first, before it has passed the answer on).
 */
export function replyTooLarge(req: IncomingMessage, res: ServerResponse, options: ResolvedServerOptions): void {
  const socket = req.socket;
  // node's server ends a `Connection: close` answer with destroySoon(): here it lingers instead.
  socket.destroySoon = () => lingeringClose(socket, options.lingerMs);
  options.log(`${req.method ?? '?'} ${req.url ?? ''} 413`);
  writeResponse(res, tooLarge(options));
}

/** 413 sent before the body is read; the connection closes because the rest of the body stays unread. */
function tooLarge(options: ResolvedServerOptions): ResponseRecord {
  const record = problem(413, `request body exceeds ${options.maxBodyBytes} bytes`, {
    headers: { connection: 'close' },
  });
  return { ...record, headers: { ...record.headers, 'content-length': String(byteLength(record.body)) } };
}
