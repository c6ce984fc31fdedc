/** Listening and closing: the ports, and one idempotent close for every listener, connection, journal and store. */
import type { Server } from 'node:http';
import type { Server as NetServer } from 'node:net';
import type { ConnectionGate } from './connections.js';
import type { Journal } from './store/journal.js';

/** One listener: node's HTTP or TLS server, fed by the front door that listens and counts connections. */
export interface Listener {
  door: NetServer;
  http: Server;
}

/** Listens on `host:port` (0: a free port) and resolves to the port; later server errors are logged. */
export function listen(server: NetServer, host: string, port: number, log: (line: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', (err) => log(`server error: ${err.message}`));
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/** A host as a URL writes it (brackets around IPv6). */
export function hostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** One idempotent close for every listener started so far and every connection, then the journal and the shared store. */
export function closer(
  listeners: readonly Listener[],
  gate: ConnectionGate,
  journal: Journal | undefined,
  store: { close(): Promise<void> } | undefined,
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= Promise.all(
      listeners.map(
        ({ door, http }) =>
          new Promise<void>((resolve) => {
            // The HTTP server never listened: its close only stops its timeout checks (and reports "not running").
            http.close(() => {});
            http.closeAllConnections();
            if (!door.listening) return resolve();
            door.close(() => resolve());
            gate.destroyAll();
          }),
      ),
    ).then(async () => {
      gate.destroyAll();
      await journal?.close();
      await store?.close();
    });
    return closing;
  };
}
