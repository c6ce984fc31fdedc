/**
 * The article resource as the spec and the profile define it (issue 15): which URLs hold which representation,
 * what each request should answer, and which rule a wrong answer breaks. Pure: no IO, no fast-check. The IO shell
 * (model/commands.ts) sends the requests and feeds the answers back through {@link judge}.
 */
import type { ArticleValue } from '../generators/article.js';
import type { ResolvedProfile } from '../profile/schema.js';

/** Credentials a command sends: valid ones, none, or wrong ones (a mutated password, digest or token). */
export type Cred = 'valid' | 'missing' | 'wrong';

/** An article a command addresses, abstractly (resolved against the model when it runs, so shrinking keeps it). */
export type Target = { kind: 'slug'; n: number } | { kind: 'posted'; n: number };

/** A request of the model: `form` 0 is the canonical item path, k > 0 the k-th alias of the profile. */
export type Op =
  | { op: 'put'; target: Target; form: number; article: ArticleValue; cred: Cred; scheme?: string }
  | { op: 'post'; article: ArticleValue; cred: Cred; scheme?: string }
  | { op: 'get'; target: Target; form: number }
  | { op: 'delete'; target: Target; form: number; cred: Cred; scheme?: string }
  | { op: 'options'; target: Target; form: number };

/** What the last write to a URL was, so a GET that disagrees is charged to the rule that write relied on. */
export interface LastWrite {
  rule: string;
  form: number;
}

export interface ModelState {
  /** The current representation of each article, by canonical path. */
  articles: Map<string, ArticleValue>;
  /** Canonical paths the run saw deleted. */
  deleted: Set<string>;
  /** Canonical paths of the articles POST created, in order. */
  posted: string[];
  lastWrite: Map<string, LastWrite>;
}

export const emptyState = (): ModelState => ({
  articles: new Map(),
  deleted: new Set(),
  posted: [],
  lastWrite: new Map(),
});

export const cloneState = (s: ModelState): ModelState => ({
  articles: new Map(s.articles),
  deleted: new Set(s.deleted),
  posted: [...s.posted],
  lastWrite: new Map(s.lastWrite),
});

/** The URL forms of the run: the slugs it may create with PUT, and how to spell an article's path in each form. */
export interface Paths {
  /** Canonical paths of the client-chosen slugs (the pool sequences collide in). */
  slugs: string[];
  item: string;
  aliases: string[];
}

export function makePaths(profile: ResolvedProfile, prefix: string, slugs: number): Paths {
  const { item, aliases } = profile.articles;
  return { slugs: Array.from({ length: slugs }, (_, n) => item.replace('{id}', `${prefix}-${n}`)), item, aliases };
}

/** The id of a canonical path (the `{id}` of the item template), or undefined when the path does not fit it. */
export function idOf(paths: Paths, canonical: string): string | undefined {
  return idIn(paths.item, canonical);
}

/** The `{id}` a path fills in a path template (one non-empty segment), or undefined when it does not fit. */
function idIn(template: string, path: string): string | undefined {
  const [head = '', tail = ''] = template.split('{id}');
  if (!path.startsWith(head) || !path.endsWith(tail) || path.length <= head.length + tail.length) return undefined;
  const id = path.slice(head.length, path.length - tail.length);
  return id.includes('/') ? undefined : id;
}

/** A path in any of the item's forms, as its canonical path (an alias form names the same article). */
export function canonicalOf(paths: Paths, path: string): string {
  for (const alias of paths.aliases) {
    const id = idIn(alias, path);
    if (id !== undefined) return paths.item.replace('{id}', id);
  }
  return path;
}

/** The path of form `form` of an article (0: canonical), or undefined when that form cannot name it. */
export function pathIn(paths: Paths, canonical: string, form: number): string | undefined {
  if (form === 0) return canonical;
  const alias = paths.aliases[form - 1];
  const id = idOf(paths, canonical);
  return alias === undefined || id === undefined ? undefined : alias.replace('{id}', id);
}

