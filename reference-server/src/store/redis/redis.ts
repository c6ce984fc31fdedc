/**
 * The thin IO shell of the shared store: one ioredis connection per instance that fetches what a transaction wants
 * and runs its commit script. No command waits for a lost connection or is sent twice: the offline queue is off and
 * nothing is resent after a reconnect (the client cannot know whether a commit sent before a disconnect was
 * applied), and every command has a deadline. Any failure is a {@link SharedStoreError}: the request is answered
 * 503 and nothing is acknowledged that Redis did not confirm.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ReferenceServerError } from '../../errors.js';
import { COMMIT_SCRIPT, encodeCommit } from './commit.js';
import type { CommitPlan, IndexKind, Snapshot, Wants } from './tx.js';

/** Redis could not be reached, or refused or did not answer a command in time. */
export class SharedStoreError extends ReferenceServerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('REF_REDIS_UNAVAILABLE', message, options);
    this.name = 'SharedStoreError';
  }
}

/** Redis evicts keys under memory pressure: nonces could be forgotten early, so it is refused. */
export class RedisEvictionError extends ReferenceServerError {
  constructor(readonly policy: string) {
    super(
      'REF_REDIS_EVICTS',
      `Redis's maxmemory-policy is ${policy}: under memory pressure it would drop nonces before their window ends (a replay hole). Set it to noeviction (CONFIG SET maxmemory-policy noeviction, or in redis.conf); writes are then refused when memory is full, and the server answers 503`,
    );
    this.name = 'RedisEvictionError';
  }
}

/** What a transaction needs of the shared store. */
export interface SharedStore {
  /** Reads what a pass wanted: values (null when absent), index sizes and members, at `nowMs`. */
  fetch(wants: Wants, nowMs: number): Promise<Snapshot>;
  /** Applies a plan atomically; resolves to what failed (empty: applied). */
  commit(plan: CommitPlan): Promise<string[]>;
  close(): Promise<void>;
}

/** Settings of {@link connectRedis}. */
export interface RedisOptions {
  /** Deadline of every command and of connecting, ms. Default: 2000. */
  timeoutMs?: number;
  /** A name Redis shows in CLIENT LIST. */
  connectionName?: string;
  log: (line: string) => void;
}

/** A Redis URL as logs show it: without its password or user name. */
export function displayRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return url;
    u.username = '';
    u.password = '';
    return u.toString().replace(/^(rediss?:\/\/)/, '$1***@');
  } catch {
    return '(an unparsable Redis URL)';
  }
}

/**
 * Connects to Redis at `url`, checks that it never evicts keys and loads the commit script.
 * @throws {SharedStoreError} when Redis cannot be reached or refuses the script.
 * @throws {RedisEvictionError} when its maxmemory-policy evicts keys.
 */
