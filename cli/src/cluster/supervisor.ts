/**
 * `conform serve --instances N`: starts N instances of the reference server as child processes (each with its own
 * ports, sharing one TLS certificate and one Redis), then a round-robin balancer in front of them on the ports of
 * `--port` and `--https-port`. Stops them all on close, and tells when one exits on its own.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ConformError } from '../../../harness/src/errors.js';
import {
  ConnectionGate,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  generateSelfSignedCertificate,
} from '../../../reference-server/src/index.js';
import { packageRoot } from '../io.js';
import type { ClusterSettings, ServeSettings } from '../serve-options.js';
import { startBalancer, type Balancer } from './balancer.js';
import { InstanceReportSchema, type StartMessage } from './protocol.js';

/** One running instance. */
export interface ClusterInstance {
  /** 1-based, as `conform serve` prints it and the profile's `target.instances` lists it. */
  instance: number;
  pid: number;
  url: string;
  httpsUrl?: string;
}

/** A running cluster: its instances and the balancer in front of them. */
export interface RunningCluster {
  instances: ClusterInstance[];
  /** The balancer's plain-HTTP base URL. */
  url: string;
  /** The balancer's TLS base URL, when TLS runs. */
  httpsUrl?: string;
  /** The PEM certificate every instance serves. */
  certificate?: string;
  /** Resolves with a reason when an instance exits on its own (never while closing). */
  crashed: Promise<string>;
  /** Stops the balancer and every instance (SIGKILL after 5 s). Safe to call twice. */
  close(): Promise<void>;
}

export interface ClusterStart {
  settings: ServeSettings;
  cluster: ClusterSettings;
  /** The balancer's ports (0: free); `httpsPort` undefined: no TLS anywhere. */
  port: number;
  httpsPort?: number;
  quiet: boolean;
  log: (line: string) => void;
}

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
  });
}

/** Forks one instance and resolves once it listens. */
function startInstance(message: StartMessage): { child: ChildProcess; ready: Promise<ClusterInstance> } {
  const child = fork(path.join(packageRoot(), 'bin', 'conform.js'), ['serve-instance'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'json',
  });
  const ready = new Promise<ClusterInstance>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new ConformError(
            'CONFORM_IO',
            `instance ${message.instance} did not start within ${START_TIMEOUT_MS / 1000} s`,
          ),
        ),
      START_TIMEOUT_MS,
    );
    const fail = (error: ConformError) => {
      clearTimeout(timer);
      reject(error);
    };
    child.once('exit', (code, signal) =>
      fail(
        new ConformError('CONFORM_IO', `instance ${message.instance} exited (${code ?? signal}) before it listened`),
      ),
    );
    child.once('error', (err) => fail(new ConformError('CONFORM_IO', `instance ${message.instance}: ${err.message}`)));
    child.once('message', (raw) => {
      clearTimeout(timer);
      const report = InstanceReportSchema.safeParse(raw);
      if (!report.success)
        return reject(new ConformError('CONFORM_INTERNAL', `instance ${message.instance} sent an unreadable report`));
      const r = report.data;
      if (r.type === 'failed')
        return reject(
          new ConformError(r.usage ? 'CONFORM_USAGE' : 'CONFORM_IO', `instance ${r.instance}: ${r.message}`),
        );
      resolve({
        instance: r.instance,
        pid: child.pid ?? 0,
        url: r.url,
        ...(r.httpsUrl ? { httpsUrl: r.httpsUrl } : {}),
      });
    });
  });
  child.send(message);
  return { child, ready };
}

/** How long a connection the balancer refused may hold its descriptor while its client keeps its side open, ms. */
const BALANCER_LINGER_MS = 2000;

/** Starts the instances, then the balancer (see the module comment). */
export async function startCluster(start: ClusterStart): Promise<RunningCluster> {
  const { settings, cluster } = start;
  const tls = start.httpsPort === undefined ? undefined : (settings.tls ?? generateSelfSignedCertificate(new Date()));
  const base = cluster.instancePort;
  const started = Array.from({ length: cluster.instances }, (_, k) =>
    startInstance({
      type: 'start',
      instance: k + 1,
      quiet: start.quiet,
      port: base === undefined ? 0 : base + 2 * k,
      ...(tls === undefined ? {} : { httpsPort: base === undefined ? 0 : base + 2 * k + 1 }),
      settings: { ...settings, ...(tls === undefined ? {} : { tls }) },
      ...(cluster.redis ? { redis: cluster.redis } : {}),
    }),
  );
  const children = started.map((s) => s.child);
  const balancers: Balancer[] = [];
  let closing = false;
  const close = async () => {
    closing = true;
    await Promise.all(balancers.map((b) => b.close()));
    await Promise.all(children.map(stopChild));
  };
  try {
    const outcomes = await Promise.allSettled(started.map((s) => s.ready));
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) throw failure.reason;
    const instances = outcomes.map((o) => (o as PromiseFulfilledResult<ClusterInstance>).value);
    const port = (url: string) => Number(new URL(url).port);
    // The connection caps are the balancer's: each instance sees one client, the balancer (serve-instance.ts).
    const gate = new ConnectionGate(
      {
        maxConnections: settings.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
        maxPerClient: settings.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
        lingerMs: BALANCER_LINGER_MS,
      },
      start.log,
    );
    balancers.push(
      await startBalancer(
        settings.host,
        start.port,
        instances.map((i) => port(i.url)),
        start.log,
        gate,
        false,
      ),
    );
    const secure =
      tls === undefined
        ? undefined
        : await startBalancer(
            settings.host,
            start.httpsPort ?? 0,
            instances.map((i) => port(i.httpsUrl ?? i.url)),
            start.log,
            gate,
            true,
          );
    if (secure) balancers.push(secure);
    const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
    const crashed = new Promise<string>((resolve) => {
      children.forEach((child, k) =>
        child.once('exit', (code, signal) => {
          if (!closing) resolve(`instance ${k + 1} (pid ${child.pid ?? '?'}) exited on its own (${code ?? signal})`);
        }),
      );
    });
    return {
      instances,
      url: `http://${host}:${balancers[0]!.port}`,
      ...(secure ? { httpsUrl: `https://${host}:${secure.port}` } : {}),
      ...(tls ? { certificate: tls.cert } : {}),
      crashed,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
