/**
 * Sending to one instance of a clustered target (the profile's `target.instances`) instead of the load-balanced
 * target: the instance's own base URL for the same transport, and the `Host` the target would have been sent — so
 * the instance sees what it sees behind its balancer (a signature that covers the host verifies), and a request
 * replayed to another instance is the same bytes.
 */
import type { HttpRequest } from '../http/client.js';
import type { ExecDeps } from './exec-types.js';
import type { SentCredential } from './types.js';

/** A request ready to send: the base URL it was built on, and the instance it goes to (absent: the target). */
export interface BuiltRequest {
  request: HttpRequest;
  base: string;
  /** 1-based instance of `target.instances`. */
  instance?: number;
  /** How the request was authenticated, when the harness added credentials to it. */
  credential?: SentCredential;
}

/** The instances the profile lists, as the numbers scenarios use (`{{ instances }}`: 1 … n). */
export function instanceNumbers(deps: Pick<ExecDeps, 'profile'>): number[] {
  return deps.profile.target.instances.map((_, k) => k + 1);
}

/** A rendered `instance:` as an instance number of the profile, or why it is none. */
export function instanceNumber(value: unknown, deps: Pick<ExecDeps, 'profile'>): number | { error: string } {
  const n = deps.profile.target.instances.length;
  const k =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value.trim())
        ? Number(value)
        : Number.NaN;
  if (!Number.isInteger(k) || k < 1 || k > n)
    return {
      error: `instance ${String(value)} is not one of the ${n} instances the profile lists (target.instances, 1 to ${n})`,
    };
  return k;
}

/**
 * Instance `k`'s base URL for plain HTTP or TLS, or why there is none. An instance listed with TLS only gets what was
 * meant for plain HTTP over TLS (never the other way round).
 */
export function instanceBase(
  deps: Pick<ExecDeps, 'profile'>,
  k: number,
  secure: boolean,
): { base: string } | { error: string } {
  const instance = deps.profile.target.instances[k - 1];
  const base = secure ? instance?.https : (instance?.http ?? instance?.https);
  if (base === undefined)
    return {
      error: `instance ${k} has no ${secure ? 'TLS (https)' : 'plain-HTTP (http)'} base URL in the profile's target.instances`,
    };
  return { base };
}

/** The `Host` a request to the target's base URL carries (undici sends the URL's host when none is given). */
export function targetHost(base: string): string {
  return new URL(base).host;
}

/**
 * `built` sent to instance `k` instead: the same method, path below the base, headers and body, on the instance's
 * base URL for the same transport, with the Host the original carried.
 */
export function toInstance(
  built: BuiltRequest,
  k: number,
  deps: Pick<ExecDeps, 'profile'>,
): BuiltRequest | { error: string } {
  const secure = built.request.url.startsWith('https:');
  const target = instanceBase(deps, k, secure);
  if ('error' in target) return target;
  const below = built.request.url.slice(built.base.replace(/\/$/, '').length);
  const headers = { host: built.request.headers['host'] ?? targetHost(built.request.url), ...built.request.headers };
  return {
    request: { ...built.request, url: target.base.replace(/\/$/, '') + below, headers },
    base: target.base,
    instance: k,
    ...(built.credential ? { credential: built.credential } : {}),
  };
}
