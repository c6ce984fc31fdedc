/**
 * The Redis key layout of the shared store (docs/cluster.md lists it). Every key starts with `{<prefix>}`: the
 * braces are a Redis Cluster hash tag, so all keys of one deployment live in one slot and a commit script may touch
 * any of them. Pure.
 */
import { ownKeySpaces } from '../../faults/io.js';
import type { FaultName } from '../../faults/registry.js';

/** The credential stores of the OAuth family, each with its own keys and index. */
export type CredentialKind = 'oauth2-token' | 'oauth2-code' | 'oauth2-refresh' | 'oauth1-temporary' | 'oauth1-token';

/** Where each kind of entry lives in Redis. */
export interface KeyLayout {
  /** One article: a string holding its JSON (see views.ts). */
  article(key: string): string;
  /** The set of article keys (its size is the article count `--max-articles` bounds). */
  readonly articleIndex: string;
  /** One remembered nonce: a string that expires with the nonce (PX). */
  nonce(scope: string, key: string): string;
  /** One issued credential: a string holding its JSON, expiring with it. */
  credential(kind: CredentialKind, key: string): string;
  /** The sorted set of a credential kind's keys, scored by expiry (ms): counts the live ones for the capacity. */
  credentialIndex(kind: CredentialKind): string;
}

/** Default prefix: keys are `{conform}:…`. */
export const DEFAULT_PREFIX = 'conform';

/** A prefix is a Redis hash tag's content: no braces, no blanks, not empty. */
export const PREFIX_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The key layout of instance `instance` (1-based) under `prefix`. Every instance shares every key, except under the
 * cluster faults: `nonce-per-instance`, `tokens-per-instance` and `articles-per-instance` give each instance its own
 * key space for that kind (`{prefix}:i<n>:…`), which is exactly a per-process store seen from outside.
 */
export function keyLayout(prefix: string, instance: number, faults: ReadonlySet<FaultName>): KeyLayout {
  const shared = `{${prefix}}`;
  const own = `${shared}:i${instance}`;
  const owned = ownKeySpaces(faults);
  const articles = owned.has('articles') ? own : shared;
  const nonces = owned.has('nonces') ? own : shared;
  const tokens = owned.has('tokens') ? own : shared;
  return {
    article: (key) => `${articles}:article:${key}`,
    articleIndex: `${articles}:index:articles`,
    // The scope is encoded so that the colon between scope and key is unambiguous (OAuth 1 scopes hold colons).
    nonce: (scope, key) => `${nonces}:nonce:${encodeURIComponent(scope)}:${key}`,
    credential: (kind, key) => `${tokens}:${kind}:${key}`,
    credentialIndex: (kind) => `${tokens}:index:${kind}`,
  };
}
