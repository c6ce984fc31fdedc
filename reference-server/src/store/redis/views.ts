/**
 * The stores of the shared state as the handlers see them during one transaction pass: the same interfaces as the
 * in-process stores (store/interfaces.ts), reading from and writing to a {@link Tx}. A value not known yet reads as
 * absent; the pass is then discarded and run again once it is fetched, so nothing decided on it is ever kept. Pure.
 */
import type { Article } from '../../records.js';
import type { Articles, CredentialStore, NonceOutcome, Nonces, StoreOutcome } from '../interfaces.js';
import type { CredentialKind, KeyLayout } from './keys.js';
import type { Tx } from './tx.js';

/** An article as stored in Redis: one JSON string, so a replace writes the whole representation at once. */
interface StoredArticle {
  t: string;
  p: string;
  c: string;
  s?: string;
  r?: string;
  /** The revision of the `put-revision` fault. */
  v?: number;
  /** Present (1) when the server chose the id (POST). */
  g?: 1;
}

/** Encodes an article for Redis. */
export function encodeArticle(article: Article, generated: boolean): string {
  const stored: StoredArticle = { t: article.title, p: article.price, c: article.currency };
  if (article.summary !== undefined) stored.s = article.summary;
  if (article.raw !== undefined) stored.r = article.raw;
  if (article.revision !== undefined) stored.v = article.revision;
  if (generated) stored.g = 1;
  return JSON.stringify(stored);
}

/** Decodes an article written by {@link encodeArticle}; undefined for anything else. */
export function decodeArticle(text: string): { article: Article; generated: boolean } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const s = v as Record<string, unknown>;
  if (typeof s['t'] !== 'string' || typeof s['p'] !== 'string' || typeof s['c'] !== 'string') return undefined;
  const article: Article = { title: s['t'], price: s['p'], currency: s['c'] };
  if (typeof s['s'] === 'string') article.summary = s['s'];
  if (typeof s['r'] === 'string') article.raw = s['r'];
  if (typeof s['v'] === 'number') article.revision = s['v'];
  return { article, generated: s['g'] === 1 };
}

/** The articles of the shared store, bounded to `capacity` by the size of the article index. */
export class ArticleView implements Articles {
  constructor(
    private readonly tx: Tx,
    private readonly keys_: KeyLayout,
    readonly capacity: number,
  ) {}

  private stored(key: string): { article: Article; generated: boolean } | undefined {
    const raw = this.tx.read(this.keys_.article(key));
    return raw === null || raw === undefined ? undefined : decodeArticle(raw);
  }

  get(key: string): Article | undefined {
    return this.stored(key)?.article;
  }

  has(key: string): boolean {
    return this.stored(key) !== undefined;
  }

  isGenerated(key: string): boolean {
    return this.stored(key)?.generated ?? false;
  }

  isFullFor(key: string): boolean {
    if (this.has(key)) return false;
    const count = this.tx.count(this.keys_.articleIndex, 'set');
    return count !== undefined && count.size >= this.capacity;
  }

  set(key: string, article: Article, generated = false): 'created' | 'replaced' | 'full' {
    if (this.isFullFor(key)) return 'full';
    const old = this.stored(key);
    const value = encodeArticle(article, old === undefined ? generated : old.generated);
    const index =
      old === undefined
        ? { key: this.keys_.articleIndex, kind: 'set' as const, op: 'add' as const, member: key }
        : undefined;
    this.tx.write({ key: this.keys_.article(key), value, ...(index ? { index } : {}) }, this.capacity);
    return old === undefined ? 'created' : 'replaced';
  }

  delete(key: string): boolean {
    if (!this.has(key)) return false;
    this.tx.write(
      {
        key: this.keys_.article(key),
        value: null,
        index: { key: this.keys_.articleIndex, kind: 'set', op: 'remove', member: key },
      },
      this.capacity,
    );
    return true;
  }

  keys(): Iterable<string> {
    return this.tx.members(this.keys_.articleIndex, 'set') ?? [];
  }
}

/**
 * Nonces in the shared store: one key per nonce, written with a lifetime (PX) that ends with the nonce's window, so
 * Redis forgets it exactly when the in-process store would. The commit's condition that the key is still absent
 * makes check-and-store one atomic step across every instance. No capacity: memory is bounded by rate × window.
 */
export class NonceView implements Nonces {
  constructor(
    private readonly tx: Tx,
    private readonly keys_: KeyLayout,
  ) {}

  has(scope: string, key: string): boolean {
    const raw = this.tx.read(this.keys_.nonce(scope, key));
    return raw !== null && raw !== undefined;
  }

