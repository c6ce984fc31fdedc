/**
 * The front door of each listener: every TCP connection is counted here before node's HTTP or TLS server sees it.
 * A client (one remote address) holds at most `maxPerClient` connections and the process at most `maxConnections`,
 * so one client's idle connections cannot use up the process's descriptors and shut out everyone else. A connection
 * over a cap is refused at once: on plain HTTP with a `503` and `Retry-After` (the client learns why), on TLS by
 * closing it (no HTTP can be spoken before a handshake, and a handshake costs the CPU the cap is there to save).
 *
 * Closing after a refusal (ours, or node's 400/408/431) is a bounded "lingering close", as nginx does it: the answer
 * goes out with FIN, the socket keeps reading (and discarding) what the client still sends so the answer is not lost
 * to a reset, and the descriptor is released when the client closes too or `lingerMs` later, whichever is first —
 * never "when the client gets round to it".
 */
import net from 'node:net';
import type { Server } from 'node:net';
import type { Duplex } from 'node:stream';

/** The limits of {@link ConnectionGate}. */
export interface ConnectionLimits {
  /** Most open connections of the process, both listeners together. */
  maxConnections: number;
  /** Most open connections from one remote address. */
  maxPerClient: number;
  /** How long a closing connection may still hold its descriptor after its last answer went out, ms. */
  lingerMs: number;
}

/** What a listener says about a refused connection. */
export type ConnectionRefusal = 'process' | 'client';

/** The plain-HTTP answer to a connection over a cap: it is sent before any request is read, then the socket closes. */
export function refusalResponse(refusal: ConnectionRefusal): string {
  const detail =
    refusal === 'client'
      ? 'too many open connections from this address; close idle ones or retry later'
      : 'too many open connections; retry later';
  const body = JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail });
  return (
    'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nRetry-After: 1\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/**
 * Counts open connections per remote address and in all, across the listeners it is attached to, and closes every
 * one of them on {@link ConnectionGate.destroyAll}.
 */
export class ConnectionGate {
  private readonly open = new Set<net.Socket>();
  private readonly perClient = new Map<string, number>();

  constructor(
    readonly limits: ConnectionLimits,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** Open connections right now (both listeners). */
  size(): number {
    return this.open.size;
  }

  /**
   * A listening front door that hands each admitted socket to `inner` (node's HTTP or TLS server, which never
   * listens itself). `secure` says whether a refusal can be answered in HTTP (no: TLS).
   */
  frontDoor(inner: Server, secure: boolean): Server {
    // The options node's own servers give their sockets: no Nagle delay; half-open allowed on plain HTTP (a client
    // that ends its side still gets its answer), not under TLS (node's HTTPS server does not allow it either).
    const door = net.createServer({ allowHalfOpen: !secure, noDelay: true }, (socket) => {
      const refusal = this.admit(socket);
      if (refusal === undefined) inner.emit('connection', socket);
      else this.refuse(socket, refusal, secure);
    });
    // node's HTTP server starts its request-timeout checks (408) on its own 'listening' event; it never listens
    // itself here, so it hears that event when its front door listens.
    door.once('listening', () => inner.emit('listening'));
    return door;
  }

  /**
   * Counts `socket` in (until it closes), or says which cap refuses it; a refused socket is counted too while it
   * lingers, since it holds a descriptor as well. Pass a refused one to {@link ConnectionGate.refuse}.
   */
  admit(socket: net.Socket): ConnectionRefusal | undefined {
    const client = socket.remoteAddress ?? '';
    const held = this.perClient.get(client) ?? 0;
    const refusal =
      held >= this.limits.maxPerClient
        ? 'client'
        : this.open.size >= this.limits.maxConnections
          ? 'process'
          : undefined;
    this.open.add(socket);
    this.perClient.set(client, held + 1);
    socket.once('close', () => {
      this.open.delete(socket);
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    });
    return refusal;
  }

  /** Closes a socket {@link ConnectionGate.admit} refused: a `503` first on plain HTTP, at once on TLS. */
  refuse(socket: net.Socket, refusal: ConnectionRefusal, secure: boolean): void {
    this.log(
      `connection from ${socket.remoteAddress ?? '?'} refused: ${refusal === 'client' ? `more than ${this.limits.maxPerClient} from this address` : `more than ${this.limits.maxConnections} in all`}`,
    );
    socket.on('error', () => socket.destroy());
    if (secure) {
      socket.destroy();
      return;
    }
    this.endAndLinger(socket, refusalResponse(refusal));
  }

  /**
   * Sends `last` (if any) and FIN, then releases the descriptor when the client closes its side or `lingerMs`
   * after the answer went out, whichever comes first. What the client still sends meanwhile is read and dropped.
   */
  endAndLinger(socket: net.Socket, last?: string): void {
    lingeringClose(socket, this.limits.lingerMs, last);
  }

  /** Closes every open connection at once (the server is stopping). */
  destroyAll(): void {
    for (const socket of this.open) socket.destroy();
  }
}

/** See {@link ConnectionGate.endAndLinger}; usable on any duplex socket. */
export function lingeringClose(socket: Duplex, lingerMs: number, last?: string): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // The client closed its side: release the descriptor once our answer has gone out.
  socket.once('end', () =>
    socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()),
  );
  socket.on('data', () => {});
  socket.resume();
  if (!socket.writable) socket.destroy();
  else if (last === undefined) socket.end();
  else socket.end(last);
}
