import { randomBytes } from 'node:crypto';
import { DEFAULT_USERS } from './auth/users.js';
import type { UserAccount } from './auth/users.js';
import type { FaultName } from './faults/registry.js';
import type { BodyHashMode } from './types.js';
import type { VariantName } from './variants.js';
import type { ExchangeListener } from './recording.js';
import { DEFAULT_OAUTH1_CONSUMERS, DEFAULT_OAUTH2_CLIENTS } from './oauth/accounts.js';
import type { OAuth1Consumer, OAuth2Client } from './oauth/accounts.js';
import { DEFAULT_TOKEN_CAPACITY, DEFAULT_TOKEN_TTL, checkOAuthLimits } from './oauth/state.js';
import type { TlsCredentials } from './tls/certificate.js';
import { DEFAULT_PREFIX, PREFIX_PATTERN } from './store/redis/keys.js';

/** Options of {@link startServer}; every field is optional. */
export interface ServerOptions {
  /** Interface to bind (both listeners). Default: `127.0.0.1`. */
  host?: string;
  /** Plain-HTTP port. Default: 0, a free port chosen by the system. */
  port?: number;
  /** TLS port. Default: undefined, no TLS listener; 0 picks a free port. */
  httpsPort?: number;
  /**
   * PEM certificate and key of the TLS listener. Default: a self-signed EC P-256 certificate for `localhost` and
   * `127.0.0.1`, generated at start (see `RunningServer.certificate`).
   */
  tls?: TlsCredentials;
  /** Defects to switch on. Default: none (a correct server). */
  faults?: FaultName[];
  /** Open points of the spec to choose differently (variants.ts); each is still correct. Default: none. */
  variants?: VariantName[];
  /** Largest accepted request body in bytes; larger bodies get 413. Default: 65536. */
  maxBodyBytes?: number;
  /** Most articles stored; creating beyond it gets 507. Default: 10000. */
  maxArticles?: number;
  /** Largest request head (request line and header fields) in bytes; larger gets 431. Default: 16384. */
  maxHeaderBytes?: number;
  /** Time to receive a whole request (head and body), ms; then 408 and the connection closes. Default: 5000. */
  requestTimeoutMs?: number;
  /** Idle time after which a keep-alive connection is closed, ms. Default: 5000. */
  keepAliveTimeoutMs?: number;
  /** Time a TLS client has to finish its handshake, ms; then the connection is closed. Default: 5000. */
  handshakeTimeoutMs?: number;
  /**
   * Most open connections, both listeners together; one more is refused at once (plain HTTP: `503` with
   * `Retry-After`; TLS: closed). Default: 4096.
   */
  maxConnections?: number;
  /** Most open connections from one remote address; one more is refused as above. Default: 512. */
  maxConnectionsPerClient?: number;
  /**
   * How long a connection being closed (after a 400/408/431/503 or a refusal) may keep its descriptor while the
   * client has not closed its side, ms. Default: 2000.
   */
  lingerMs?: number;
  /**
   * Directory for the journal of articles and nonces (created if missing). With it, an answer goes out only once
   * its changes are on disk, and a restart (even after `kill -9`) loses nothing acknowledged and still refuses
   * replayed nonces. Default: undefined, memory only.
   */
  dataDir?: string;
  /** Accounts. Default: alice / `wonder:land` / `alice-secret-1`, bob / `builder` / `bob-secret-2`, carol / `pä:ss wörd✓` / `carol-secret-3`. */
  users?: readonly UserAccount[];
  /** Accepted clock difference of a signed Date, seconds, both directions. Default: 600. */
  window?: number;
  /**
   * PUT and POST signatures must include the body hash (docs/auth.md); `'optional'` accepts them with or without it.
   * Default: true.
   */
  bodyHash?: BodyHashMode;
  /**
   * OAuth 1 requests may also be signed with PLAINTEXT (RFC 5849 §3.4.4), over TLS like all OAuth; verified against
   * the consumer and token secrets. Default: false, HMAC-SHA1 only (`conform check-client` turns it on).
   */
  oauth1Plaintext?: boolean;
  /** Most nonces remembered at once; when full, signed-with-nonce requests get 503 + Retry-After. Default: 1,000,000. */
  nonceCapacity?: number;
  /**
   * Most nonces remembered at once for one user (or one OAuth 1 consumer): a user's burst past it gets 503 for that
   * user only. Default: `nonceCapacity` shared out evenly among the users and OAuth 1 consumers.
   */
  nonceShare?: number;
  /** OAuth 2 confidential clients (client credentials grant). Default: `reporting` / `rep-secret`, acting for alice. */
  oauth2Clients?: readonly OAuth2Client[];
  /**
   * OAuth 2 access token lifetime, whole seconds. Default: 5 — short, so a harness can test expiry without long
   * waits; `conform serve --token-ttl <s>` raises it for manual use.
   */
  tokenTtl?: number;
  /** Most live entries of each OAuth credential store; when full, issuing answers 503 + Retry-After. Default: 100,000. */
  tokenCapacity?: number;
  /** OAuth 1.0a consumers. Default: `conform-consumer` / `consumer-secret-1`, authorized by alice. */
  oauth1Consumers?: readonly OAuth1Consumer[];
  /**
   * Share articles, nonces and OAuth credentials with the other instances of a cluster through Redis (store/redis/):
   * `url` (`redis://[user:password@]host:port[/db]`), `prefix` of every key (default `conform`: keys `{conform}:…`),
   * and this instance's number (1-based, default 1; the cluster faults key its own data by it). Default: undefined,
   * everything in memory. Not with `dataDir`: Redis keeps the shared state.
   */
  redis?: RedisSettings;
  /** Clock (Date window, nonce expiry). Default: the system clock. */
  now?: () => Date;
  /** Id source for POST. Default: 16 random hex characters from `node:crypto`. */
  newId?: () => string;
  /** Receives one line per request. Default: discard. */
  log?: (line: string) => void;
  /**
   * Receives every answered request (method, target, headers, body, transport, arrival time by `now`, status), for
   * `conform check-client`. Default: none; nothing is recorded.
   */
  onExchange?: ExchangeListener;
  /**
   * Refusals of signed requests carry what the server rebuilt (the signed message or base string, never a secret
   * or an acceptable digest) and the common mistake that explains the client's digest (diagnose.ts). Default:
   * false — the bare server, as conform's own scenarios judge it.
   */
  diagnose?: boolean;
}

