/**
 * Learning the article open points (learn.ts): one article is created (POST, else PUT), with each media type and with
 * and without the body hash until one is taken; then without credentials; then PUT at a fresh URL; read back; OPTIONS
 * on the collection, the item, `/` and the records; and the articles made are deleted.
 */
import type { AuthOptions } from '../auth/authenticator.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { resolveOptionsOn, type OptionsResource, type ResolvedProfile, type Scheme } from '../profile/schema.js';
import { chooseScheme, needsCredentials } from '../runner/credentials.js';
import type { Bases } from '../runner/exec-types.js';
import { serializeArticle } from '../xml/article-xml.js';
import { header, join, ok, schemeUser } from './common.js';
import { learnDraftExtras } from './draft-extra.js';
import { learnTextNormalization } from './text.js';

const PROBE_ARTICLE = serializeArticle({ title: 'conform probe', price: '1.00', currency: 'eur', fields: {} });
const MEDIA_TYPES = ['application/xml', 'text/xml'];

export interface ArticleContext {
  p: ResolvedProfile;
  silent: (key: string) => boolean;
  learn: (key: string, value: unknown, how: string) => void;
  /** `concurrent`: it goes out with others at once (in `together`), on a connection of its own. */
  send: (r: HttpRequest, concurrent?: boolean) => Promise<HttpResponse | undefined>;
  /** Independent questions asked at once, reported in the order given (together.ts). */
  together: <T>(tasks: ReadonlyArray<() => Promise<T>>) => Promise<T[]>;
  line: (r: HttpRequest, res: HttpResponse | undefined) => string;
  withCredentials: (
    request: HttpRequest,
    scheme: Scheme,
    user: string,
    options?: AuthOptions,
  ) => Promise<HttpRequest | string>;
  deps: { bases: Bases; uniq: () => string };
  resourceFor: (user: string) => string | undefined;
  leftovers: string[];
  /** Also learn what only a drafted profile declares (`conform init`: draft-extra.ts). */
  draft?: boolean;
}