export function resolve(state: ModelState, paths: Paths, t: Target): string | undefined {
  if (t.kind === 'slug') return paths.slugs[t.n % paths.slugs.length];
  return state.posted.length === 0 ? undefined : state.posted[t.n % state.posted.length];
}

/**
 * What the target must answer. `status` lists acceptable statuses ('2xx' classes allowed); `refused` asks for a
 * refusal of the credentials; `location` for a Location (`put`: the URL written, in any of its forms; `post`: a
 * new URL); `article` for a body equal to that article; `allow` for methods Allow must list. Each check names the
 * rule a failure breaks.
 */
export interface Expectation {
  status?: Array<number | string>;
  refused?: true;
  location?: { kind: 'put'; paths: string[] } | { kind: 'post' };
  article?: ArticleValue;
  allow?: string[];
  rules: { status: string; location?: string; article?: string; allow?: string };
  /** The state after the request, when its answer matches (for POST: before the new article is added). */
  next: ModelState;
}

export const RULES = {
  refused: '1-protected-need-auth',
  create: 'rfc9110-put-create-201',
  createLocation: '4.1-put-create-201-location',
  replace: 'rfc9110-put-replace-status',
  replaced: '4.1-put-replaces',
  /** A GET after a PUT that created: the representation is the one sent, wholly (§4.1 rule 1). */
  created: '4.1-put-replaces',
  alias: '2-article-alias',
  post: '4.2-post-201-location',
  postFresh: '4.2-post-fresh-url',
  postNew: '4.2-post-not-idempotent',
  posted: 'rfc9110-location-identifies',
  delete: 'rfc9110-delete',
  options: '4.3-options-200-allow',
} as const;

/** The rules a model scenario can charge (its `rules` must list them). */
export const MODEL_RULES: readonly string[] = [...new Set(Object.values(RULES))];

/** Whether the credentials count as valid: without `writeAuth`, a write needs none. */
const authorized = (cred: Cred, profile: ResolvedProfile) =>
  cred === 'valid' || (cred === 'missing' && !profile.articles.writeAuth);

/** The expectation of `op` in `state`, or undefined when the profile leaves its answer open (the command is not sent). */
export function expectationOf(
  op: Op,
  state: ModelState,
  paths: Paths,
  profile: ResolvedProfile,
): Expectation | undefined {
  const a = profile.articles;
  if (op.op === 'post') {
    if (!authorized(op.cred, profile)) return refusal(state, undefined);
    return {
      status: [201],
      location: { kind: 'post' },
      rules: { status: RULES.post, location: RULES.post },
      next: state,
    };
  }
  const canonical = resolve(state, paths, op.target);
  if (canonical === undefined) return undefined;
  const path = pathIn(paths, canonical, op.form);
  if (path === undefined) return undefined;
  const current = state.articles.get(canonical);
  const last = state.lastWrite.get(canonical);
  switch (op.op) {
    case 'get': {
      if (!a.readable) return undefined;
      const rule =
        last === undefined ? RULES.created : last.form !== op.form && current !== undefined ? RULES.alias : last.rule;
      if (current === undefined) return { status: [404, 410], rules: { status: rule }, next: state };
      return { status: [200], article: current, rules: { status: rule, article: rule }, next: state };
    }
    case 'options': {
      if (current === undefined || !profile.options.on.includes('item')) return undefined;
      return {
        status: [200],
        allow: ['GET', 'PUT'],
        rules: { status: RULES.options, allow: RULES.options },
        next: state,
      };
    }
    case 'delete': {
      if (!a.deletable) return undefined;
      if (!authorized(op.cred, profile)) return refusal(state, canonical);
      if (current === undefined) return { status: ['2xx', 404, 410], rules: { status: RULES.delete }, next: state };
      const next = cloneState(state);
      next.articles.delete(canonical);
      next.deleted.add(canonical);
      next.lastWrite.set(canonical, { rule: RULES.delete, form: op.form });
      return { status: ['2xx'], rules: { status: RULES.delete }, next };
    }
    case 'put': {
      // Creating at a URL the client names is the profile's choice (§4.1 rule 2): without it, only replaces are sent.
      if (current === undefined && !a.clientChosenPut) return undefined;
      if (!authorized(op.cred, profile)) return refusal(state, canonical);
      const next = cloneState(state);
      next.articles.set(canonical, op.article);
      next.deleted.delete(canonical);
      if (current !== undefined) {
        next.lastWrite.set(canonical, { rule: RULES.replaced, form: op.form });
        return { status: a.replaceStatus, rules: { status: RULES.replace }, next };
      }
      next.lastWrite.set(canonical, { rule: RULES.created, form: op.form });
      const forms = [...new Set([path, canonical])];
      return {
        status: [201],
        location: { kind: 'put', paths: forms },
        rules: { status: RULES.create, location: RULES.createLocation },
        next,
      };
    }
  }
}

