/**
 * What the spec leaves open, as data: each rule names a compared field and says when two different-looking
 * observations are nevertheless the same, because SPEC.md does not pin the point (or each side's profile declares
 * its own choice). The comparison consults this table, and only this table, before reporting a difference; every
 * rule is documented in docs/diff.md. Pure.
 */
import { isOwnerOnly } from './observe.js';
import type { DiffField, Observation, ResourceKind, SideContext } from './types.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import type { StepData } from '../suite/types.js';

/** Two observations of one exchange (either may be missing for the `exchange` field) with both sides' context. */
export interface FieldPair {
  field: DiffField;
  reference?: Observation;
  target?: Observation;
  referenceSide: SideContext;
  targetSide: SideContext;
  /** The scenario step the exchange belongs to. */
  step?: StepData;
}

export interface EquivalenceRule {
  id: string;
  /** The field it applies to; `article.*` for every optional article element. */
  field: DiffField | 'article.*';
  /** Why this is not a difference (the spec text or profile key that leaves it open). */
  why: string;
  /** True when the two observations count as the same. */
  same: (p: FieldPair) => boolean;
}

type BothPair = FieldPair & { reference: Observation; target: Observation };

/** A predicate over two present observations (false when either side has none). */
const whenBoth =
  (f: (p: BothPair) => boolean) =>
  (p: FieldPair): boolean =>
    p.reference !== undefined && p.target !== undefined && f(p as BothPair);

/** Both statuses are in the set. */
const statusesIn = (set: readonly number[]) =>
  whenBoth(
    ({ reference: r, target: t }) =>
      r.status !== undefined && t.status !== undefined && set.includes(r.status) && set.includes(t.status),
  );

/** Methods whose support a resource may or may not have, as the profiles say. */
export function openMethods(kind: ResourceKind, a: ResolvedProfile, b: ResolvedProfile): string[] {
  if (kind === 'collection') return ['GET', 'HEAD'];
  if (kind === 'item' && !(a.articles.deletable && b.articles.deletable)) return ['DELETE'];
  return [];
}

/** The challenge scheme name each profile scheme is announced with. */
const CHALLENGE_NAME: Record<Scheme, string> = {
  basic: 'basic',
  hmac: 'hmac',
  'hmac-nonce': 'hmac',
  oauth2: 'bearer',
  oauth1: 'oauth',
};

/** Challenge names that only one of the two profiles offers a scheme for. */
function oneSidedChallenges(a: ResolvedProfile, b: ResolvedProfile): Set<string> {
  const of = (p: ResolvedProfile) => new Set(p.auth.schemes.map((s) => CHALLENGE_NAME[s]));
  const [x, y] = [of(a), of(b)];
  return new Set([...x, ...y].filter((n) => x.has(n) !== y.has(n)));
}

/** Template names whose value comes from the profile (see the README's built-in names). */
const PROFILE_LISTS = new Set(['users', 'protectedPaths', 'profile']);

