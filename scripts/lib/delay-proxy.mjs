// A TCP proxy on 127.0.0.1 (a free port) that delays every chunk by `delayMs` in each direction, order kept: the
// network of the latency bench (scripts/lib/latency.mjs). By default it runs on a worker thread of its own, so its
// timers and socket writes do not queue behind the harness's work on the harness's event loop (a real network's
// delay costs the client nothing); `thread: 'main'` runs it on the caller's thread instead.
import net from 'node:net';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/** The proxy itself, on whichever thread calls it. Counts the connections it accepts. */
async function listenDelayProxy(upstreamPort, delayMs) {
  const sockets = new Set();
  let connections = 0;
  const pipe = (from, to) => {
    from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), delayMs));
    from.on('end', () => setTimeout(() => to.end(), delayMs));
    from.on('error', () => to.destroy());
    from.on('close', () => setTimeout(() => to.destroy(), delayMs));
  };
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts the proxy to `upstreamPort`. Resolves to `{ port, connections(): Promise<number>, close(): Promise<void> }`.
 * @param {number} upstreamPort
 * @param {number} delayMs
 * @param {{ thread?: 'worker' | 'main' }} [options]
 */
export async function startDelayProxy(upstreamPort, delayMs, { thread = 'worker' } = {}) {
  if (thread === 'main') {
    const proxy = await listenDelayProxy(upstreamPort, delayMs);
    return { port: proxy.port, connections: async () => proxy.connections(), close: proxy.close };
  }
  const worker = new Worker(new URL(import.meta.url), { workerData: { upstreamPort, delayMs } });
  const replies = [];
  worker.on('message', (m) => replies.shift()?.(m));
  const ask = (question) =>
    new Promise((resolve, reject) => {
      replies.push(resolve);
      worker.once('error', reject);
      if (question !== undefined) worker.postMessage(question);
    });
  const { port } = await ask(undefined);
  return {
    port,
    connections: async () => (await ask('connections')).connections,
    close: async () => {
      await ask('close');
      await worker.terminate();
    },
  };
}

if (!isMainThread && workerData && parentPort) {
  const proxy = await listenDelayProxy(workerData.upstreamPort, workerData.delayMs);
  parentPort.on('message', async (m) => {
    if (m === 'connections') parentPort.postMessage({ connections: proxy.connections() });
    if (m === 'close') {
      await proxy.close();
      parentPort.postMessage({ closed: true });
    }
  });
  parentPort.postMessage({ port: proxy.port });
}
