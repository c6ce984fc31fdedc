/** `conform serve`: the bundled reference server, optionally with fault modes. Runs until SIGINT/SIGTERM. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConformError } from '../../../harness/src/errors.js';
import {
  DEFAULT_PREFIX,
  FAULTS,
  ReferenceServerError,
  VARIANTS,
  displayRedisUrl,
  parseFaultNames,
  parseVariantNames,
  startServer,
} from '../../../reference-server/src/index.js';
import { serveClientReport } from '../client/serve-report.js';
import { startCluster, type ClusterInstance, type RunningCluster } from '../cluster/supervisor.js';
import { defaults } from '../io.js';
import {
  SERVE_OPTIONS,
  clusterSettings,
  serveSettings,
  type ClusterSettings,
  type ServeSettings,
  type ServeValues,
} from '../serve-options.js';
import { variantProfileText } from '../variant-profile.js';
import { intOption, parse } from '../args.js';
import type { CliIo } from '../io.js';

const HELP = `Usage: conform serve [--port N] [--https-port N] [--host H] [--data DIR] [--fault NAME]… [--list-faults]
       [--variant NAME]… [--list-variants] [--profile-out FILE] [--quiet]
       conform serve --instances N --redis URL [--redis-prefix P] [--instance-port N] [options above but --data]

Runs the bundled reference server (the implementation that passes every scenario): plain HTTP and, beside it,
TLS with a self-signed certificate made at start (or --cert/--key).
  --port N          Plain-HTTP port (default 8080; 0 picks a free one)
  --https-port N    TLS port (default 8443; 0 picks a free one; "off" for none)
  --cert FILE       TLS certificate (PEM); with --key. Default: self-signed for 127.0.0.1 and localhost
  --key FILE        TLS private key (PEM)
  --cert-out FILE   Write the certificate in use (PEM), for clients to trust (curl --cacert, conform run --ca)
  --host H          Interface (default 127.0.0.1)
  --window S        Accepted clock difference for signed requests, seconds (default 600)
  --body-hash on|off  Require the body hash in signed PUT/POST (docs/auth.md; default on)
  --token-ttl S     OAuth 2 access token lifetime, seconds (default 5, short so expiry can be tested; raise it
                    for manual use)
  --fault NAME      Switch on a named defect (repeatable or comma-separated), to see the harness catch it
  --list-faults     Print the fault modes and exit
  --variant NAME    Choose an open point of the spec differently (repeatable or comma-separated): still a
                    correct server, which the whole suite passes with the variant's profile
  --list-variants   Print the variants and exit
  --profile-out FILE  Write the profile of this server (the reference profile with the variants' keys and the
                    listening URLs), for conform run --profile
  --data DIR        Keep articles and nonces in DIR (an fsynced append-only journal): every answer goes out
                    only once its changes are on disk, so a restart, even after kill -9, loses no acknowledged
                    write and still refuses replayed nonces. Default: memory only
Cluster (docs/cluster.md):
  --instances N     Run N instances (separate processes, each on its own ports, printed at start) and a
                    round-robin TCP balancer in front of them on --port and --https-port. They share articles,
                    nonces and OAuth credentials through --redis; without it they are refused (each instance with
                    its own nonces accepts a signed request once per instance), unless the faults
                    nonce-per-instance, tokens-per-instance and articles-per-instance all ask for that
  --redis URL       redis://[user:password@]host:port[/db]: where the state is shared (also for one instance).
                    Redis down → 503, nothing acknowledged that was not stored. Its maxmemory-policy must be
                    noeviction
  --redis-prefix P  Prefix of every Redis key: {P}:… (default conform), so several clusters can share one Redis
  --instance-port N Instance k listens on N+2(k-1) (HTTP) and the port after it (TLS). Default: free ports
  --profile-out FILE  With --instances, the profile also lists the instances (target.instances)
Limits (see the README's "Limits" section):
  --max-body N      Largest request body accepted, bytes; larger → 413 (default 65536)
  --max-header N    Largest request head, bytes; larger → 431 (default 16384)
  --max-articles N  Most articles stored; creating more answers 507 (default 10000)
  --nonce-capacity N  Most nonces remembered; when full, signed requests get 503 + Retry-After (default 1000000)
  --nonce-share N   Most nonces remembered for one user (or OAuth 1 consumer); past it only that user's signed
                    requests get 503 (default: the capacity shared out evenly among users and consumers)
  --token-capacity N  Most live OAuth credentials per store; when full, 503 + Retry-After (default 100000)
  --request-timeout MS  Time to receive a whole request; then 408 (default 5000)
  --keep-alive-timeout MS  Idle keep-alive connections are closed after this (default 5000)
  --handshake-timeout MS  Time a TLS client has to finish its handshake; then the connection closes (default 5000)
  --max-connections N  Most open connections, both ports together; one more is refused at once: 503 with
                    Retry-After on plain HTTP, closed on TLS (default 4096)
  --max-connections-per-client N  Most open connections from one address, refused the same way (default 512)
  --diagnose        Refusals of signed requests (hmac, OAuth 1) carry a "diagnostic" in their problem+json body: the
                    exact message or base string the server signed and the common mistake that explains the
                    client's digest (docs/clients.md); never a secret or an acceptable digest. Default off
  --client-report DIR  Record every request while running; on stop, judge them against the client rules and write
                    the client report into DIR (as conform check-client, docs/clients.md; first 100000 requests)
  --quiet           No access log on stderr
`;

/** Errors of the machine rather than of conform: a port taken, a data directory that cannot be used. */
const ENVIRONMENT_ERRORS = new Set([
  'EADDRINUSE',
  'EADDRNOTAVAIL',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EROFS',
  'ENOSPC',
  'EISDIR',
  'EEXIST',
]);

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, SERVE_OPTIONS);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (values['list-faults'] || values['list-variants']) {
    const entries: [string, string][] = values['list-faults']
      ? Object.entries(FAULTS)
      : Object.entries(VARIANTS).map(([name, v]) => [name, v.description]);
    const width = Math.max(...entries.map(([k]) => k.length));
    for (const [name, description] of entries) io.stdout.write(`${name.padEnd(width)}  ${description}\n`);
    return 0;
  }
  const settings = await serveSettings(values, io);
  const cluster = clusterSettings(values, settings.faults);
  const httpsPort =
    values['https-port'] === 'off' ? undefined : (intOption(values['https-port'], 'https-port', 0, 65535) ?? 8443);
  const port = intOption(values.port, 'port', 0, 65535) ?? 8080;
  const log = values.quiet ? () => {} : (line: string) => io.stderr.write(`${line}\n`);
  if (cluster !== undefined && cluster.instances > 1) {
    if (values['client-report'] !== undefined)
      throw new ConformError('CONFORM_USAGE', '--client-report records one instance: not with --instances');
    const running = await startCluster({
      settings,
      cluster,
      port,
      ...(httpsPort !== undefined ? { httpsPort } : {}),
      quiet: values.quiet ?? false,
      log,
    }).catch(environmentError);
    try {
      // Listen for the signals before anything says the cluster is up: a stop sent at once must stop it cleanly.
      const stopped = (io.untilSignal ?? untilSignal)();
      await writeOutputs(values, io, settings.variants, running, running.instances);
      io.stdout.write(clusterBanner(running, cluster, settings));
      const reason = await Promise.race([stopped.then(() => undefined), running.crashed]);
      if (reason !== undefined) throw new ConformError('CONFORM_IO', `${reason}; the cluster was stopped`);
    } finally {
      await running.close();
    }
    return 0;
  }
  const faults = parseFaultNames(settings.faults);
  const variants = parseVariantNames(settings.variants);
  const recording =
    values['client-report'] === undefined
      ? undefined
      : await serveClientReport(path.resolve(io.cwd, values['client-report']), argv, { ...settings, variants }, io);
  const server = await startServer({
    ...settings,
    ...(recording === undefined ? {} : { onExchange: recording.onExchange }),
    faults,
    variants,
    ...(values.data !== undefined ? { dataDir: path.resolve(io.cwd, values.data) } : {}),
    ...(cluster?.redis ? { redis: cluster.redis } : {}),
    ...(httpsPort !== undefined ? { httpsPort } : {}),
    port,
    log,
  }).catch(environmentError);
  const stopped = (io.untilSignal ?? untilSignal)();
  await writeOutputs(values, io, variants, server, []);
  const urls = [server.url, server.httpsUrl].filter(Boolean).join(' and ');
  const shared = cluster?.redis ? `, sharing its state through ${displayRedisUrl(cluster.redis.url)}` : '';
  io.stdout.write(
    `conform reference server listening on ${urls}${shared}${faults.length ? ` with fault${faults.length > 1 ? 's' : ''} ${faults.join(', ')}` : ''}${variants.length ? ` (variant${variants.length > 1 ? 's' : ''} ${variants.join(', ')})` : ''}\n`,
  );
  await stopped;
  await server.close();
  await recording?.finish(server);
  return 0;
}