/** A write refused for its credentials changes nothing; a later GET that disagrees charges the refusal's rule. */
function refusal(state: ModelState, canonical: string | undefined): Expectation {
  if (canonical === undefined) return { refused: true, rules: { status: RULES.refused }, next: state };
  const next = cloneState(state);
  const last = next.lastWrite.get(canonical);
  next.lastWrite.set(canonical, { rule: RULES.refused, form: last?.form ?? 0 });
  return { refused: true, rules: { status: RULES.refused }, next };
}

/**
 * The URL a POST answered with, judged against the model: it must not name an article that exists (201 says a new
 * resource was created: the old one would be overwritten), nor, at SHOULD, one the run saw deleted (a client still
 * holding the old Location would reach someone else's article). Returns the problem, or the state with the article.
 */
export function afterPost(
  state: ModelState,
  canonical: string,
  article: ArticleValue,
): { problem: string; rule: string } | { next: ModelState } {
  if (state.articles.has(canonical))
    return {
      problem: `POST answered 201 with Location ${canonical}, the URL of an existing article (it was overwritten, not created)`,
      rule: RULES.postNew,
    };
  if (state.deleted.has(canonical))
    return {
      problem: `POST gave the new article ${canonical}, the URL of an article deleted earlier in this sequence: an old Location now serves another article`,
      rule: RULES.postFresh,
    };
  const next = cloneState(state);
  next.articles.set(canonical, article);
  next.posted.push(canonical);
  next.lastWrite.set(canonical, { rule: RULES.posted, form: 0 });
  return { next };
}

/** A readable line for an op, as the console and reports show a sequence. */
export function describeOp(op: Op, path: string | undefined): string {
  const scheme = 'scheme' in op && op.scheme !== undefined ? ` ${op.scheme}` : '';
  const cred =
    'cred' in op
      ? op.cred === 'valid'
        ? scheme
          ? ` [${scheme.trim()}]`
          : ''
        : ` (${op.cred}${op.cred === 'wrong' ? scheme : ''} credentials)`
      : '';
  const where = path ?? ('target' in op ? `<${op.target.kind} ${op.target.n}>` : '');
  switch (op.op) {
    case 'post':
      return `POST ${path ?? 'collection'} ${articleText(op.article)}${cred}`;
    case 'put':
      return `PUT ${where} ${articleText(op.article)}${cred}`;
    case 'delete':
      return `DELETE ${where}${cred}`;
    default:
      return `${op.op.toUpperCase()} ${where}`;
  }
}

export function articleText(a: ArticleValue): string {
  const fields = Object.entries(a.fields)
    .map(([k, v]) => `, ${k} ${shown(v)}`)
    .join('');
  return `{title ${shown(a.title)}, price ${a.price} ${a.currency}${fields}}`;
}

/** A text as a sequence line shows it: quoted, cut after 24 code points (the transcript has it whole). */
function shown(text: string): string {
  const chars = [...text];
  return chars.length <= 24
    ? JSON.stringify(text)
    : `${JSON.stringify(chars.slice(0, 24).join(''))}…(${chars.length} characters)`;
}
