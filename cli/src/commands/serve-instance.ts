/**
 * `conform serve-instance`: one instance of `conform serve --instances N`, started by it as a child process. It
 * takes its settings over IPC (cluster/protocol.ts), reports its URLs, and runs until told to stop, until its
 * parent goes away (the IPC channel closes), or until SIGINT/SIGTERM. Not for direct use.
 */
import {
  DEFAULT_MAX_CONNECTIONS,
  ReferenceServerError,
  parseFaultNames,
  parseVariantNames,
  startServer,
  type RunningServer,
} from '../../../reference-server/src/index.js';
import {
  InstanceReportSchema,
  StartMessageSchema,
  StopMessageSchema,
  type InstanceReport,
  type StartMessage,
} from '../cluster/protocol.js';
import type { CliIo } from '../io.js';

export async function serveInstanceCommand(_argv: string[], io: CliIo): Promise<number> {
  const send = process.send?.bind(process);
  if (send === undefined) {
    io.stderr.write(
      'conform serve-instance: started by `conform serve --instances N`, which passes its settings over IPC; not for direct use\n',
    );
    return 2;
  }
  const report = (r: InstanceReport) => void send(InstanceReportSchema.parse(r));
  const parsed = StartMessageSchema.safeParse(await nextMessage());
  if (!parsed.success) {
    report({
      type: 'failed',
      instance: 1,
      message: `invalid start message: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      usage: true,
    });
    process.disconnect();
    return 2;
  }
  const start = parsed.data;
  // Listen for a stop (and for SIGINT from a terminal's Ctrl-C, which reaches every instance) from now on.
  const stopped = untilStopped();
  let server: RunningServer;
  try {
    server = await startServer(serverOptions(start, io));
  } catch (err) {
    const usage = err instanceof ReferenceServerError && err.code !== 'REF_REDIS_UNAVAILABLE';
    report({ type: 'failed', instance: start.instance, message: (err as Error).message, usage });
    process.disconnect();
    return 2;
  }
  report({
    type: 'listening',
    instance: start.instance,
    url: server.url,
    ...(server.httpsUrl ? { httpsUrl: server.httpsUrl } : {}),
  });
  await stopped;
  await server.close();
  if (process.connected) process.disconnect();
  return 0;
}

function serverOptions(start: StartMessage, io: CliIo): Parameters<typeof startServer>[0] {
  const { settings, instance } = start;
  return {
    ...settings,
    // Behind the balancer every connection comes from one address (the balancer's), which applies the per-client
    // cap itself: here only the process's cap holds.
    maxConnectionsPerClient: settings.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    faults: parseFaultNames(settings.faults),
    variants: parseVariantNames(settings.variants),
    port: start.port,
    ...(start.httpsPort !== undefined ? { httpsPort: start.httpsPort } : {}),
    ...(start.redis ? { redis: { ...start.redis, instance } } : {}),
    log: start.quiet ? () => {} : (line) => io.stderr.write(`[instance ${instance}] ${line}\n`),
  };
}

function nextMessage(): Promise<unknown> {
  return new Promise((resolve) => process.once('message', resolve));
}

/** Resolves on a stop message, when the parent's channel closes, or on SIGINT/SIGTERM. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('message', onMessage);
      process.off('disconnect', done);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    const onMessage = (m: unknown) => {
      if (StopMessageSchema.safeParse(m).success) done();
    };
    process.on('message', onMessage);
    process.on('disconnect', done);
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
