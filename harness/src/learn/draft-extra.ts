/**
 * What `conform init` learns beyond the run's own learning, on the article the learning created (before it is
 * deleted): the replace status, the `/article/{id}` alias of §2, and whether OPTIONS's `Allow` depends on
 * credentials (§4.3 rule 2). A run does not need these (their silent defaults accept every choice the words allow);
 * a drafted profile declares them, so a run checks them strictly.
 */
import type { AuthOptions } from '../auth/authenticator.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { serializeArticle } from '../xml/article-xml.js';
import { join, ok } from './common.js';

/** Keys only a draft learns. */
export const DRAFT_KEYS = [
  'target.origins',
  'articles.replaceStatus',
  'articles.optionalFields',
  'articles.aliases',
  'options.allowDependsOnAuth',
] as const;

/** The optional child element tried (§2: "Other fields of the article: not shown"); the reference server's. */
const OPTIONAL_FIELD = 'summary';

const WRITE_METHODS = ['PUT', 'POST', 'DELETE'];

export interface DraftExtraContext {
  p: ResolvedProfile;
  silent: (key: string) => boolean;
  learn: (key: string, value: unknown, how: string) => void;
  send: (r: HttpRequest) => Promise<HttpResponse | undefined>;
  line: (r: HttpRequest, res: HttpResponse | undefined) => string;
  credentialed: (r: HttpRequest, options?: AuthOptions) => Promise<HttpRequest>;
  /** The write options the created article was taken with (the body hash, when learned off). */
  writeOptions: AuthOptions;
  base: string;
  /** The paths of the articles created so far (the learning deletes them afterwards). */
  created: string[];
  remember: (path: string) => void;
  /** The `Location` the creating POST answered with, when one was taken. */
  location?: string;
}

/** The methods an `Allow` value lists, upper-cased. */
export function allowOf(res: HttpResponse | undefined): Set<string> {
  const value = res === undefined ? undefined : [res.headers['allow'] ?? []].flat().join(',');
  return new Set(
    (value ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean),
  );
}

