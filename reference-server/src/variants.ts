/**
 * Named variants: choices the spec leaves open (VERDICTS.md §1, "not shown"), each made differently from the
 * reference server's default. Unlike a fault, a variant is correct: the whole suite must pass against every variant,
 * and against all of them combined, when the harness is given the variant's profile. Each variant knows its profile
 * as a patch on `reference-server/profile.yaml` (see {@link applyProfilePatch}).
 */
import { ReferenceServerError } from './errors.js';
import { OAUTH2_GRANT_VARIANTS } from './variants-oauth2.js';

/** A deep patch of a profile: objects merge key by key, arrays and scalars replace, `null` removes the key. */
export type ProfilePatch = { readonly [key: string]: ProfilePatchValue };
export type ProfilePatchValue = string | number | boolean | null | readonly ProfilePatchValue[] | ProfilePatch;

/** One variant: what it changes, and the profile a target making that choice would declare. */
export interface VariantSpec {
  readonly description: string;
  /** The profile keys that declare this choice, as a patch on the reference profile. Empty when the suite needs no key. */
  readonly profile: ProfilePatch;
  /** Variants that cannot be switched on together with this one (their choices contradict). */
  readonly excludes?: readonly string[];
}

export const VARIANTS = {
  'replace-204': {
    description:
      'A successful replace of an existing article answers 204 No Content with no body (RFC 9110 §9.3.4 allows 200 or 204).',
    profile: { articles: { replaceStatus: [204] } },
  },
  'price-two-decimals': {
    description:
      'Prices are stored to the cent, as in a DECIMAL(7,2) column: a price needing more than two fraction digits, or above 99999.99, is refused with 422 (§2: "value bounds … not shown").',
    profile: { articles: { bounds: { priceScale: 2, priceMax: '99999.99' } } },
  },
  'title-bounded': {
    description: 'Titles longer than 64 code points are refused with 422 (§2: "maximum lengths … not shown").',
    profile: { articles: { bounds: { titleMaxLength: 64 } } },
  },
  'text-trimmed': {
    description:
      'Titles and summaries are stored with edge whitespace trimmed and whitespace runs collapsed to one space, as a README would say "titles are trimmed" (RFC 9110 §9.3.4 lets a server transform a representation to fit its constraints; the meaning is kept).',
    profile: { articles: { textNormalization: ['trim', 'collapse'] } },
    // Each declares its own list; a profile patch replaces a list, so the two are tried apart.
    excludes: ['text-nfd'],
  },
  'text-nfd': {
    description:
      'Titles and summaries are stored in Unicode NFD (decomposed: "é" becomes "e" + U+0301), as a file system or a database collation might (canonically equivalent text, the same meaning).',
    profile: { articles: { textNormalization: ['nfd'] } },
  },
  'options-partial': {
    description:
      'OPTIONS is implemented on the article collection and items only; on / and the records path it answers 405 with an Allow that does not list OPTIONS (§4.3 rule 3).',
    profile: { options: { implemented: ['collection', 'item'] } },
  },
  'media-type-text-xml': {
    description:
      'XML is served as text/xml; charset=utf-8, and article bodies must be sent as text/xml (others: 415). §4.5: Content-Type names are not shown.',
    profile: { articles: { mediaType: 'text/xml' } },
  },
  'no-alias': {
    description: 'No /article/<id> alias: only the plural item path exists (§2: which form is canonical is not shown).',
    profile: { articles: { aliases: [] } },
  },
  'not-deletable': {
    description:
      'Articles cannot be deleted: DELETE on an item answers 405 and Allow does not list it (§4.5: deleting is not shown).',
    profile: { articles: { deletable: false } },
  },
  'post-updates': {
    description:
      'POST on an existing article replaces it and answers 200 with the representation; Allow on items lists POST (§1 rule 4: "POST may be used to update one").',
    profile: {},
  },
  'no-client-put': {
    description:
      'PUT never creates: a PUT at a URL where no article exists answers 404; articles are created with POST only (§4.1 rule 2: "if the API offers this").',
    profile: { articles: { clientChosenPut: false } },
  },
  'ids-uuid': {
    description:
      'Server-chosen ids are random UUIDs (36 characters with hyphens) rather than 16 hex digits (§2: the generated id is not shown).',
    profile: {},
  },
  'refuse-403': {
    description:
      "Missing or wrong credentials (none, Basic, hmac) are refused with 403 and no challenge (§5.4 leaves the status open; a challenge goes only with 401). OAuth refusals keep their RFCs' 401 and challenge.",
    profile: {},
    excludes: ['refuse-400'],
  },
  'refuse-400': {
    description:
      "Missing or wrong credentials (none, Basic, hmac) are refused with 400 and no challenge; the profile pins the refusal statuses. OAuth refusals keep their RFCs' 401 and challenge.",
    profile: { auth: { refusalStatus: [400, 401, 403] } },
    excludes: ['refuse-403'],
  },
  'errors-json': {
    description:
      'Error and refusal bodies are application/json {"error", "message"} instead of RFC 9457 problem+json (§7.2 leaves error bodies open).',
    profile: {},
    excludes: ['errors-text', 'errors-empty'],
  },
  'errors-text': {
    description: 'Error and refusal bodies are one line of text/plain instead of RFC 9457 problem+json.',
    profile: {},
    excludes: ['errors-json', 'errors-empty'],
  },
  'digest-decoded': {
    description:
      "A signed request's digest is base64-decoded leniently (padding optional) and its bytes compared in constant time, rather than compared as text.",
    profile: {},
  },
  'nonce-int64': {
    description:
      'Nonces are signed 64-bit integers, kept by value: a nonce beyond 9223372036854775807, with a leading zero, or not decimal digits is refused with 400 (§5.2 says only "a number").',
    profile: { auth: { nonceMax: null, nonceLeadingZeros: null } },
  },
  'date-formats-extra': {
    description:
      'The date-and-nonce form also accepts every HTTP-date (IMF-fixdate, RFC 850, asctime) and ISO 8601 instants in UTC, still inside the window and signed as sent; impossible dates are still refused (§5.2 fixes the shape clients send, not that every other shape is refused).',
    profile: { auth: { strictDate: false } },
  },
  'oauth2-client-basic-only': {
    description:
      'The OAuth 2 token endpoint authenticates clients with HTTP Basic only: client_id and client_secret in the form body are refused with 401 invalid_client and a Basic challenge (RFC 6749 §2.3.1 makes them optional).',
    profile: { auth: { oauth2: { clientAuth: ['basic'] } } },
  },
  // The OAuth variants stay before basic-only, whose patch removes auth.oauth1 and auth.oauth2: applied after it, their
  // patches would bring back a section holding only their own key (variants.test.ts checks the combined profile).
  'oauth1-approve-post': {
    description:
      "The OAuth 1 authorize endpoint's GET only shows an HTML form describing the pending request; the resource owner approves (confirm=yes) or denies with a POST of that form signed with hmac (Basic is refused), and the verifier travels only in a 302 to the callback, or to the consumer's registered redirect URI for oob, as Authlib does (RFC 5849 §2.2 leaves the form of the authorization step to the server).",
    profile: {},
  },
  'oauth1-any-approver': {
    description:
      "Any user may approve any consumer's OAuth 1 temporary credentials, and the token credentials then act for whoever approved (RFC 5849 §2.2 asks the server to verify the resource owner's identity, not to bind temporary credentials to one owner in advance).",
    profile: {},
  },
  'oauth1-header-only': {
    description:
      'OAuth 1 protocol parameters are read from the Authorization: OAuth header only: oauth_* parameters in the query or a form body are ordinary parameters, so a request carrying them only there is unauthenticated (RFC 5849 §3.5 lets the server choose where it takes them).',
    profile: { auth: { oauth1: { placements: ['header'] } } },
  },
  'oauth1-methods-extra': {
    description:
      'OAuth 1 requests are also taken signed with PLAINTEXT (RFC 5849 §3.4.4, over TLS as every OAuth 1 request here) and HMAC-SHA256 (the §3.4.2 construction with SHA-256), beside HMAC-SHA1 (§3.4 leaves the methods to the server).',
    profile: { auth: { oauth1: { signatureMethods: ['HMAC-SHA1', 'PLAINTEXT', 'HMAC-SHA256'] } } },
  },
  'oauth1-realm-configured': {
    description:
      'The OAuth 1 endpoints and resources are configured with the realm "photos": a request whose Authorization header names another realm is refused (401), one naming "photos" or no realm is taken, as oauthlib\'s validator does with the realms it is given (RFC 5849 §3.5.1: the realm is OPTIONAL and interpreted per RFC 2617 §1.2, a protection space of the server).',
    profile: { auth: { oauth1: { realm: 'photos' } } },
  },
  ...OAUTH2_GRANT_VARIANTS,
  'oauth2-basic-undecoded': {
    description:
      "The OAuth 2 token and revocation endpoints compare the Basic client id and secret exactly as sent, without form-urldecoding them (Authlib's default): clients whose id and secret need no encoding are served, an over-encoded one (rep%2Dsecret) is refused (§5.3 leaves the token endpoint open, and for such credentials RFC 6749 §2.3.1's encoding changes nothing).",
    profile: { auth: { oauth2: { otherClient: null } } },
  },
  'errors-empty': {
    description: 'Error and refusal answers carry no body at all (no Content-Type), instead of RFC 9457 problem+json.',
    profile: {},
    excludes: ['errors-json', 'errors-text'],
  },
  'basic-only': {
    description:
      'Resource access with Basic only, over TLS (§5.4: which resources need which scheme is not shown); signed requests and OAuth credentials are refused like wrong ones. The plain listener stays open, and 401s challenge with Basic on both.',
    profile: {
      auth: { schemes: ['basic'], tlsOnly: ['basic'], bodyHash: false, nonceScope: null, oauth2: null, oauth1: null },
    },
    excludes: ['oauth-only'],
  },
  'oauth-only': {
    description:
      'Resource access with OAuth 2 bearer tokens and OAuth 1 only, over TLS; Basic and signed requests are refused like wrong credentials (Basic still serves the resource owner at the OAuth 1 authorize endpoint). The plain listener stays open.',
    profile: {
      auth: { schemes: ['oauth2', 'oauth1'], tlsOnly: ['oauth2', 'oauth1'], bodyHash: false, nonceScope: null },
    },
    excludes: ['basic-only'],
  },
  'allow-same-for-all': {
    description:
      'OPTIONS lists the same methods with and without credentials (§4.3 rule 2: an unauthenticated request "can" receive a shorter list); the writes themselves still need credentials. The same behaviour as the allow-ignores-auth fault, here with a profile that does not declare options.allowDependsOnAuth.',
    profile: { options: { allowDependsOnAuth: null } },
  },
  'path-without-query': {
    description:
      'The <path> of a signed request is the path without the query string (§5.2 says "the resource path": whether a query belongs to it is open); a query is then not protected by the digest.',
    profile: { auth: { signedPathIncludesQuery: false } },
  },
  'location-absolute': {
    description:
      "The Location of a new article is an absolute URL on the request's own origin (RFC 9110 §10.2.2 allows absolute or relative).",
    profile: {},
    excludes: ['location-other-origin'],
  },
  'location-other-origin': {
    description:
      'The Location of a new article is an absolute URL on https://public.example, the public origin of a proxy in front of the server; the path is the same.',
    profile: { target: { origins: ['https://public.example'] } },
    excludes: ['location-absolute'],
  },
  'window-300': {
    description:
      'The Date window of signed requests, and with it the OAuth 1 timestamp window, is 300 s instead of 600 s, in both directions (§5.2 rule 4 and §8: "say" 10 minutes, an illustration).',
    profile: { auth: { window: 300 } },
  },
  'date-month-any-case': {
    description:
      "The Date of the date-and-nonce form is accepted with its month abbreviation in any case (26 nov 2026, 26 NOV 2026), the digest still over <date_text> as §5.2 builds it, lowercased; every other rule about dates stays (§5.2's own <date_text> is lowercase, so a server may be lenient about the month's case).",
    profile: {},
  },
  'get-content-refused': {
    description:
      'A GET or HEAD request that carries content (a body) is refused with 400 before anything else is looked at, OAuth 1 parameters in a form body included (RFC 9110 §9.3.1: content in a GET "has no generally defined semantics"; RFC 5849 §3.5.2 puts protocol parameters in the body only when the request content is form-encoded).',
    profile: {},
  },
  'webdav-lock': {
    description:
      "A WebDAV-flavoured server: Allow on the article collection and items also lists LOCK and UNLOCK to authenticated requests, and a LOCK really locks (PUT, POST and DELETE on the resource, or on the collection's items, answer 423 until an UNLOCK with its Lock-Token) unless an If-Match that cannot hold makes it 412 (§4.3's list of methods is an example; RFC 4918 §9.10–9.11, RFC 9110 §13.1.1).",
    profile: {},
  },
} as const satisfies Record<string, VariantSpec>;

