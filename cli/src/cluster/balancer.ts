/**
 * A TCP load balancer for the reference cluster: each new connection goes to the next instance in turn (round robin
 * per connection, as many layer-4 balancers do), and the bytes pass through untouched both ways — TLS included,
 * which the instances terminate with one shared certificate. So the load-balanced target is exactly the instances
 * behind it, and nothing a client sends or gets is changed on the way.
 */
import net from 'node:net';
import type { ConnectionGate } from '../../../reference-server/src/index.js';

export interface Balancer {
  port: number;
  /** Connections forwarded so far. */
  forwarded(): number;
  /** Stops listening and closes every forwarded connection. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Listens on `host:port` (0: a free port) and forwards each connection to the next of `targets` (ports on `host`).
 * `gate` counts the connections of every balancer port together and refuses those over its caps (per client, in
 * all) as the reference server does (`secure`: TLS behind this port, so a refusal is a close, not a `503`): behind
 * the balancer every instance sees one client, the balancer, so the per-client cap is applied here.
 */
export function startBalancer(
  host: string,
  port: number,
  targets: readonly number[],
  log: (line: string) => void,
  gate: ConnectionGate,
  secure: boolean,
): Promise<Balancer> {
  if (targets.length === 0) throw new RangeError('a balancer needs at least one target');
  const open = new Set<net.Socket>();
  let next = 0;
  let count = 0;
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const refusal = gate.admit(client);
    if (refusal !== undefined) return gate.refuse(client, refusal, secure);
    const target = targets[next]!;
    next = (next + 1) % targets.length;
    count++;
    const upstream = net.connect({ host, port: target, allowHalfOpen: true });
    open.add(client);
    open.add(upstream);
    const finishClient = (): void => {
      if (!client.destroyed) client.end(() => client.destroy());
    };
    // Ends travel on (a client that half-closes still gets its answer); an error tears both sides down; a client
    // gone means its instance connection is dropped, an instance gone means the client gets what was sent, then FIN.
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => {
      client.destroy();
      upstream.destroy();
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE')
        log(`balancer: instance on port ${target}: ${err.message}`);
      upstream.destroy();
      finishClient();
    });
    client.on('close', () => {
      open.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      open.delete(upstream);
      finishClient();
    });
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    });
    return closing;
  };
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', (err) => log(`balancer: ${err.message}`));
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address !== null ? address.port : port,
        forwarded: () => count,
        close,
      });
    });
  });
}