/** Where and how an instance shares its state (see {@link ServerOptions.redis}). */
export interface RedisSettings {
  url: string;
  prefix?: string;
  instance?: number;
  /** Deadline of every Redis command, ms. Default: 2000. */
  timeoutMs?: number;
}

/** {@link ServerOptions} with every default filled in (`httpsPort` and `tls` stay optional). */
export interface ResolvedServerOptions {
  host: string;
  port: number;
  httpsPort?: number;
  tls?: TlsCredentials;
  faults: ReadonlySet<FaultName>;
  variants: ReadonlySet<VariantName>;
  maxBodyBytes: number;
  maxArticles: number;
  maxHeaderBytes: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  handshakeTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerClient: number;
  lingerMs: number;
  dataDir?: string;
  redis?: Required<RedisSettings>;
  users: readonly UserAccount[];
  window: number;
  bodyHash: BodyHashMode;
  oauth1Plaintext: boolean;
  nonceCapacity: number;
  nonceShare?: number;
  oauth2Clients: readonly OAuth2Client[];
  tokenTtl: number;
  tokenCapacity: number;
  oauth1Consumers: readonly OAuth1Consumer[];
  now: () => Date;
  newId: () => string;
  log: (line: string) => void;
  onExchange?: ExchangeListener;
  diagnose: boolean;
}

