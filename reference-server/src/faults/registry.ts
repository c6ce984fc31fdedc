/**
 * Named defects the reference server can switch on, one behaviour each, so the harness can prove it catches them.
 * With no fault switched on the server is correct. What each does is in this folder (index.ts composes them).
 */
import { ReferenceServerError } from '../errors.js';
import type { VariantName } from '../variants.js';
import { RECALL_FAULT_TEXTS } from './recall.js';
import { NEEDED_VARIANTS, OAUTH2_GRANT_FAULTS } from './needs.js';

export const FAULTS = {
  'post-200': 'POST create answers 200 instead of 201 (still with Location).',
  'post-no-location': 'POST create omits the Location header.',
  'post-location-nowhere': 'POST Location names /articles/<other id>, which does not serve the article.',
  'post-location-shape': 'POST Location is /items/<id> although the article lives at /articles/<id>.',
  'post-same-id': 'Every POST reuses one fixed id, so a second POST overwrites the first.',
  'put-create-200': 'PUT that creates answers 200 instead of 201.',
  'put-create-no-location': 'PUT that creates omits the Location header.',
  'put-merge': 'PUT on an existing article keeps optional fields the new representation leaves out.',
  'put-incomplete-merged':
    'A PUT on an existing article whose <article> lacks <title> or <price> is merged into the stored article (the missing elements kept from it) and answered as a replace (200 with the article); where no article exists it is still refused with 400.',
  'put-not-idempotent': 'PUT of a representation equal to the stored one appends " (2)" to the stored title.',
  'put-revision':
    'Every successful write (PUT create or replace, POST) stores a <revision>N</revision> element in the article, N counting the writes to it (1, 2, …), served in its representation: two identical PUTs leave two different representations.',
  'put-generated-405': 'PUT on an article created by POST (at a server-generated id) answers 405.',
  'delete-without-auth':
    'DELETE of an article needs no credentials: an unauthenticated DELETE deletes it and answers 204.',
  'replace-without-auth':
    'PUT over an existing article needs no credentials (only creating does): an unauthenticated PUT replaces it.',
  'refused-write-applied':
    'A PUT, POST or DELETE of articles refused for missing or wrong credentials is applied anyway (the refusal is sent after the write).',
  'put-non-atomic':
    'A PUT over an existing article writes the title, then awaits storage (0–9 ms), then writes price, currency and summary: two concurrent PUTs can leave a mix of both.',
  'delete-then-put-resurrects':
    'A DELETE keeps the deleted article aside; a PUT that creates an article at that URL again keeps the optional fields (summary) of the deleted one that the new representation leaves out.',
  'post-reuses-deleted-id':
    'POST gives a new article the id of the most recently deleted article when there is one, so an old Location serves the new article.',
  'alias-diverges-after-replace':
    'The alias /article/<id> is served from a copy made when the alias was last written or read; a replace through /articles/<id> does not update that copy, so the alias keeps serving the old representation.',
  'lost-update':
    'Every write of articles (PUT, POST, DELETE) rewrites the whole store from a copy taken when the request arrived, after an await (as a server keeping all articles in one JSON file would): of two concurrent writes to different articles, the one that finishes last silently undoes the other, although both were answered 2xx.',
  'put-after-delete-200':
    'A PUT at the URL of a deleted article answers 200 (as a replace) instead of 201 Created, without Location.',
  'title-unescaped': 'Titles are written into response XML without escaping.',
  'title-gt-unescaped':
    'Titles are escaped for & and < only: a title holding "]]>" is served raw, which XML 1.0 forbids in character data.',
  'price-float': 'Price goes through Number() and String(), losing digits and trailing zeros.',
  'currency-uppercase': 'Currency is stored and served uppercased.',
  'price-rounded':
    'Prices with more than two fraction digits are rounded to two (half-up) and stored, instead of refused.',
  'price-truncated':
    'Prices with more than two fraction digits are cut to two, not rounded (12.349 becomes 12.34), and stored, as a DECIMAL(…,2) column that truncates.',
  'title-truncated':
    'Titles longer than 200 code points (the bound the reference profile declares) are cut to 200 and stored, instead of refused.',
  'title-trimmed':
    'Leading and trailing whitespace (space, tab, CR, LF) of the title and the summary is dropped when stored.',
  'title-whitespace-collapsed':
    'Runs of whitespace (space, tab, CR, LF) in the title and the summary are stored as one space.',
  'title-nfc': 'The title and the summary are stored NFC-normalized ("e" + U+0301 becomes "é").',
  'title-nfkc':
    'The title and the summary are stored NFKC-normalized ("ﬁ" becomes "fi", fullwidth "Ａ" becomes "A", "²" becomes "2").',
  'title-bmp-only':
    'Characters outside the Basic Multilingual Plane (😀, 𝄞) in the title and the summary are stored as "?", as in a MySQL utf8mb3 column.',
  'stores-any-media-type':
    'An article body whose Content-Type is not XML is not refused (415): it is stored as sent and served back verbatim as the article.',
  'oversize-acknowledged':
    'A body over --max-body-bytes (up to 16 times it) is read, dropped, and answered 204 as if it had been stored; the article keeps its old representation.',
  'accepts-integer-price': 'A price without a fractional part ("12") is accepted and stored as sent.',
  'accepts-uppercase-currency': 'A currency in upper or mixed case ("EUR") is accepted and stored as sent.',
  'accepts-missing-title': 'An article without <title> is accepted; the document is stored and served as sent.',
  'accepts-duplicate-title': 'An article with a second <title> is accepted; the document is stored and served as sent.',
  'accepts-other-root':
    "A document whose root is not <article> is accepted when its children are an article's; it is stored and served as sent.",
  'options-extra-method': 'OPTIONS on article items and the collection also lists PATCH, which still answers 405.',
  'options-no-allow': 'OPTIONS answers 200 without an Allow header.',
  'options-204': 'OPTIONS answers 204 instead of 200.',
  'allow-method-401':
    'OPTIONS on article items lists PATCH for authenticated requests, and PATCH answers 401 with a challenge even with valid credentials (as a server that answers 401 to every method it does not handle).',
  'allow-lists-unhandled-delete-on-collection':
    'OPTIONS on the collection lists DELETE for authenticated requests, and DELETE there answers 405.',
  'allow-method-500':
    "OPTIONS on the owner's financial records lists DELETE for authenticated requests, and the owner's DELETE answers 500.",
  'root-allow-lies': 'OPTIONS on / lists PUT (to every requester), and PUT on / answers 405.',
  'method-405-no-allow': '405 responses omit the Allow header.',
  'unlisted-method-200': 'A known method not in Allow answers 200 instead of 405.',
  'expand-entities': 'DTD internal entities are accepted and expanded (bounded, non-recursive).',
  'xxe-resolved':
    'External entities and DTDs of a request document naming http URLs on loopback are resolved: the URL is really contacted (content unused, 2 s timeout, 4 KiB cap).',
  'xxe-file-read':
    'External entities naming file: URLs inside the temporary directory are read (1 KiB at most) and expanded into the article.',
  'alias-separate': '/article/<id> is a different store from /articles/<id>.',
  'delete-noop': 'DELETE answers 204 but keeps the article.',
  'nonce-unchecked': 'Nonces of the date-and-nonce form are never checked (nor stored): replays are accepted.',
  'nonce-race':
    'Nonce check and store are not atomic (a macrotask passes between them): concurrent replays are all accepted.',
  'date-ignored': 'The signed Date is still required and signed, but never compared with the clock.',
  'date-future-unlimited': 'Only past clock skew is bounded: a Date any distance in the future is accepted.',
  'date-past-unlimited': 'Only future clock skew is bounded: a Date any distance in the past is accepted.',
  'date-missing-ok': 'The date-and-nonce form is accepted without a Date header (date_text empty).',
  'date-time-of-day': 'The window compares only the time of day: a Date days away at the right hour is accepted.',
  'date-lenient':
    'Any Date that Date.parse understands is accepted as Date.parse reads it, without the strict checks (calendar, window): "31 Feb 2026 10:00:00" is taken as 3 Mar.',
  'digest-ignores-path':
    'A digest is also accepted when it matches the message built with any other path the server knows.',
  'digest-ignores-verb': 'A digest is also accepted when it matches the message built with any other method.',
  'digest-case-insensitive': 'Digests are compared case-insensitively.',
  'digest-prefix': 'A truncated digest (8 characters or more) that is a prefix of the right one is accepted.',
  'credential-field-first-line':
    'A credential field (Authorization, Authentication) sent more than once is read by its first line, the others ignored — what Node itself does with a repeated Authorization.',
  'credential-field-last-line':
    'A credential field (Authorization, Authentication) sent more than once is read by its last line, the others ignored.',
  'basic-beside-hmac-ignored':
    'A request with an Authorization field is judged by it alone: an Authentication field beside it, malformed or not, is never looked at.',
  'basic-last-colon': 'Basic credentials are split at the last colon, so passwords with a colon fail.',
  'basic-over-http': 'Basic credentials are accepted over plain HTTP.',
  'basic-password-prefix': 'A non-empty prefix of the right password is accepted.',
  'basic-case-insensitive': 'Basic passwords are compared case-insensitively.',
  'records-any-user': "Any authenticated user reads any user's financial records.",
  'allow-anonymous-extra':
    'OPTIONS on an article without credentials lists PATCH, which the list with valid credentials does not.',
  'allow-ignores-auth': 'OPTIONS (and 405) list the write methods even without valid credentials.',
  'connection-remembers':
    'After valid credentials, later requests on the same connection without credentials count as that user.',
  'session-cookie':
    'Authenticated responses set a sid cookie; a later request with the cookie and no credentials is that user.',
  'no-www-authenticate': '401 responses carry no WWW-Authenticate header.',
  'nonce-global': 'One nonce store for all users: a nonce used by one user is rejected for another.',
  'nonce-store-small': 'Only the last 100 nonces per user are remembered: an older nonce can be replayed.',
  'nonce-as-number': 'Nonces are keyed by Number(nonce): 9007199254740993 collides with 9007199254740992.',
  'body-hash-optional': 'A PUT or POST signed without the body hash is also accepted.',
  'body-hash-prefix': 'The body hash covers only the first 64 bytes of the body.',
  'date-window-narrow':
    'Only a tenth of the configured window is accepted (60 s of 600), so a Date skewed inside the window may be refused.',
  'digest-base64url': 'Digests are expected in unpadded base64url, so correct standard-base64 digests are refused.',
  'nonce-unbound':
    'In the date-and-nonce form a digest of the simple-form message (VERB+path) is also accepted, so date and nonce are not bound.',
  'write-digest-unchecked': 'PUT, POST, DELETE and PATCH check the user and the nonce but never the digest.',
  'oauth2-expired-accepted':
    'OAuth 2 access tokens are stored without their expiry: expired tokens still open resources.',
  'oauth2-token-over-http': 'Bearer tokens are accepted over plain HTTP.',
  'oauth2-wrong-client-secret':
    'OAuth 2 client authentication checks only the client id: any secret is accepted for a known client.',
  'oauth2-secret-optional':
    'OAuth 2 client authentication accepts a known client id with no secret or an empty one (form client_id alone, Basic "id:"), so the client credentials grant issues it a token; a wrong non-empty secret is still refused.',
  'oauth2-token-prefix': 'A bearer token that is a prefix (16 characters or more) of a valid access token is accepted.',
  'oauth2-revoked-accepted': 'Revocation answers 200 but the access token keeps working.',
  'oauth2-token-cacheable': 'Token responses lack Cache-Control: no-store and Pragma: no-cache.',
  'oauth2-basic-undecoded':
    'HTTP Basic client credentials are not form-urldecoded (RFC 6749 §2.3.1), so ids or secrets with reserved characters fail.',
  'oauth1-ignores-query':
    'Query parameters are left out of the OAuth 1 signature base string: a changed query still verifies (and correctly signed queries fail).',
  'oauth1-realm-required':
    'OAuth 1 requests whose Authorization header names no realm are refused (401), as if the OPTIONAL realm of RFC 5849 §3.5.1 were required; any realm is taken.',
  'oauth1-query-placement-others-unsigned':
    "When the OAuth 1 protocol parameters travel in the query (RFC 5849 §3.5.3), the query's other parameters are left out of the signature base string, as if the query held the protocol parameters alone: a correctly signed request with query-placed parameters and any other query parameter is refused (401); with the header, the query is signed.",
  'oauth1-nonce-unchecked': 'OAuth 1 nonces are never checked (nor stored): replays are accepted.',
  'oauth1-timestamp-unchecked': 'Any oauth_timestamp is accepted, however far from the clock.',
  'oauth1-verifier-reusable':
    'Temporary credentials are kept after the token request: the same verifier yields token credentials again.',
  'oauth1-verifier-unchecked':
    'The OAuth 1 token endpoint issues token credentials for approved temporary credentials whatever non-empty oauth_verifier the request carries.',
  'oauth1-temporary-as-token':
    "A resource request signed with OAuth 1 temporary credentials (approved or not) is accepted like one signed with token credentials, acting for the consumer's user.",
  'oauth1-token-any-consumer':
    "OAuth 1 token credentials are accepted with whichever registered consumer the request names (signed with that consumer's secret and the token secret): the token is not bound to the consumer it was issued to.",
  'oauth1-token-secret-ignored':
    'A signature keyed with the consumer secret alone (empty token secret) is also accepted, so the token secret protects nothing.',
  'oauth1-base-uri-no-port':
    'The base string URI leaves out the port (as behind a proxy), so correctly signed requests to a non-default port are refused.',
  'oauth1-over-http': 'OAuth 1 token credentials are accepted over plain HTTP.',
  'oauth1-temporary-over-http':
    'The OAuth 1 temporary-credential endpoint answers over plain HTTP (temporary credentials sent in clear).',
  'oauth1-token-over-http': 'The OAuth 1 token endpoint answers over plain HTTP (token credentials sent in clear).',
  'oauth1-temporary-replay':
    'The OAuth 1 temporary-credential endpoint never checks nonces: a replayed signed request gets new temporary credentials.',
  'oauth1-token-endpoint-replay':
    'The OAuth 1 token endpoint answers a replayed signed request (same bytes) with the token credentials it issued before, instead of refusing it.',
  'oauth1-authorize-any-user':
    "Any user may approve any consumer's OAuth 1 temporary credentials, but the token credentials then act for the consumer's own user whoever approved: bob's approval yields a token that opens alice's records (letting any user approve is correct, the oauth1-any-approver variant; acting for someone else is not).",
  'oauth1-authorize-twice':
    'Temporary credentials already authorized can be authorized again: the second approval issues a new verifier, replacing the first.',
  'oauth1-any-consumer-secret':
    "An OAuth 1 signature is accepted when it verifies with any consumer's secret, not only that of the consumer named by oauth_consumer_key.",
  'oauth1-plaintext-unverified':
    'The PLAINTEXT signature method is accepted without checking oauth_signature against the client and token secrets.',
  'oauth1-nonce-optional':
    'An HMAC-SHA1 request without oauth_nonce is accepted (the nonce check is skipped when the parameter is missing).',
  'oauth1-temporary-unsigned':
    'The OAuth 1 temporary-credential endpoint issues temporary credentials to a known oauth_consumer_key without checking the signature.',
  'oauth1-callback-unconfirmed':
    'The temporary-credential answer leaves out oauth_callback_confirmed=true (as an OAuth 1.0 server, before 1.0a, did).',
  ...OAUTH2_GRANT_FAULTS,
  ...RECALL_FAULT_TEXTS,
  'oauth2-any-grant':
    'The token endpoint issues a token whatever the grant_type (password, refresh_token, …), as if it were client_credentials.',
  'digest-any-user-secret':
    'A signed request is accepted when its digest matches the secret of any user, not only of the user it names.',
  'basic-any-user-password':
    'Basic credentials are accepted when the password is that of any user, not only of the user named.',
  'records-owner-hmac-only':
    "The owner check of the per-user records applies only to signed (hmac) requests: with Basic or an OAuth token any user reads any user's records.",
  'root-refuses-basic':
    'GET / refuses valid Basic credentials (401), as if only signed requests and tokens could open it.',
  'nonce-stored-before-verify':
    'The nonce of a date-and-nonce request is stored before its digest is checked: a request with a wrong digest uses up the nonce, and the genuine request is then refused as a replay.',
  'nonce-forgotten-early':
    'Nonces are forgotten 2 s after use instead of when their Date leaves the window: a replay a few seconds later is accepted.',
  'digest-ignores-query':
    'The digest is checked over the path without its query string, although the profile says the query is signed: a query added or changed after signing still verifies (and a digest over path and query is refused).',
  'unknown-user-500':
    'Basic or hmac credentials naming a user that does not exist answer 500 (the account lookup is dereferenced unchecked).',
  'hmac-missing-parts-500':
    'An hmac credential without its digest (or with an empty part) answers 500 instead of a refusal.',
  'journal-on-exit':
    'With --data, answers before anything is written: the journal is written only at a clean shutdown, so a kill -9 loses acknowledged writes.',
  'nonces-not-journaled':
    'With --data, nonces are kept in memory only: after a restart a request replayed inside its window is accepted again.',
  'nonce-per-instance':
    'In a cluster (--instances), each instance keeps its own nonce set (§5.2 and OAuth 1): a signed request is accepted once per instance.',
  'tokens-per-instance':
    'In a cluster (--instances), each instance keeps its own OAuth credentials: a token issued through one instance is unknown to the others, and revoking it on one leaves it working on the one that issued it.',
  'articles-per-instance':
    'In a cluster (--instances), each instance keeps its own articles: an article written through one instance is missing on the others.',
} as const satisfies Record<string, string>;