/** The first name of a template such as `{{ users }}` or `{{ profile.articles.aliases | at: 0 }}`. */
function firstName(template: string): string {
  return /^\s*\{\{\s*([A-Za-z_@][\w]*)/.exec(template)?.[1] ?? '';
}

export const EQUIVALENCES: readonly EquivalenceRule[] = [
  {
    // §4.1 rule 5 leaves the replace status open; RFC 9110 §9.3.4 allows 200 and 204; each profile pins its own.
    id: 'replace-status',
    field: 'status',
    why: 'status of a successful replace (§4.1 rule 5 "not shown"): each side answers a status its own articles.replaceStatus lists',
    same: whenBoth(
      ({ reference: r, target: t, referenceSide, targetSide }) =>
        r.method === 'PUT' &&
        t.method === 'PUT' &&
        r.status !== undefined &&
        t.status !== undefined &&
        referenceSide.profile.articles.replaceStatus.includes(r.status) &&
        targetSide.profile.articles.replaceStatus.includes(t.status),
    ),
  },
  {
    // §7 rule 2: failure statuses are not shown; §4.5: nor are media types. All three refuse the request body.
    id: 'rejected-body',
    field: 'status',
    why: 'a refused request body (malformed, empty, or of a media type the server does not take) may be 400, 415 or 422 (§7 rule 2, §4.5 "not shown")',
    same: statusesIn([400, 415, 422]),
  },
  {
    // RFC 9110 §15.5.6 / §15.6.2: a method the resource does not support (405) or the server does not implement (501).
    id: 'unsupported-method',
    field: 'status',
    why: 'an unsupported method may be 405 or 501 (§4.3 rule 3, RFC 9110 §15.5.6, §15.6.2)',
    same: statusesIn([405, 501]),
  },
  {
    // §4.5: deleting is not shown; RFC 9110 §9.3.5 allows 200, 202 and 204.
    id: 'delete-success',
    field: 'status',
    why: 'a successful DELETE may be 200, 202 or 204 (§4.5 "not shown", RFC 9110 §9.3.5)',
    same: (p) => p.reference?.method === 'DELETE' && statusesIn([200, 202, 204])(p),
  },
  {
    // §4.5: reading is not shown; a missing or removed resource is 404 or 410 (RFC 9110 §15.5.5, §15.5.11).
    id: 'gone',
    field: 'status',
    why: 'a missing or deleted resource may be 404 or 410 (§4.5 "not shown")',
    same: (p) => ['GET', 'HEAD'].includes(p.reference?.method ?? '') && statusesIn([404, 410])(p),
  },
  {
    // §5.4: the answer to credentials that do not open a resource is not shown; 404 hides that the records exist.
    id: 'records-hidden',
    field: 'status',
    why: 'another user\'s records may be refused with 403 or hidden with 404 (§5.4 "not shown")',
    same: (p) =>
      statusesIn([403, 404])(p) &&
      isOwnerOnly(p.reference!.path, p.referenceSide.profile) &&
      isOwnerOnly(p.target!.path, p.targetSide.profile),
  },
  {
    // §4.3: Allow is the answer of OPTIONS; RFC 9110 §15.5.6 requires it on 405. Anywhere else it is incidental.
    id: 'allow-incidental',
    field: 'allow',
    why: 'Allow is compared on OPTIONS 2xx answers and on 405 answers only; elsewhere (or when one side said 501) it is incidental',
    same: whenBoth(({ reference: r, target: t }) => {
      const options2xx =
        r.method === 'OPTIONS' && [r.status, t.status].every((s) => s !== undefined && s >= 200 && s < 300);
      return !(options2xx || (r.status === 405 && t.status === 405));
    }),
  },
  {
    // §4.5: listing is not shown (GET/HEAD on the collection); DELETE exists only where both profiles say deletable.
    id: 'allow-open-methods',
    field: 'allow',
    why: 'Allow may differ in methods the spec leaves open for that resource: GET/HEAD on the collection (listing, §4.5), DELETE on items unless both profiles say articles.deletable',
    same: whenBoth(({ reference: r, target: t, referenceSide, targetSide }) => {
      if (r.resource !== t.resource || r.allow === undefined || t.allow === undefined) return false;
      const open = new Set(openMethods(r.resource, referenceSide.profile, targetSide.profile));
      const [a, b] = [new Set(r.allow), new Set(t.allow)];
      return [...a, ...b].filter((m) => a.has(m) !== b.has(m)).every((m) => open.has(m));
    }),
  },
  {
    // Follows from allow-open-methods: a scenario that tries every listed method sends one more request on one side.
    id: 'exchange-open-method',
    field: 'exchange',
    why: 'a request for a method the spec leaves open on that resource (see allow-open-methods), sent on one side only because its Allow listed it',
    same: ({ reference, target, referenceSide, targetSide }) => {
      const present = reference ?? target;
      return (
        (reference === undefined) !== (target === undefined) &&
        present !== undefined &&
        openMethods(present.resource, referenceSide.profile, targetSide.profile).includes(present.method)
      );
    },
  },
  {
    // A step that loops over a list from the profile (users, protected paths) sends as many requests as the list has.
    id: 'profile-sized-loop',
    field: 'exchange',
    why: 'a request sent on one side only by a step that loops over a list the profile gives (users, protectedPaths, profile.*): the profiles differ in length, not the servers in behaviour',
    same: ({ reference, target, step }) =>
      (reference === undefined) !== (target === undefined) &&
      step?.each !== undefined &&
      PROFILE_LISTS.has(firstName(step.each)),
  },
  {
    // §2: which of /articles/<id> and /article/<id> is canonical is not shown.
    id: 'location-alias',
    field: 'location',
    why: 'a Location in the item shape and one in an alias shape the profile declares are the same (§2 "which form is canonical: not shown")',
    same: whenBoth(
      ({ reference: r, target: t }) => ['item', 'alias'].includes(r.location) && ['item', 'alias'].includes(t.location),
    ),
  },
  {
    // §5.4 "which resources require which scheme: not shown"; each profile lists the schemes its server offers.
    id: 'challenge-one-sided-schemes',
    field: 'www-authenticate',
    why: "challenges for a scheme only one side's profile lists (auth.schemes) are not compared",
    same: whenBoth(({ reference: r, target: t, referenceSide, targetSide }) => {
      const drop = oneSidedChallenges(referenceSide.profile, targetSide.profile);
      const keep = (l: string[]) => l.filter((n) => !drop.has(n)).join(',');
      return keep(r.challenges) === keep(t.challenges);
    }),
  },
  {
    // §7 rule 2 (error bodies), §4.3 rule 1 (OPTIONS bodies), §2 (record fields): formats of other bodies are open.
    id: 'non-article-bodies',
    field: 'body',
    why: 'an empty body and a non-article body are the same: error bodies (§7 rule 2), OPTIONS bodies (§4.3 rule 1) and record formats (§2) are open',
    same: whenBoth(({ reference: r, target: t }) => r.body !== 'article' && t.body !== 'article'),
  },
  {
    // §4.1 rule 5 and §4.2 show only status and Location for create and replace: the body of a write is open.
    id: 'write-response-body',
    field: 'body',
    why: 'the body of an answer to PUT, POST, DELETE (or any method but GET) may or may not be the article (§4.1 rule 5, §4.2)',
    same: whenBoth(({ reference: r }) => r.method !== 'GET'),
  },
  {
    // §4.5: Content-Type names and values are not shown.
    id: 'content-type',
    field: 'content-type',
    why: 'content types are never compared (§4.5 "not shown")',
    same: whenBoth(() => true),
  },
  {
    // articles.optionalFields: a field one side does not store is that side's choice (§2 "other fields: not shown").
    id: 'optional-field-one-sided',
    field: 'article.*',
    why: "an optional article element only one side's profile declares (articles.optionalFields) is not compared",
    same: ({ field, referenceSide, targetSide }) => {
      if (!field.startsWith('article.')) return false;
      const name = field.slice('article.'.length);
      return (
        referenceSide.profile.articles.optionalFields.includes(name) !==
        targetSide.profile.articles.optionalFields.includes(name)
      );
    },
  },
];

const FIXED_ARTICLE_FIELDS = new Set(['article.title', 'article.price', 'article.currency']);

/** The first rule that makes two observations of `field` the same, if any. */
export function equivalenceFor(p: FieldPair): EquivalenceRule | undefined {
  const optional = p.field.startsWith('article.') && !FIXED_ARTICLE_FIELDS.has(p.field);
  return EQUIVALENCES.find((r) => (r.field === p.field || (optional && r.field === 'article.*')) && r.same(p));
}
