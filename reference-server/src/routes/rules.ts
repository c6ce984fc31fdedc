/**
 * How article bodies become stored articles and how articles are served, as settings and strategies:
 * {@link ARTICLE_RULES} are those of the spec (§2, §4.5) and the reference server's README; the faults
 * (faults/articles.ts) patch copies of them once.
 */
import type { Article } from '../records.js';
import type { Leniency, TitleEscape } from '../xml/article.js';

/** How an article body is parsed. */
export interface ParseSettings {
  /** Defects of a document let through: none. */
  lenient: ReadonlySet<Leniency>;
  /** DTD internal entities are expanded: no (a DOCTYPE is refused). */
  expandEntities: boolean;
  /** The document with its external entities resolved, or undefined to leave them (refused by the parser): undefined. */
  resolveExternal(text: string): string | undefined;
  /** A PUT whose document lacks `<title>` or `<price>` takes them from the article it replaces: no (400). */
  fillFromStored: boolean;
}

/** The settings and strategies of articles. */
export interface ArticleRules {
  /** The store key of an item: its id, whichever path form addressed it (the alias is the same resource). */
  key(id: string, form: 'plural' | 'singular'): string;
  parse: ParseSettings;
  /** An article made of a body whose media type is not XML, or undefined to refuse it (415): undefined. */
  unsupportedMedia(body: Uint8Array): Article | undefined;
  /** The article stored for one read from a body (`previous`: the one it replaces): exactly as read. */
  stored(article: Article, previous: Article | undefined): Article;
  /** How titles are escaped in representations: every character XML needs escaped. */
  titleEscape: TitleEscape;
}

/** The rules of the spec. */
export const ARTICLE_RULES: ArticleRules = {
  key: (id) => id,
  parse: { lenient: new Set(), expandEntities: false, resolveExternal: () => undefined, fillFromStored: false },
  unsupportedMedia: () => undefined,
  stored: (article) => article,
  titleEscape: 'all',
};
