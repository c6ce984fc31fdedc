import type { Article } from '../records.js';
import type { ChangeListener, StateChange } from './changes.js';
import type { Articles } from './interfaces.js';

/**
 * In-memory article store keyed by a string, bounded to a fixed number of articles. Each change is told to the
 * listener (the journal of `--data`) right after it is made.
 */
export class ArticleStore implements Articles {
  private readonly articles = new Map<string, Article>();
  private readonly generated = new Set<string>();

  /**
   * @param capacity the most articles the store holds; creating beyond it is refused.
   * @param listener receives every change (not those of {@link ArticleStore.restore}).
   */
  constructor(
    readonly capacity: number,
    private readonly listener?: ChangeListener,
  ) {}

  /** Number of stored articles. */
  get size(): number {
    return this.articles.size;
  }

  /** The article stored under `key`, or undefined. */
  get(key: string): Article | undefined {
    return this.articles.get(key);
  }

  /** Every key with a stored article, in insertion order. */
  keys(): IterableIterator<string> {
    return this.articles.keys();
  }

  /** True when an article is stored under `key`. */
  has(key: string): boolean {
    return this.articles.has(key);
  }

  /** True when storing under `key` would need a new slot and none is left. */
  isFullFor(key: string): boolean {
    return !this.articles.has(key) && this.articles.size >= this.capacity;
  }

  /** True when the article under `key` was created at a server-generated id (by POST). */
  isGenerated(key: string): boolean {
    return this.generated.has(key);
  }

  /**
   * Stores a copy of `article` under `key`; `generated` marks a key the server chose (POST).
   * @returns 'created' or 'replaced', or 'full' (nothing stored) when a new slot is needed and none is left.
   */
  set(key: string, article: Article, generated = false): 'created' | 'replaced' | 'full' {
    if (this.isFullFor(key)) return 'full';
    const existed = this.articles.has(key);
    this.put(key, article, generated);
    this.listener?.({ kind: 'article-set', key, article: { ...article }, generated: this.generated.has(key) });
    return existed ? 'replaced' : 'created';
  }

  /** Removes the article under `key`; true when there was one. */
  delete(key: string): boolean {
    this.generated.delete(key);
    const existed = this.articles.delete(key);
    if (existed) this.listener?.({ kind: 'article-delete', key });
    return existed;
  }

  /** Applies a change read back from the journal: no capacity check (nothing stored is ever dropped), no listener. */
  restore(change: Extract<StateChange, { kind: 'article-set' | 'article-delete' }>): void {
    if (change.kind === 'article-delete') {
      this.generated.delete(change.key);
      this.articles.delete(change.key);
      return;
    }
    this.generated.delete(change.key);
    this.put(change.key, change.article, change.generated);
  }

  /** The whole store as changes that rebuild it (a journal snapshot). */
  *snapshot(): Generator<StateChange> {
    for (const [key, article] of this.articles)
      yield { kind: 'article-set', key, article: { ...article }, generated: this.generated.has(key) };
  }

  private put(key: string, article: Article, generated: boolean): void {
    const existed = this.articles.has(key);
    this.articles.set(key, { ...article });
    if (!existed && generated) this.generated.add(key);
  }
}