  checkAndStore(scope: string, key: string, expiresAt: number, nowMs: number): NonceOutcome {
    if (this.has(scope, key)) return { kind: 'replayed' };
    return this.add(scope, key, expiresAt, nowMs);
  }

  add(scope: string, key: string, expiresAt: number, nowMs: number): NonceOutcome {
    if (this.has(scope, key)) return { kind: 'stored' };
    this.tx.write({
      key: this.keys_.nonce(scope, key),
      value: String(expiresAt),
      pxMs: Math.max(1, Math.ceil(expiresAt - nowMs)),
    });
    return { kind: 'stored' };
  }

  size(): number {
    return 0;
  }
}

interface StoredCredential<T> {
  v: T;
  /** Expiry (ms), null for none. */
  at: number | null;
}

/**
 * OAuth credentials in the shared store: one key per credential (JSON, with a lifetime), and a sorted set of keys
 * scored by expiry that bounds the live ones to `capacity`. A value handed out by {@link CredentialView.get} and
 * changed in place is written back by {@link CredentialView.flush}.
 */
export class CredentialView<T> implements CredentialStore<T> {
  private readonly handed = new Map<string, { value: T; text: string; at: number | null }>();

  constructor(
    private readonly tx: Tx,
    private readonly keys_: KeyLayout,
    private readonly kind: CredentialKind,
    readonly capacity: number,
  ) {}

  private entry(key: string, nowMs: number): StoredCredential<T> | undefined {
    const raw = this.tx.read(this.keys_.credential(this.kind, key));
    if (raw === null || raw === undefined) return undefined;
    try {
      const stored = JSON.parse(raw) as StoredCredential<T>;
      return stored.at !== null && stored.at <= nowMs ? undefined : stored;
    } catch {
      return undefined;
    }
  }

  add(key: string, value: T, expiresAt: number, nowMs: number): StoreOutcome {
    const index = this.keys_.credentialIndex(this.kind);
    if (this.entry(key, nowMs) === undefined) {
      const count = this.tx.count(index, 'zset');
      if (count !== undefined && count.size >= this.capacity) {
        return { kind: 'full', retryAfterSeconds: Math.max(1, Math.ceil(((count.oldest ?? nowMs) - nowMs) / 1000)) };
      }
    }
    const at = Number.isFinite(expiresAt) ? expiresAt : null;
    const stored: StoredCredential<T> = { v: value, at };
    this.tx.write(
      {
        key: this.keys_.credential(this.kind, key),
        value: JSON.stringify(stored),
        ...(at === null ? {} : { pxMs: Math.max(1, Math.ceil(at - nowMs)) }),
        index: { key: index, kind: 'zset', op: 'add', member: key, score: expiresAt },
      },
      this.capacity,
    );
    this.handed.delete(key);
    return { kind: 'stored' };
  }

  get(key: string, nowMs: number): T | undefined {
    const held = this.handed.get(key);
    if (held !== undefined) return held.value;
    const stored = this.entry(key, nowMs);
    if (stored === undefined) return undefined;
    this.handed.set(key, { value: stored.v, text: JSON.stringify(stored.v), at: stored.at });
    return stored.v;
  }

  delete(key: string): boolean {
    this.handed.delete(key);
    if (this.entry(key, this.tx.nowMs) === undefined) return false;
    const index = this.keys_.credentialIndex(this.kind);
    this.tx.write(
      {
        key: this.keys_.credential(this.kind, key),
        value: null,
        index: { key: index, kind: 'zset', op: 'remove', member: key },
      },
      this.capacity,
    );
    return true;
  }

  live(nowMs: number): Array<[string, T]> {
    const members = this.tx.members(this.keys_.credentialIndex(this.kind), 'zset') ?? [];
    const out: Array<[string, T]> = [];
    for (const key of members) {
      const value = this.get(key, nowMs);
      if (value !== undefined) out.push([key, value]);
    }
    return out;
  }

  /** Writes back every value handed out and changed in place since (keeping its expiry). */
  flush(nowMs: number): void {
    for (const [key, held] of this.handed) {
      if (JSON.stringify(held.value) === held.text) continue;
      const stored: StoredCredential<T> = { v: held.value, at: held.at };
      this.tx.write({
        key: this.keys_.credential(this.kind, key),
        value: JSON.stringify(stored),
        ...(held.at === null ? {} : { pxMs: Math.max(1, Math.ceil(held.at - nowMs)) }),
      });
    }
  }
}