/** Name of one variant. */
export type VariantName = keyof typeof VARIANTS;

/** All variant names, in registry order. */
export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

/** True when `name` names a variant in {@link VARIANTS}. */
export function isVariantName(name: string): name is VariantName {
  return Object.hasOwn(VARIANTS, name);
}

/** Thrown by {@link parseVariantNames} for a name not in {@link VARIANTS}, or for two variants that exclude each other. */
export class VariantError extends ReferenceServerError {
  constructor(code: 'REF_UNKNOWN_VARIANT' | 'REF_VARIANT_CONFLICT', message: string) {
    super(code, message);
    this.name = 'VariantError';
  }
}

function excludes(a: VariantName, b: VariantName): boolean {
  const spec = (n: VariantName): VariantSpec => VARIANTS[n];
  return (spec(a).excludes ?? []).includes(b) || (spec(b).excludes ?? []).includes(a);
}

/**
 * Checks variant names (e.g. from a command line), trimming blanks, skipping empty names and dropping duplicates.
 * @throws {VariantError} for an unknown name, or two names that exclude each other.
 */
export function parseVariantNames(list: readonly string[]): VariantName[] {
  const out: VariantName[] = [];
  for (const raw of list) {
    const name = raw.trim();
    if (name === '') continue;
    if (!isVariantName(name))
      throw new VariantError(
        'REF_UNKNOWN_VARIANT',
        `unknown variant "${name}"; valid variants: ${VARIANT_NAMES.join(', ')}`,
      );
    const clash = out.find((other) => excludes(other, name));
    if (clash) throw new VariantError('REF_VARIANT_CONFLICT', `variants "${clash}" and "${name}" exclude each other`);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * The largest set of variants that can be switched on together: every variant in registry order, leaving out one
 * that excludes a variant already taken.
 */
export function combinableVariants(): VariantName[] {
  const out: VariantName[] = [];
  for (const name of VARIANT_NAMES) if (!out.some((other) => excludes(other, name))) out.push(name);
  return out;
}

function isPatch(value: unknown): value is ProfilePatch {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `base` with `patch` applied (neither is changed): objects merge, arrays and scalars replace, `null` removes. */
export function applyProfilePatch(base: unknown, patch: ProfilePatch): unknown {
  const out: Record<string, unknown> = isPatch(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isPatch(value)) out[key] = applyProfilePatch(out[key], value);
    else out[key] = value;
  }
  return out;
}

/** The reference profile (as parsed data) with the patches of `names` applied in order. */
export function variantProfile(base: unknown, names: readonly VariantName[]): unknown {
  return names.reduce<unknown>((profile, name) => applyProfilePatch(profile, VARIANTS[name].profile), base);
}