export async function connectRedis(url: string, options: RedisOptions): Promise<SharedStore> {
  const { Redis } = await loadIoredis();
  const timeoutMs = options.timeoutMs ?? 2000;
  const shown = displayRedisUrl(url);
  const redis = new Redis(url, {
    // RESP2: every Redis since 2.6 and the proxies in front of managed ones speak it (RESP3 needs HELLO, Redis 6+).
    protocol: 2,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (times) => Math.min(times * 100, 2000),
    ...(options.connectionName !== undefined ? { connectionName: options.connectionName } : {}),
  });
  let down = false;
  let started = false;
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err;
    if (down || !started) return;
    down = true;
    options.log(`redis ${shown}: ${err.message}; answering 503 until it is back`);
  });
  redis.on('ready', () => {
    if (down) options.log(`redis ${shown}: connected again`);
    down = false;
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    const cause = lastError ?? (err as Error);
    throw new SharedStoreError(`cannot reach Redis at ${shown}: ${cause.message}`, { cause });
  }
  const sha = createHash('sha1').update(COMMIT_SCRIPT).digest('hex');
  try {
    await checkEviction(redis, options.log);
    await redis.script('LOAD', COMMIT_SCRIPT);
  } catch (err) {
    redis.disconnect();
    if (err instanceof ReferenceServerError) throw err;
    throw new SharedStoreError(`Redis at ${shown} refused the commit script: ${(err as Error).message}`, {
      cause: err,
    });
  }
  started = true;
  const fail = (what: string, err: unknown) =>
    new SharedStoreError(`redis ${shown}: ${what} failed: ${(err as Error).message}`, { cause: err });
  return {
    fetch: async (wants, nowMs) => {
      try {
        return await fetchWants(redis, wants, nowMs);
      } catch (err) {
        throw fail('reading', err);
      }
    },
    commit: async (plan) => {
      const { keys, args } = encodeCommit(plan);
      try {
        const reply = await redis.evalsha(sha, keys.length, ...keys, ...args).catch(async (err: Error) => {
          // The script cache was flushed (or Redis restarted): send the script itself once.
          if (!/NOSCRIPT/.test(err.message)) throw err;
          return redis.eval(COMMIT_SCRIPT, keys.length, ...keys, ...args);
        });
        return Array.isArray(reply) ? reply.map(String) : [];
      } catch (err) {
        throw fail('committing', err);
      }
    },
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * ioredis is an optional dependency: only `serve --redis` needs it, so it is loaded then, with the install command
 * when it is missing.
 */
async function loadIoredis(): Promise<{ Redis: typeof Redis }> {
  try {
    return await import('ioredis');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new SharedStoreError(
      '--redis needs the ioredis package, which is an optional dependency of conform: install it beside conform (npm install ioredis)',
      { cause: err },
    );
  }
}

/** Refuses a Redis that evicts keys; a Redis that hides CONFIG (managed services) is trusted, with a warning. */
async function checkEviction(redis: Redis, log: (line: string) => void): Promise<void> {
  let reply: unknown;
  try {
    reply = await redis.config('GET', 'maxmemory-policy');
  } catch (err) {
    log(`redis: CONFIG GET maxmemory-policy refused (${(err as Error).message}); make sure the policy is noeviction`);
    return;
  }
  const policy = Array.isArray(reply) ? String(reply[1] ?? '') : '';
  if (policy !== '' && policy !== 'noeviction') throw new RedisEvictionError(policy);
}

/** One pipeline: MGET of the wanted keys, then each index's size or members. */
async function fetchWants(redis: Redis, wants: Wants, nowMs: number): Promise<Snapshot> {
  const keys = [...wants.keys];
  const counts = [...wants.counts];
  const members = [...wants.members];
  const live = `(${nowMs}`;
  const pipeline = redis.pipeline();
  if (keys.length > 0) pipeline.mget(...keys);
  for (const [index, kind] of counts) {
    if (kind === 'set') pipeline.scard(index);
    else pipeline.zcount(index, live, '+inf').zrangebyscore(index, live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1);
  }
  for (const [index, kind] of members) {
    if (kind === 'set') pipeline.smembers(index);
    else pipeline.zrangebyscore(index, live, '+inf');
  }
  const replies = (await pipeline.exec()) ?? [];
  let at = 0;
  const next = (): unknown => {
    const [err, value] = replies[at++] ?? [new Error('missing reply'), undefined];
    if (err) throw err;
    return value;
  };
  const out: Snapshot = { values: new Map(), counts: new Map(), members: new Map() };
  if (keys.length > 0) {
    const values = next() as Array<string | null>;
    keys.forEach((key, k) => out.values.set(key, values[k] ?? null));
  }
  for (const [index, kind] of counts) out.counts.set(index, readCount(kind, next));
  for (const [index] of members) out.members.set(index, (next() as unknown[]).map(String));
  return out;
}

function readCount(kind: IndexKind, next: () => unknown): { size: number; oldest?: number } {
  const size = Number(next());
  if (kind === 'set') return { size };
  const first = next() as unknown[];
  const oldest = first.length >= 2 ? Number(first[1]) : undefined;
  return oldest === undefined || !Number.isFinite(oldest) ? { size } : { size, oldest };
}