/** Startup errors as conform errors: bad options (exit 2), or the machine's (a port taken, Redis unreachable). */
function environmentError(err: unknown): never {
  if (err instanceof ReferenceServerError) {
    const io = err.code === 'REF_JOURNAL_WRITE_FAILED' || err.code === 'REF_REDIS_UNAVAILABLE';
    throw new ConformError(io ? 'CONFORM_IO' : 'CONFORM_USAGE', err.message, { cause: err });
  }
  if (ENVIRONMENT_ERRORS.has(String((err as NodeJS.ErrnoException).code)))
    throw new ConformError('CONFORM_IO', (err as Error).message);
  throw err;
}

/** `--cert-out` and `--profile-out` (the profile lists the instances of a cluster). */
async function writeOutputs(
  values: ServeValues,
  io: CliIo,
  variants: readonly string[],
  server: { url: string; httpsUrl?: string; certificate?: string },
  instances: readonly ClusterInstance[],
): Promise<void> {
  if (values['cert-out'] && server.certificate)
    await writeFile(path.resolve(io.cwd, values['cert-out']), server.certificate);
  if (!values['profile-out']) return;
  const target = {
    http: server.url,
    https: server.httpsUrl ?? null,
    insecure: server.httpsUrl !== undefined,
    ...(instances.length > 0
      ? { instances: instances.map((i) => ({ http: i.url, ...(i.httpsUrl ? { https: i.httpsUrl } : {}) })) }
      : {}),
  };
  const parsed = parseVariantNames(variants);
  const header = `# Profile of: conform serve${parsed.map((v) => ` --variant ${v}`).join('')}${instances.length > 0 ? ` --instances ${instances.length}` : ''}\n`;
  await writeFile(
    path.resolve(io.cwd, values['profile-out']),
    header + variantProfileText(defaults.profile(), parsed, { target }),
  );
}

/** What `conform serve --instances N` prints at start: each instance (pid, URLs), then the balancer. */
function clusterBanner(running: RunningCluster, cluster: ClusterSettings, settings: ServeSettings): string {
  const store = cluster.redis
    ? `sharing articles, nonces and OAuth credentials through ${displayRedisUrl(cluster.redis.url)} (keys {${cluster.redis.prefix ?? DEFAULT_PREFIX}}:…)`
    : 'each keeping its own state (the broken design, on purpose)';
  const lines = [`conform reference cluster: ${running.instances.length} instances ${store}`];
  for (const i of running.instances)
    lines.push(`  instance ${i.instance} (pid ${i.pid}): ${[i.url, i.httpsUrl].filter(Boolean).join(' ')}`);
  const urls = [running.url, running.httpsUrl].filter(Boolean).join(' and ');
  const faults = settings.faults.length
    ? ` with fault${settings.faults.length > 1 ? 's' : ''} ${settings.faults.join(', ')}`
    : '';
  lines.push(
    `conform reference server listening on ${urls} (a round-robin balancer over the ${running.instances.length} instances)${faults}`,
  );
  return `${lines.join('\n')}\n`;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