/** Default of {@link ServerOptions.maxConnections}. */
export const DEFAULT_MAX_CONNECTIONS = 4096;
/** Default of {@link ServerOptions.maxConnectionsPerClient}. */
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 512;

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, not ${value}`);
  return value;
}

/** Default id source: 16 random hex characters. */
export function randomId(): string {
  return randomBytes(8).toString('hex');
}

/**
 * Fills in every default of {@link ServerOptions}, once.
 * @throws {RangeError} when `window` is not a positive number, `redis` is combined with `dataDir` or with the
 *   `webdav-lock` variant, or `nonceCapacity`, `tokenTtl`, `tokenCapacity`,
 *   `maxHeaderBytes`, `requestTimeoutMs`, `keepAliveTimeoutMs`, `handshakeTimeoutMs`, `maxConnections`,
 *   `maxConnectionsPerClient` or `lingerMs` not a positive integer.
 */
export function resolveServerOptions(options: ServerOptions = {}): ResolvedServerOptions {
  const window = options.window ?? 600;
  const nonceCapacity = options.nonceCapacity ?? 1_000_000;
  if (!(window > 0) || !Number.isFinite(window))
    throw new RangeError(`window must be a positive number of seconds, not ${window}`);
  if (!Number.isInteger(nonceCapacity) || nonceCapacity < 1)
    throw new RangeError(`nonceCapacity must be a positive integer, not ${nonceCapacity}`);
  const tokenTtl = options.tokenTtl ?? DEFAULT_TOKEN_TTL;
  const tokenCapacity = options.tokenCapacity ?? DEFAULT_TOKEN_CAPACITY;
  checkOAuthLimits(tokenTtl, tokenCapacity);
  const redis = resolveRedis(options.redis);
  if (redis !== undefined && options.dataDir !== undefined)
    throw new RangeError('dataDir and redis cannot be combined: with redis, Redis keeps the shared state');
  if (redis !== undefined && options.variants?.includes('webdav-lock') === true) {
    throw new RangeError(
      'the webdav-lock variant keeps its locks in this process: it cannot share a cluster through redis',
    );
  }
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    ...(options.httpsPort === undefined ? {} : { httpsPort: options.httpsPort }),
    ...(options.tls === undefined ? {} : { tls: { cert: options.tls.cert, key: options.tls.key } }),
    faults: new Set(options.faults ?? []),
    variants: new Set(options.variants ?? []),
    maxBodyBytes: options.maxBodyBytes ?? 65536,
    maxArticles: options.maxArticles ?? 10000,
    maxHeaderBytes: positiveInteger(options.maxHeaderBytes ?? 16384, 'maxHeaderBytes'),
    requestTimeoutMs: positiveInteger(options.requestTimeoutMs ?? 5000, 'requestTimeoutMs'),
    keepAliveTimeoutMs: positiveInteger(options.keepAliveTimeoutMs ?? 5000, 'keepAliveTimeoutMs'),
    handshakeTimeoutMs: positiveInteger(options.handshakeTimeoutMs ?? 5000, 'handshakeTimeoutMs'),
    maxConnections: positiveInteger(options.maxConnections ?? DEFAULT_MAX_CONNECTIONS, 'maxConnections'),
    maxConnectionsPerClient: positiveInteger(
      options.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
      'maxConnectionsPerClient',
    ),
    lingerMs: positiveInteger(options.lingerMs ?? 2000, 'lingerMs'),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(redis === undefined ? {} : { redis }),
    users: (options.users ?? DEFAULT_USERS).map((u) => ({ ...u })),
    window,
    bodyHash: options.bodyHash ?? true,
    oauth1Plaintext: options.oauth1Plaintext ?? false,
    nonceCapacity,
    ...(options.nonceShare === undefined ? {} : { nonceShare: positiveInteger(options.nonceShare, 'nonceShare') }),
    oauth2Clients: (options.oauth2Clients ?? DEFAULT_OAUTH2_CLIENTS).map((c) => ({ ...c })),
    tokenTtl,
    tokenCapacity,
    oauth1Consumers: (options.oauth1Consumers ?? DEFAULT_OAUTH1_CONSUMERS).map((c) => ({ ...c })),
    now: options.now ?? (() => new Date()),
    newId: options.newId ?? randomId,
    log: options.log ?? (() => {}),
    ...(options.onExchange === undefined ? {} : { onExchange: options.onExchange }),
    diagnose: options.diagnose ?? false,
  };
}

function resolveRedis(settings: RedisSettings | undefined): Required<RedisSettings> | undefined {
  if (settings === undefined) return undefined;
  const prefix = settings.prefix ?? DEFAULT_PREFIX;
  if (!PREFIX_PATTERN.test(prefix))
    throw new RangeError(`redis prefix must be 1 to 64 letters, digits or . _ : -, not ${JSON.stringify(prefix)}`);
  return {
    url: settings.url,
    prefix,
    instance: positiveInteger(settings.instance ?? 1, 'redis instance'),
    timeoutMs: positiveInteger(settings.timeoutMs ?? 2000, 'redis timeoutMs'),
  };
}
