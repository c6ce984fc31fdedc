/**
 * Learning `articles.textNormalization` (VERDICTS.md §1: a normalization that keeps a value's meaning is a choice):
 * the probe article is replaced with a title holding edge whitespace, a run of spaces, a precomposed and a
 * decomposed accent, and read back; the smallest set of normalizations that explains what is served is the
 * target's. Text altered beyond them (cut, folded, replaced) is not explained: exact storage is assumed, and the
 * scenarios then show the alteration as the failure it is.
 */
import type { HttpRequest, HttpResponse } from '../http/client.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { readArticleXml, serializeArticle } from '../xml/article-xml.js';
import { describeNormalization, explainNormalization } from '../xml/normalize.js';
import { join, ok } from './common.js';

/** Titles tried, the richest first; the second holds only spaces, for a target that refuses tabs and newlines. */
const BAIT_TITLES = ['\t conform  probe \u00e9 e\u0301\n ', ' conform  probe \u00e9 e\u0301 '];

export interface TextContext {
  p: ResolvedProfile;
  learn: (key: string, value: unknown, how: string) => void;
  send: (r: HttpRequest) => Promise<HttpResponse | undefined>;
  line: (r: HttpRequest, res: HttpResponse | undefined) => string;
  /** The request with the credentials the learning writes with. */
  credentialed: (r: HttpRequest) => Promise<HttpRequest>;
  base: string;
  /** The path of an article the learning created. */
  article: string;
}

/** Learns how the target stores article text, writing it into `c.p` and reporting how. */
export async function learnTextNormalization(c: TextContext): Promise<void> {
  const notes: string[] = [];
  for (const title of BAIT_TITLES) {
    const body = serializeArticle({ title, price: '1.00', currency: 'eur', fields: {} });
    const put = await c.credentialed({
      method: 'PUT',
      url: join(c.base, c.article),
      headers: { 'content-type': c.p.articles.mediaType },
      body,
    });
    const res = await c.send(put);
    notes.push(`PUT with the title ${JSON.stringify(title)}: ${c.line(put, res)}`);
    if (!ok(res)) continue;
    const get = await c.credentialed({ method: 'GET', url: join(c.base, c.article), headers: {} });
    const back = await c.send(get);
    const read = back !== undefined && ok(back) ? readArticleXml(Buffer.from(back.body).toString('utf8')) : undefined;
    const served = read?.ok ? read.article.children.get('title')?.[0] : undefined;
    if (served === undefined) {
      notes.push(`${c.line(get, back)}, no title read back`);
      break;
    }
    const set = explainNormalization(title, served);
    const how = `${notes.join('; ')}; ${c.line(get, back)} served ${JSON.stringify(served)}`;
    if (set === undefined) {
      c.p.articles.textNormalization = [];
      c.learn(
        'articles.textNormalization',
        [],
        `${how}: altered beyond any meaning-preserving normalization, so text is compared exactly`,
      );
    } else {
      c.p.articles.textNormalization = set;
      c.learn(
        'articles.textNormalization',
        set,
        `${how}: titles are stored ${set.length > 0 ? 'with ' : ''}${describeNormalization(set)}`,
      );
    }
    return;
  }
  c.learn(
    'articles.textNormalization',
    c.p.articles.textNormalization,
    `${notes.join('; ')}: not learned, so text is compared modulo ${c.p.articles.textNormalization.join(', ')}`,
  );
}
