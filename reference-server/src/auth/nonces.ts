import type { ChangeListener } from '../store/changes.js';
import type { NonceOutcome, Nonces } from '../store/interfaces.js';
import { ExpiryQueue } from './expiry-queue.js';
import type { Expiry } from './expiry-queue.js';

export type { NonceOutcome } from '../store/interfaces.js';

/**
 * Nonces seen, per scope (the user). Each entry is kept until its expiry instant (`max(date, now) + window`,
 * chosen by the caller) and forgotten once the clock has passed it. Expired entries are swept incrementally
 * from a time-ordered queue before each look-up, so memory is bounded by rate × window. A capacity caps the
 * live entries, and a share caps each scope's, so one credential holder's burst fills its own share and never the
 * room of the others: when full, nothing is forgotten early; the caller is told to refuse and when to retry.
 *
 * Every method is synchronous, so {@link NonceStore.checkAndStore} is one atomic step in Node.
 */
export class NonceStore implements Nonces {
  private readonly scopes = new Map<string, Map<string, Expiry>>();
  private readonly queue = new ExpiryQueue();
  private live = 0;
  private seq = 0;

  /**
   * @param capacity most live entries across all scopes.
   * @param listener receives every stored entry (not those of {@link NonceStore.restore}), for the journal.
   * @param share most live entries of one scope. Default: `capacity` (no share).
   */
  constructor(
    readonly capacity: number,
    private readonly listener?: ChangeListener,
    readonly share: number = capacity,
  ) {}

  /** Number of live (unexpired, unswept) entries. */
  size(): number {
    return this.live;
  }

  /** Number of queued expiries (equal to {@link NonceStore.size} unless entries were evicted early). */
  queued(): number {
    return this.queue.length;
  }

  /** Forgets every entry whose expiry is before `nowMs`. */
  sweep(nowMs: number): void {
    for (let top = this.queue.peek(); top !== undefined && top.at < nowMs; top = this.queue.peek()) {
      this.queue.pop();
      const scope = this.scopes.get(top.scope);
      if (scope?.get(top.key) !== top) continue; // replaced or forgotten since it was queued
      this.forget(top.scope, scope, top.key);
    }
  }

  /** True when `(scope, key)` is stored and unexpired at `nowMs`. */
  has(scope: string, key: string, nowMs: number): boolean {
    this.sweep(nowMs);
    return this.scopes.get(scope)?.has(key) ?? false;
  }

  /**
   * Accepts `(scope, key)` once: `replayed` when it is already stored, `full` when a new entry would exceed the
   * capacity, else stores it until `expiresAt` and answers `stored`.
   * @param keepPerScope most entries kept per scope, oldest evicted first (only the `nonce-store-small` fault
   *   lowers it; the correct store never forgets early).
   */
  checkAndStore(scope: string, key: string, expiresAt: number, nowMs: number, keepPerScope = Infinity): NonceOutcome {
    if (this.has(scope, key, nowMs)) return { kind: 'replayed' };
    return this.add(scope, key, expiresAt, nowMs, keepPerScope);
  }

  /**
   * Stores `(scope, key)` without the replay check (an entry already there is left as is). Used by
   * {@link NonceStore.checkAndStore}, and on its own by the `nonce-race` fault after a separate {@link NonceStore.has}.
   */
  add(scope: string, key: string, expiresAt: number, nowMs: number, keepPerScope = Infinity): NonceOutcome {
    this.sweep(nowMs);
    let entries = this.scopes.get(scope);
    if (entries?.has(key)) return { kind: 'stored' };
    if (this.live >= this.capacity) return { kind: 'full', retryAfterSeconds: this.retryAfter(nowMs) };
    if (entries !== undefined && entries.size >= this.share)
      return { kind: 'full', retryAfterSeconds: secondsUntil(entries.values().next().value?.at, nowMs) };
    entries = this.insert(scope, key, expiresAt);
    this.listener?.({ kind: 'nonce', scope, key, expiresAt });
    while (entries.size > keepPerScope) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      this.forget(scope, entries, oldest.value);
    }
    return { kind: 'stored' };
  }

  /**
   * Puts back an entry read from the journal unless it has expired at `nowMs`. No capacity check: a remembered
   * nonce is never dropped, even when the capacity was lowered since. An entry already there keeps the later expiry.
   */
  restore(scope: string, key: string, expiresAt: number, nowMs: number): void {
    if (expiresAt < nowMs) return;
    const existing = this.scopes.get(scope)?.get(key);
    if (existing !== undefined && existing.at >= expiresAt) return;
    if (existing !== undefined) this.forget(scope, this.scopes.get(scope)!, key);
    this.insert(scope, key, expiresAt);
  }

  /** Every live entry at `nowMs`, as the journal records it (a snapshot). */
  *snapshot(nowMs: number): Generator<{ kind: 'nonce'; scope: string; key: string; expiresAt: number }> {
    for (const [scope, entries] of this.scopes) {
      for (const [key, entry] of entries)
        if (entry.at >= nowMs) yield { kind: 'nonce', scope, key, expiresAt: entry.at };
    }
  }

  private insert(scope: string, key: string, expiresAt: number): Map<string, Expiry> {
    let entries = this.scopes.get(scope);
    if (entries === undefined) {
      entries = new Map();
      this.scopes.set(scope, entries);
    }
    // One object is both the map's value and the queued expiry (a second one per nonce would cost ~20% more memory).
    const entry: Expiry = { at: expiresAt, scope, key, seq: ++this.seq };
    entries.set(key, entry);
    this.live++;
    this.queue.push(entry);
    return entries;
  }

  /** Whole seconds (at least 1) until the oldest entry is forgotten, i.e. until the clock passes its expiry. */
  retryAfter(nowMs: number): number {
    return secondsUntil(this.queue.peek()?.at, nowMs);
  }

  private forget(scope: string, entries: Map<string, Expiry>, key: string): void {
    entries.delete(key);
    this.live--;
    if (entries.size === 0) this.scopes.delete(scope);
  }
}

/**
 * Whole seconds (at least 1) until the clock passes `at`. For a scope at its share, `at` is the expiry of its first
 * stored entry: not always its earliest (expiries follow the signed Dates), but found without a scan.
 */
function secondsUntil(at: number | undefined, nowMs: number): number {
  return at === undefined ? 1 : Math.max(1, Math.ceil((at + 1 - nowMs) / 1000));
}
