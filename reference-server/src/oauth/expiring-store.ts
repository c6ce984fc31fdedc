import { ExpiryQueue } from '../auth/expiry-queue.js';
import type { CredentialStore, StoreOutcome } from '../store/interfaces.js';

export type { StoreOutcome } from '../store/interfaces.js';

interface Entry<T> {
  value: T;
  at: number;
  seq: number;
}

/** Queued expiries beyond this many per live entry (left by deletions) trigger a rebuild of the queue. */
const SLACK = 2;
const MIN_REBUILD = 1024;

/**
 * Credentials by key (opaque random tokens), each forgotten once the clock reaches its expiry instant. Expired
 * entries are swept from a time-ordered queue before each access, so memory is bounded by issue rate × lifetime;
 * a capacity caps the live entries (when full, nothing is dropped early: the caller refuses and says when to
 * retry). Entries deleted before they expire (revocation, single use) leave a queue item behind; the queue is
 * rebuilt when those outnumber the live entries. Every method is synchronous, so check-then-change is atomic.
 */
export class ExpiringStore<T> implements CredentialStore<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private queue = new ExpiryQueue();
  private seq = 0;

  /** @param capacity most live entries. */
  constructor(readonly capacity: number) {}

  /** Number of live (unswept) entries. */
  size(): number {
    return this.entries.size;
  }

  /** Forgets every entry whose expiry is at or before `nowMs`. */
  sweep(nowMs: number): void {
    for (let top = this.queue.peek(); top !== undefined && top.at <= nowMs; top = this.queue.peek()) {
      this.queue.pop();
      if (this.entries.get(top.key)?.seq === top.seq) this.entries.delete(top.key);
    }
  }

  /** Stores `value` under `key` until `expiresAt` (ms; `Infinity` for never), unless the store is full. */
  add(key: string, value: T, expiresAt: number, nowMs: number): StoreOutcome {
    this.sweep(nowMs);
    if (!this.entries.has(key) && this.entries.size >= this.capacity)
      return { kind: 'full', retryAfterSeconds: this.retryAfter(nowMs) };
    const seq = ++this.seq;
    this.entries.set(key, { value, at: expiresAt, seq });
    if (Number.isFinite(expiresAt)) this.queue.push({ at: expiresAt, scope: '', key, seq });
    return { kind: 'stored' };
  }

  /** The live value under `key`, or undefined. */
  get(key: string, nowMs: number): T | undefined {
    this.sweep(nowMs);
    return this.entries.get(key)?.value;
  }

  /** Forgets `key` now; true when it was stored. */
  delete(key: string): boolean {
    const deleted = this.entries.delete(key);
    if (deleted && this.queue.length > Math.max(MIN_REBUILD, SLACK * this.entries.size)) this.rebuild();
    return deleted;
  }

  /** Every live entry, oldest first. */
  live(nowMs: number): Array<[string, T]> {
    this.sweep(nowMs);
    return [...this.entries].map(([key, entry]) => [key, entry.value]);
  }

  /** Whole seconds (at least 1) until the first live entry expires. */
  retryAfter(nowMs: number): number {
    for (let top = this.queue.peek(); top !== undefined; top = this.queue.peek()) {
      if (this.entries.get(top.key)?.seq === top.seq) return Math.max(1, Math.ceil((top.at - nowMs) / 1000));
      this.queue.pop();
    }
    return 1;
  }

  private rebuild(): void {
    this.queue = new ExpiryQueue();
    for (const [key, entry] of this.entries) {
      if (Number.isFinite(entry.at)) this.queue.push({ at: entry.at, scope: '', key, seq: entry.seq });
    }
  }
}
