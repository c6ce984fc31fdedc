/**
 * What the request handlers need of each store, as interfaces: the in-process stores (the default: `ArticleStore`,
 * `NonceStore`, `ExpiringStore`) implement them, and so do the views of the shared store (store/redis/views.ts), which
 * run the same synchronous handlers over a snapshot read from Redis. Every method is synchronous.
 */
import type { Article } from '../records.js';

/** Outcome of {@link Nonces.checkAndStore} and {@link Nonces.add}. */
export type NonceOutcome =
  | { kind: 'stored' }
  | { kind: 'replayed' }
  /** The store holds `capacity` live entries; `retryAfterSeconds` is when the oldest one expires. */
  | { kind: 'full'; retryAfterSeconds: number };

/** Outcome of {@link CredentialStore.add}. */
export type StoreOutcome =
  | { kind: 'stored' }
  /** The store holds `capacity` live entries; `retryAfterSeconds` is when the first of them expires. */
  | { kind: 'full'; retryAfterSeconds: number };

/** Articles by key (the id of `/articles/<id>`), bounded to `capacity`. */
export interface Articles {
  /** The most articles stored; creating beyond it is refused. */
  readonly capacity: number;
  /** The article stored under `key`, or undefined. */
  get(key: string): Article | undefined;
  /** True when an article is stored under `key`. */
  has(key: string): boolean;
  /** True when storing under `key` would need a new slot and none is left. */
  isFullFor(key: string): boolean;
  /** True when the article under `key` was created at a server-generated id (by POST). */
  isGenerated(key: string): boolean;
  /** Stores a whole article under `key`: 'created' or 'replaced', or 'full' (nothing stored). */
  set(key: string, article: Article, generated?: boolean): 'created' | 'replaced' | 'full';
  /** Removes the article under `key`; true when there was one. */
  delete(key: string): boolean;
  /** Every key with a stored article (used only by faults: `digest-ignores-path`, `lost-update`). */
  keys(): Iterable<string>;
}

/** Nonces seen, per scope, each remembered until its expiry instant (ms). */
export interface Nonces {
  /** Accepts `(scope, key)` once: `replayed` when stored and unexpired, else stores it until `expiresAt`. */
  checkAndStore(scope: string, key: string, expiresAt: number, nowMs: number, keepPerScope?: number): NonceOutcome;
  /** True when `(scope, key)` is stored and unexpired at `nowMs`. */
  has(scope: string, key: string, nowMs: number): boolean;
  /** Stores `(scope, key)` without the replay check (the `nonce-race` fault checks separately). */
  add(scope: string, key: string, expiresAt: number, nowMs: number, keepPerScope?: number): NonceOutcome;
  /** Live entries this store knows of (0 where it cannot tell cheaply). */
  size(): number;
}

/** Credentials by key (opaque random tokens), each forgotten at its expiry instant (ms). */
export interface CredentialStore<T> {
  /** Stores `value` under `key` until `expiresAt` (ms; `Infinity` for never), unless the store is full. */
  add(key: string, value: T, expiresAt: number, nowMs: number): StoreOutcome;
  /**
   * The live value under `key`, or undefined. A change made to the returned object in place (the OAuth 1 authorize
   * endpoint records its verifier so) is kept: in memory it is the stored object, and a view writes it back.
   */
  get(key: string, nowMs: number): T | undefined;
  /** Forgets `key` now; true when it was stored. */
  delete(key: string): boolean;
  /** Every live entry (used only by the `oauth2-token-prefix` fault). */
  live(nowMs: number): Array<[string, T]>;
}
