/**
 * The options of `conform serve`, parsed once into the reference server's options: shared by the single server and
 * by every instance of a cluster (which receive them over IPC, see cluster/protocol.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConformError } from '../../harness/src/errors.js';
import {
  PREFIX_PATTERN,
  isClusterFault,
  parseFaultNames,
  parseVariantNames,
} from '../../reference-server/src/index.js';
import { faultList, intOption, type parse } from './args.js';
import type { CliIo } from './io.js';

/** The argv options of `conform serve`. */
export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  fault: { type: 'string', multiple: true },
  'list-faults': { type: 'boolean' },
  variant: { type: 'string', multiple: true },
  'list-variants': { type: 'boolean' },
  'profile-out': { type: 'string' },
  'max-body': { type: 'string' },
  'max-articles': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  diagnose: { type: 'boolean' },
  'client-report': { type: 'string' },
  'https-port': { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'cert-out': { type: 'string' },
  window: { type: 'string' },
  'body-hash': { type: 'string' },
  'token-ttl': { type: 'string' },
  data: { type: 'string' },
  'max-header': { type: 'string' },
  'nonce-capacity': { type: 'string' },
  'nonce-share': { type: 'string' },
  'token-capacity': { type: 'string' },
  'request-timeout': { type: 'string' },
  'keep-alive-timeout': { type: 'string' },
  'handshake-timeout': { type: 'string' },
  'max-connections': { type: 'string' },
  'max-connections-per-client': { type: 'string' },
  instances: { type: 'string' },
  redis: { type: 'string' },
  'redis-prefix': { type: 'string' },
  'instance-port': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type ServeValues = ReturnType<typeof parse<typeof SERVE_OPTIONS>>['values'];

/** What every server (or instance) of one `conform serve` runs with: JSON data, so it can go over IPC. */
export interface ServeSettings {
  host: string;
  faults: string[];
  variants: string[];
  tls?: { cert: string; key: string };
  maxBodyBytes?: number;
  maxArticles?: number;
  maxHeaderBytes?: number;
  nonceCapacity?: number;
  nonceShare?: number;
  tokenCapacity?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  handshakeTimeoutMs?: number;
  maxConnections?: number;
  maxConnectionsPerClient?: number;
  window?: number;
  tokenTtl?: number;
  bodyHash?: boolean;
  /** Refusals of signed requests say what the server signed and the mistake behind the digest (`--diagnose`). */
  diagnose?: boolean;
}

/** The cluster part of `conform serve`: how many instances, and the Redis they share (none only under the faults). */
export interface ClusterSettings {
  instances: number;
  redis?: { url: string; prefix?: string };
  /** First instance's plain-HTTP port (then TLS on the next, and so on); undefined: free ports. */
  instancePort?: number;
}

/** Reads the common settings; `--cert`/`--key` files are read here. */
export async function serveSettings(values: ServeValues, io: CliIo): Promise<ServeSettings> {
  const faults = parseFaultNames(faultList(values.fault, parseFaultNames));
  const variants = parseVariantNames(faultList(values.variant, parseVariantNames));
  if ((values.cert === undefined) !== (values.key === undefined))
    throw new ConformError('CONFORM_USAGE', '--cert and --key go together');
  const readPem = async (file: string) =>
    readFile(path.resolve(io.cwd, file), 'utf8').catch((err: Error) => {
      throw new ConformError('CONFORM_USAGE', `cannot read ${file}: ${err.message}`);
    });
  const tls =
    values.cert !== undefined && values.key !== undefined
      ? { cert: await readPem(values.cert), key: await readPem(values.key) }
      : undefined;
  const bodyHash =
    values['body-hash'] === undefined
      ? undefined
      : values['body-hash'] === 'on'
        ? true
        : values['body-hash'] === 'off'
          ? false
          : undefined;
  if (values['body-hash'] !== undefined && bodyHash === undefined)
    throw new ConformError('CONFORM_USAGE', '--body-hash takes on or off');
  const numbers = {
    maxBodyBytes: intOption(values['max-body'], 'max-body', 1, 1024 ** 3),
    maxArticles: intOption(values['max-articles'], 'max-articles', 1, 100_000_000),
    maxHeaderBytes: intOption(values['max-header'], 'max-header', 1024, 1024 ** 2),
    nonceCapacity: intOption(values['nonce-capacity'], 'nonce-capacity', 1, 100_000_000),
    nonceShare: intOption(values['nonce-share'], 'nonce-share', 1, 100_000_000),
    tokenCapacity: intOption(values['token-capacity'], 'token-capacity', 1, 100_000_000),
    requestTimeoutMs: intOption(values['request-timeout'], 'request-timeout', 100, 3_600_000),
    keepAliveTimeoutMs: intOption(values['keep-alive-timeout'], 'keep-alive-timeout', 100, 3_600_000),
    handshakeTimeoutMs: intOption(values['handshake-timeout'], 'handshake-timeout', 100, 3_600_000),
    maxConnections: intOption(values['max-connections'], 'max-connections', 1, 1_000_000),
    maxConnectionsPerClient: intOption(
      values['max-connections-per-client'],
      'max-connections-per-client',
      1,
      1_000_000,
    ),
    window: intOption(values.window, 'window', 1, 10 * 365 * 86_400),
    tokenTtl: intOption(values['token-ttl'], 'token-ttl', 1, 365 * 86_400),
  };
  return {
    host: values.host ?? '127.0.0.1',
    faults,
    variants,
    ...(tls ? { tls } : {}),
    ...Object.fromEntries(Object.entries(numbers).filter(([, v]) => v !== undefined)),
    ...(bodyHash !== undefined ? { bodyHash } : {}),
    ...(values.diagnose === true ? { diagnose: true } : {}),
  };
}

/**
 * The cluster settings, or undefined for one server. `--instances N` (N ≥ 2) needs `--redis`: instances that each
 * keep their own articles, nonces and tokens are exactly the broken design (a signed request accepted once per
 * instance), so that is allowed only when all three cluster faults ask for it. `--redis` alone runs one server on
 * Redis.
 * @throws {ConformError} CONFORM_USAGE for a combination that cannot work.
 */
export function clusterSettings(values: ServeValues, faults: readonly string[]): ClusterSettings | undefined {
  const instances = intOption(values.instances, 'instances', 1, 32) ?? 1;
  const clusterFaults = faults.filter(isClusterFault);
  const redisUrl = values.redis;
  if (redisUrl !== undefined && !/^rediss?:\/\/\S+$/.test(redisUrl))
    throw new ConformError('CONFORM_USAGE', '--redis expects a redis:// or rediss:// URL');
  if (values['redis-prefix'] !== undefined && redisUrl === undefined)
    throw new ConformError('CONFORM_USAGE', '--redis-prefix needs --redis URL');
  if (values['redis-prefix'] !== undefined && !PREFIX_PATTERN.test(values['redis-prefix']))
    throw new ConformError('CONFORM_USAGE', '--redis-prefix is 1 to 64 letters, digits or . _ : -');
  if ((redisUrl !== undefined || instances > 1) && values.data !== undefined) {
    throw new ConformError(
      'CONFORM_USAGE',
      '--data cannot be combined with --redis or --instances: in a cluster, Redis keeps the shared state (its persistence settings decide what survives a restart)',
    );
  }
  if (clusterFaults.length > 0 && instances < 2)
    throw new ConformError(
      'CONFORM_USAGE',
      `--fault ${clusterFaults.join(', ')} needs a cluster: add --instances N (2 or more) and --redis URL`,
    );
  if (values['instance-port'] !== undefined && instances < 2)
    throw new ConformError('CONFORM_USAGE', '--instance-port needs --instances N (2 or more)');
  if (instances > 1 && redisUrl === undefined && clusterFaults.length < 3) {
    throw new ConformError(
      'CONFORM_USAGE',
      `--instances ${instances} needs --redis URL: instances that each keep their own articles, nonces and OAuth credentials accept one signed request once per instance (docs/cluster.md). To run that broken design on purpose, add --fault nonce-per-instance,tokens-per-instance,articles-per-instance`,
    );
  }
  if (instances < 2 && redisUrl === undefined) return undefined;
  const instancePort = intOption(values['instance-port'], 'instance-port', 1, 65535 - 2 * instances);
  return {
    instances,
    ...(redisUrl !== undefined
      ? {
          redis: { url: redisUrl, ...(values['redis-prefix'] !== undefined ? { prefix: values['redis-prefix'] } : {}) },
        }
      : {}),
    ...(instancePort !== undefined ? { instancePort } : {}),
  };
}