/** Learns the article open points the profile is silent on, writing them into `c.p` and reporting how. */
export async function learnArticles(c: ArticleContext): Promise<void> {
  const { p, silent, learn, send, line, deps } = c;
  const primarySecure = deps.bases.primary.startsWith('https:');
  const scheme = chooseScheme(p, primarySecure) ?? (deps.bases.tls ? chooseScheme(p, true) : undefined);
  const base =
    scheme !== undefined && !primarySecure && p.auth.tlsOnly.includes(scheme) && deps.bases.tls
      ? deps.bases.tls
      : deps.bases.primary;
  const user = scheme === undefined ? undefined : schemeUser(p, scheme);
  const signed = scheme === 'hmac' || scheme === 'hmac-nonce';
  const created: string[] = [];
  const item = (slug: string) => p.articles.item.replace(/\{[^}]*\}/, slug);
  const credentialed = async (r: HttpRequest, options: AuthOptions = {}): Promise<HttpRequest> => {
    if (scheme === undefined || user === undefined) return r;
    const made = await c.withCredentials(r, scheme, user, options);
    return typeof made === 'string' ? r : made;
  };

  // A write the target takes: each media type (when silent), with and without the body hash (when silent).
  const mediaTypes = silent('articles.mediaType') ? MEDIA_TYPES : [p.articles.mediaType];
  const hashes = signed && silent('auth.bodyHash') ? [false, true] : [undefined];
  const write = async (
    method: 'POST' | 'PUT',
    path: string,
  ): Promise<{ res?: HttpResponse; notes: string[]; mediaType?: string; hash?: boolean }> => {
    const notes: string[] = [];
    for (const mediaType of mediaTypes) {
      for (const hash of hashes) {
        const r = await credentialed(
          { method, url: join(base, path), headers: { 'content-type': mediaType }, body: PROBE_ARTICLE },
          hash === false ? { bodyHash: false } : {},
        );
        const res = await send(r);
        notes.push(
          `${line(r, res)} (${mediaType}${hash === undefined ? '' : hash ? ', body hash' : ', no body hash'})`,
        );
        if (res !== undefined && ok(res)) return { res, notes, mediaType, ...(hash !== undefined ? { hash } : {}) };
        if (res?.status === 415) break;
      }
    }
    return { notes };
  };
  const remember = (path: string | undefined) => {
    if (path !== undefined && !created.includes(path)) created.push(path);
  };

  let made = await write('POST', p.articles.collection);
  if (made.res) remember(locationPath(made.res, base));
  const postLocation = made.res ? header(made.res, 'location') : undefined;
  let putSlug: string | undefined;
  if (!made.res) {
    putSlug = `probe-${deps.uniq()}`;
    made = { ...(await write('PUT', item(putSlug))), notes: [...made.notes] };
    if (made.res) remember(item(putSlug));
  }
  if (made.mediaType !== undefined && silent('articles.mediaType')) {
    p.articles.mediaType = made.mediaType;
    learn('articles.mediaType', made.mediaType, made.notes.join('; '));
  }
  if (made.hash !== undefined && silent('auth.bodyHash')) {
    p.auth.bodyHash = made.hash;
    learn('auth.bodyHash', made.hash, made.notes.join('; '));
  }
  const how = (r: HttpRequest) => ({
    method: r.method,
    url: r.url,
    headers: { 'content-type': p.articles.mediaType },
    body: PROBE_ARTICLE,
  });

  if (silent('articles.writeAuth') && scheme !== undefined) {
    const anonymous = how({ method: 'POST', url: join(base, p.articles.collection), headers: {} });
    const res = await send(anonymous);
    if (res !== undefined && ok(res)) remember(locationPath(res, base));
    const refused = res !== undefined && res.status >= 400 && res.status < 500;
    p.articles.writeAuth = refused;
    learn('articles.writeAuth', refused, `without credentials: ${line(anonymous, res)}`);
  }

  if (silent('articles.clientChosenPut')) {
    const slug = putSlug ?? `probe-${deps.uniq()}`;
    const r =
      putSlug !== undefined
        ? undefined
        : await credentialed(
            how({ method: 'PUT', url: join(base, item(slug)), headers: {} }),
            made.hash === false ? { bodyHash: false } : {},
          );
    const res = r === undefined ? made.res : await send(r);
    const offered = !(res !== undefined && res.status >= 400 && res.status < 500) && (res === undefined || ok(res));
    if (ok(res)) remember(item(slug));
    p.articles.clientChosenPut = offered;
    learn(
      'articles.clientChosenPut',
      offered,
      r === undefined ? `a PUT to a fresh URL: ${made.notes.at(-1) ?? ''}` : `a PUT to a fresh URL: ${line(r, res)}`,
    );
  }

  const article = created[0];
  if (silent('articles.readable') && article !== undefined) {
    const r = { method: 'GET', url: join(base, article), headers: {} };
    const res = await send(needsCredentials('GET', article, p) ? await credentialed(r) : r);
    p.articles.readable = ok(res);
    learn('articles.readable', ok(res), line(r, res));
  }

  if (silent('articles.textNormalization') && article !== undefined && p.articles.readable)
    await learnTextNormalization({
      p,
      learn,
      send,
      line,
      credentialed: (r) => credentialed(r, made.hash === false ? { bodyHash: false } : {}),
      base,
      article,
    });

  if (silent('options.implemented')) {
    const on: OptionsResource[] = [];
    const notes: string[] = [];
    const targets: Array<[OptionsResource, string | undefined]> = [
      ['collection', p.articles.collection],
      ['item', article],
      ['root', '/'],
      ['records', user === undefined ? undefined : c.resourceFor(user)],
    ];
    // Four independent questions: asked at once.
    const asked = await c.together(
      targets.map(([resource, path]) => async () => {
        if (path === undefined) return undefined;
        const r = await credentialed({ method: 'OPTIONS', url: join(base, path), headers: {} });
        return { resource, r, res: await send(r, true) };
      }),
    );
    for (const a of asked) {
      if (a === undefined) continue;
      if (ok(a.res)) on.push(a.resource);
      notes.push(`${a.resource}: ${line(a.r, a.res)}`);
    }
    p.options = { ...p.options, ...resolveOptionsOn(on) };
    learn('options.implemented', on, notes.join('; '));
  }

  if (c.draft && scheme !== undefined)
    await learnDraftExtras({
      p,
      silent,
      learn,
      send,
      line,
      credentialed,
      writeOptions: made.hash === false ? { bodyHash: false } : {},
      base,
      created,
      remember,
      ...(postLocation !== undefined ? { location: postLocation } : {}),
    });

  // The articles made are deleted: learning leaves the target as it found it where it can.
  const deletions: string[] = [];
  let deletable: boolean | undefined;
  const deleted = await c.together(
    created.map((path) => async () => {
      const r = await credentialed({ method: 'DELETE', url: join(base, path), headers: {} });
      return { path, r, res: await send(r, true) };
    }),
  );
  for (const { path, r, res } of deleted) {
    deletions.push(line(r, res));
    if (ok(res)) deletable = true;
    else {
      deletable ??= false;
      c.leftovers.push(path);
    }
  }
  if (silent('articles.deletable') && deletable !== undefined) {
    p.articles.deletable = deletable;
    learn('articles.deletable', deletable, deletions.join('; '));
  }
}

/** The path a 201's Location names, relative to the base URL (undefined without one). */
function locationPath(res: HttpResponse, base: string): string | undefined {
  const location = header(res, 'location');
  if (location === undefined) return undefined;
  try {
    const u = new URL(location, base);
    const prefix = new URL(base).pathname.replace(/\/$/, '');
    return u.pathname.startsWith(prefix) ? u.pathname.slice(prefix.length) || '/' : u.pathname;
  } catch {
    return undefined;
  }
}