export async function learnDraftExtras(c: DraftExtraContext): Promise<void> {
  const { p, silent, learn, send, line } = c;
  const itemPattern = new RegExp(
    `^${p.articles.item.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]*\}/, '([^/]+)')}$`,
  );
  const article = c.created.find((path) => itemPattern.test(path));
  const body = (title: string, fields: Record<string, string> = {}) =>
    serializeArticle({ title, price: '2.00', currency: 'eur', fields });
  const write = (method: string, path: string, title: string, fields: Record<string, string> = {}) =>
    c.credentialed(
      { method, url: join(c.base, path), headers: { 'content-type': p.articles.mediaType }, body: body(title, fields) },
      c.writeOptions,
    );
  const read = async (path: string): Promise<{ how: string; text?: string }> => {
    const r = await c.credentialed({ method: 'GET', url: join(c.base, path), headers: {} });
    const res = await send(r);
    return { how: line(r, res), ...(res !== undefined && ok(res) ? { text: new TextDecoder().decode(res.body) } : {}) };
  };

  // The replace, with an optional field: its status, and whether the field is kept.
  if (article !== undefined && (silent('articles.replaceStatus') || silent('articles.optionalFields'))) {
    const summary = 'conform probe summary';
    const r = await write('PUT', article, 'conform probe replaced', { [OPTIONAL_FIELD]: summary });
    const res = await send(r);
    // A target that refuses the optional field (§2: other fields "not shown") still answers a plain replace.
    const plain = res !== undefined && !ok(res) ? await write('PUT', article, 'conform probe replaced') : undefined;
    const plainRes = plain === undefined ? undefined : await send(plain);
    const [replaced, replacedBy] = ok(res) ? [res, r] : [plainRes, plain];
    if (replaced !== undefined && replacedBy !== undefined && ok(replaced) && silent('articles.replaceStatus')) {
      p.articles.replaceStatus = [replaced.status];
      learn(
        'articles.replaceStatus',
        [replaced.status],
        `a second PUT to the article: ${replacedBy === r ? line(r, res) : `${line(r, res)} with <${OPTIONAL_FIELD}>, ${line(plain!, plainRes)} without`}`,
      );
    }
    if (silent('articles.optionalFields') && p.articles.readable) {
      const back = res !== undefined && ok(res) ? await read(article) : undefined;
      const kept = back?.text?.includes(summary) === true;
      const fields = kept ? [OPTIONAL_FIELD] : [];
      p.articles.optionalFields = fields;
      learn(
        'articles.optionalFields',
        fields,
        `a PUT with <${OPTIONAL_FIELD}>: ${line(r, res)}${back ? `; ${back.how}, ${kept ? 'kept' : 'not served back'}` : ''}`,
      );
    }
  }

  // §2: "A URL of the shape `/article/<id>` is also used for PUT in one example."
  const id = article === undefined ? undefined : itemPattern.exec(article)?.[1];
  const aliasTemplate = p.articles.item.startsWith('/articles/')
    ? p.articles.item.replace(/^\/articles\//, '/article/')
    : undefined;
  if (silent('articles.aliases') && id !== undefined && article !== undefined && aliasTemplate !== undefined) {
    const aliasPath = aliasTemplate.replace(/\{[^}]*\}/, id);
    const r = await write('PUT', aliasPath, 'conform probe alias');
    const res = await send(r);
    let same = false;
    let how = line(r, res);
    if (res !== undefined && ok(res)) {
      const back = await read(article);
      same = back.text?.includes('conform probe alias') === true;
      how += `; ${back.how}${same ? ', the article replaced' : ', not the same article'}`;
      if (!same) c.remember(aliasPath);
    }
    const aliases = same ? [aliasTemplate] : [];
    p.articles.aliases = aliases;
    learn('articles.aliases', aliases, how);
  }

  // The Location form (§4.2 shows a path): an absolute one on another origin than the base URL is the target's own
  // public origin (a proxy in front of it) only if the user says so — the draft declares it, for the user to confirm.
  if (c.location !== undefined && silent('target.origins')) {
    let other: string | undefined;
    try {
      const u = new URL(c.location);
      if (u.origin !== new URL(c.base).origin) other = u.origin;
    } catch {
      // A path (or a relative reference): read against the base URL, nothing to declare.
    }
    const how = `POST ${p.articles.collection} → Location ${c.location}`;
    if (other !== undefined)
      learn(
        'target.origins',
        [other],
        `${how}: another origin than the base URL (a proxy's public URL?); remove it if that origin is not the target's`,
      );
    else
      learn(
        'target.origins',
        undefined,
        `${how}: ${/^[a-z][a-z0-9+.-]*:/i.test(c.location) ? "absolute, on the base URL's own origin" : 'a path'}; nothing to declare`,
      );
  }

  if (silent('options.allowDependsOnAuth') && p.options.on.includes('collection')) {
    const anonymous: HttpRequest = { method: 'OPTIONS', url: join(c.base, p.articles.collection), headers: {} };
    const without = await send(anonymous);
    const withAuth = await send(await c.credentialed({ ...anonymous, headers: {} }));
    const a = allowOf(without);
    const b = allowOf(withAuth);
    const shorter = WRITE_METHODS.filter((m) => b.has(m) && !a.has(m));
    const how = `OPTIONS ${p.articles.collection}: without credentials → ${without?.status ?? 'no answer'} Allow "${[...a].join(', ')}"; with → ${withAuth?.status ?? 'no answer'} Allow "${[...b].join(', ')}"`;
    if (without !== undefined && ok(without) && withAuth !== undefined && ok(withAuth) && p.articles.writeAuth) {
      const depends = shorter.length > 0 && !WRITE_METHODS.some((m) => a.has(m));
      p.options.allowDependsOnAuth = depends;
      learn('options.allowDependsOnAuth', depends, how);
    }
  }
}
