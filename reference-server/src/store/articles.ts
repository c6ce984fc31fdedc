import type { Article } from '../types.js';

/** In-memory article store keyed by a string, bounded to a fixed number of articles. */
export class ArticleStore {
  private readonly articles = new Map<string, Article>();
  private readonly generated = new Set<string>();

  /** @param capacity the most articles the store holds; creating beyond it is refused. */
  constructor(readonly capacity: number) {}

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
    this.articles.set(key, { ...article });
    if (!existed && generated) this.generated.add(key);
    return existed ? 'replaced' : 'created';
  }

  /** Removes the article under `key`; true when there was one. */
  delete(key: string): boolean {
    this.generated.delete(key);
    return this.articles.delete(key);
  }
}