/** Name of one fault mode. */
export type FaultName = keyof typeof FAULTS;

/** The variants a fault needs to show (needs.ts). */
export const FAULT_VARIANTS: Partial<Record<FaultName, readonly VariantName[]>> = NEEDED_VARIANTS;

/** All fault names, in registry order. */
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/**
 * Faults only a restart of a server with a data directory shows; scenarios run against one live server cannot
 * see them, so `test/durability.test.ts` catches them instead.
 */
export const RESTART_FAULTS = ['journal-on-exit', 'nonces-not-journaled'] as const satisfies readonly FaultName[];

/** A fault of {@link RESTART_FAULTS}. */
export type RestartFaultName = (typeof RESTART_FAULTS)[number];

/**
 * Faults only a cluster of several instances shows (a single server has one set of everything): `conform serve
 * --instances N` switches them on, and `test/cluster.test.ts` catches them with the cluster scenarios.
 */
// prettier-ignore
export const CLUSTER_FAULTS = ['nonce-per-instance', 'tokens-per-instance', 'articles-per-instance'] as const satisfies readonly FaultName[];

/** A fault of {@link CLUSTER_FAULTS}. */
export type ClusterFaultName = (typeof CLUSTER_FAULTS)[number];

/** A fault a scenario run against one live server shows. */
export type ScenarioFaultName = Exclude<FaultName, RestartFaultName | ClusterFaultName>;

