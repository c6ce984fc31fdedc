/** The client rule of §4.1: the body of a PUT is a complete representation (article XML, §2). */
import type { RecordedExchange } from '../recording.js';
import { parseArticle } from '../xml/article.js';
import type { Tally } from './verdicts.js';

/** The client rule this module judges. */
export const ARTICLE_CLIENT_RULES = ['4.1-put-complete-body'] as const;

/** Matches a request path against item path templates (`/articles/{id}`): `{…}` stands for one segment. */
export function itemMatcher(templates: readonly string[]): (path: string) => boolean {
  const patterns = templates.map(
    (t) =>
      new RegExp(
        `^${t
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
  );
  return (path) => patterns.some((p) => p.test(path));
}

/** Judges §4.1's client rule on one request: a PUT to an article item carries a complete article document. */
export function judgeArticle(ex: RecordedExchange, isItem: (path: string) => boolean, tally: Tally): void {
  if (ex.method !== 'PUT' || !isItem(ex.target.replace(/\?.*$/s, ''))) return;
  const parsed = parseArticle(Buffer.from(ex.body).toString('utf8'));
  if (parsed.ok) tally.exercise('4.1-put-complete-body');
  else
    tally.fail('4.1-put-complete-body', {
      seq: ex.seq,
      reason: `the PUT body is not a complete article (§2: <article> with <title> and <price currency="…">): ${parsed.problem.detail}`,
    });
}
