/**
 * Requests that complete at the same instant (last-byte synchronisation): each goes over a connection of its own;
 * what it writes is held back until every request of the group is written whole, then all but the last byte of each
 * is sent, and once those are out (and the target had a moment to read them) the last bytes of all are written in
 * one synchronous loop. A target then receives
 * every request's end together, however fast its handler is — the overlap a check-then-record race needs is certain,
 * not likely (issue 37). A request with a body has its headers (and most of its body) long arrived: a server that
 * checks on the headers and records after the body sees all of them in flight.
 *
 * Responses are read by undici as for any other send (the same timer, the same cap on a body, the same error codes).
 */
import type { Socket } from 'node:net';
import { buildConnector, Client } from 'undici';
import { exchange } from './exchange.js';
import type { HttpRequest, SendResult } from './types.js';
import { splitUrl } from './url.js';

export interface TogetherSettings {
  timeoutMs: number;
  maxBytes: number;
  insecure?: boolean;
  ca?: string;
  /**
   * Pause between all but the last bytes and the last bytes, ms. Default 50: the time for a target to accept the
   * connections and read their first bytes, so that the last bytes find every request waiting. It changes no
   * correct target's answer, only how surely a target that checks before it records is caught.
   */
  settleMs?: number;
}

/** One request's held bytes, on its socket. */
interface Held {
  socket: Socket;
  write: (chunk: Buffer, cb?: (err?: Error | null) => void) => boolean;
  bytes: Buffer[];
  bodyLength: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Whether the held bytes are a whole request: its head and `bodyLength` bytes after it. */
function whole(h: Held): boolean {
  const all = Buffer.concat(h.bytes);
  const end = all.indexOf(HEAD_END);
  return end >= 0 && all.length >= end + HEAD_END.length + h.bodyLength;
}

/** The group's barrier: released once every member is written whole into its gate, or gone. */
class Group {
  private readonly ready = new Map<number, Held>();
  private readonly waiting: Set<number>;
  private released = false;

  constructor(
    size: number,
    private readonly settleMs: number,
  ) {
    this.waiting = new Set(Array.from({ length: size }, (_, i) => i));
  }

  /** Holds every write of request `i` on `socket` until the release. */
  gate(i: number, socket: Socket, bodyLength: number): void {
    const held: Held = { socket, write: socket.write.bind(socket) as Held['write'], bytes: [], bodyLength };
    let open = false;
    socket.write = ((chunk: string | Uint8Array, encoding?: unknown, cb?: unknown): boolean => {
      const callback = (typeof encoding === 'function' ? encoding : cb) as ((e?: Error | null) => void) | undefined;
      if (open) return held.write(toBuffer(chunk, encoding), callback);
      held.bytes.push(toBuffer(chunk, encoding));
      if (callback) process.nextTick(callback);
      if (whole(held)) {
        open = true;
        this.arrive(i, held);
      }
      return true;
    }) as Socket['write'];
  }

  /** Request `i` ended before it was held whole (refused connection, timeout): the others do not wait for it. */
  leave(i: number): void {
    if (this.waiting.delete(i)) void this.maybeRelease();
  }

  private arrive(i: number, held: Held): void {
    this.ready.set(i, held);
    this.leave(i);
  }

  private async maybeRelease(): Promise<void> {
    if (this.released || this.waiting.size > 0) return;
    this.released = true;
    const members = [...this.ready.values()].filter((h) => !h.socket.destroyed);
    const bytes = members.map((h) => Buffer.concat(h.bytes));
    // All but the last byte of each, every write handed to the kernel before the last bytes go; then a pause, so
    // that the target has accepted every connection and read what came (a server accepts a connection per turn of
    // its event loop, and reads a new one's bytes only on the turn after).
    await Promise.all(
      members.map(
        (h, k) =>
          new Promise<void>((resolve) => {
            if (bytes[k]!.length <= 1) return resolve();
            h.write(bytes[k]!.subarray(0, -1), () => resolve());
          }),
      ),
    );
    await new Promise<void>((resolve) => setTimeout(resolve, this.settleMs));
    // And turns of this event loop, one per connection and two more: a target in this process accepts a connection
    // per turn and reads it on the next, whatever the clock says.
    for (let turn = 0; turn < members.length + 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const [k, h] of members.entries()) if (!h.socket.destroyed) h.write(bytes[k]!.subarray(-1));
  }
}

function toBuffer(chunk: string | Uint8Array, encoding: unknown): Buffer {
  if (typeof chunk !== 'string') return Buffer.from(chunk);
  return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

function bodyLength(body: HttpRequest['body']): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** Sends `requests` so that their last bytes reach the target together; the answers in the same order. */
export async function sendTogether(
  requests: readonly HttpRequest[],
  settings: TogetherSettings,
): Promise<SendResult[]> {
  const group = new Group(requests.length, settings.settleMs ?? 50);
  const connector = buildConnector({
    rejectUnauthorized: !settings.insecure,
    ...(settings.ca ? { ca: settings.ca } : {}),
    timeout: Math.min(settings.timeoutMs, 10_000),
  });
  const clients: Client[] = [];
  try {
    return await Promise.all(
      requests.map((req, i) => {
        const url = splitUrl(req.url);
        const client = new Client(url.origin, {
          pipelining: 1,
          headersTimeout: settings.timeoutMs,
          bodyTimeout: settings.timeoutMs,
          maxResponseSize: settings.maxBytes,
          connect: (options, callback) =>
            connector(options, (err, socket) => {
              if (socket) group.gate(i, socket, bodyLength(req.body));
              // The overloads of the callback take (null, socket) or (error, null).
              if (err) callback(err, null);
              else callback(null, socket!);
            }),
        });
        clients.push(client);
        return exchange(
          client,
          {
            origin: url.origin,
            path: url.path,
            method: req.method as 'GET',
            headers: req.headers,
            body: req.body ?? null,
          },
          settings.timeoutMs,
          settings.maxBytes,
        ).finally(() => group.leave(i));
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.destroy().catch(() => undefined)));
  }
}