/** The faults of {@link FAULT_NAMES} that are neither {@link RESTART_FAULTS} nor {@link CLUSTER_FAULTS}. */
export const SCENARIO_FAULT_NAMES = FAULT_NAMES.filter(
  (name): name is ScenarioFaultName =>
    !(RESTART_FAULTS as readonly string[]).includes(name) && !(CLUSTER_FAULTS as readonly string[]).includes(name),
);

/** True when `name` is one of the {@link CLUSTER_FAULTS}. */
export function isClusterFault(name: string): name is ClusterFaultName {
  return (CLUSTER_FAULTS as readonly string[]).includes(name);
}

/** True when `name` names a fault in {@link FAULTS}. */
export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/** Thrown by {@link parseFaultNames} for a name not in {@link FAULTS}. */
export class UnknownFaultError extends ReferenceServerError {
  /** The rejected name. */
  readonly fault: string;

  constructor(fault: string) {
    super('REF_UNKNOWN_FAULT', `unknown fault "${fault}"; valid faults: ${FAULT_NAMES.join(', ')}`);
    this.name = 'UnknownFaultError';
    this.fault = fault;
  }
}

/**
 * Checks fault names (e.g. from a command line), trimming blanks, skipping empty names and dropping duplicates.
 * @throws {UnknownFaultError} for the first name not in {@link FAULTS}.
 */
export function parseFaultNames(list: readonly string[]): FaultName[] {
  const out: FaultName[] = [];
  for (const raw of list) {
    const name = raw.trim();
    if (name === '') continue;
    if (!isFaultName(name)) throw new UnknownFaultError(name);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}
