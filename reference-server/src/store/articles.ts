import type { Article } from '../types.js';

/** In-memory article store keyed by a string, bounded to a fixed number of articles. */
export class ArticleStore {
  private readonly articles = new Map<string, Article>();

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

  /** True when an article is stored under `key`. */
  has(key: string): boolean {
    return this.articles.has(key);
  }

  /** True when storing under `key` would need a new slot and none is left. */
  isFullFor(key: string): boolean {
    return !this.articles.has(key) && this.articles.size >= this.capacity;
  }

  /**
   * Stores a copy of `article` under `key`.
   * @returns 'created' or 'replaced', or 'full' (nothing stored) when a new slot is needed and none is left.
   */
  set(key: string, article: Article): 'created' | 'replaced' | 'full' {
    if (this.isFullFor(key)) return 'full';
    const existed = this.articles.has(key);
    this.articles.set(key, { ...article });
    return existed ? 'replaced' : 'created';
  }

  /** Removes the article under `key`; true when there was one. */
  delete(key: string): boolean {
    return this.articles.delete(key);
  }
}
