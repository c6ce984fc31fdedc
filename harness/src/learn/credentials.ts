/**
 * A PASS means it was checked (VERDICTS.md §3): before any scenario, each user's credentials of each scheme the run
 * uses are tried once, on the user's own records (else the first protected resource; for OAuth, obtaining the token
 * is the try: the token endpoint took the client's and the owner's credentials). A credential the profile gives
 * that the target refuses where it must work is the user's mistake or the target's defect — never "not offered" —
 * so the run stops there, with the target's answer and the ways out. And "not offered" is learned only from positive
 * evidence ({@link notOfferedEvidence}), printed for the user to confirm.
 */
import type { AuthScheme, Authenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import type { TokenSource } from '../oauth/index.js';
import { recordsPathOf, type ResolvedProfile, type Scheme } from '../profile/schema.js';
import type { Bases, RawExchange } from '../runner/exec-types.js';
import { isRefusalStatus } from '../profile/refusals.js';
import { said } from '../runner/response-parts.js';
import { join } from './common.js';

export { said } from '../runner/response-parts.js';

/** One credential the target refused where it must work. */
export interface CredentialRefusal {
  user: string;
  scheme: Scheme;
  /** `GET /users/alice/financialrecords → 401`. */
  request: string;
  status?: number;
  /** The first line of what the target said (an error body's detail, error_description, or its first 120 characters). */
  said?: string;
  /** Where the credential comes from in the profile, and the two ways out, in words. */
  advice: string;
}

/** The auth-scheme name a challenge uses for each of conform's schemes (RFC 9110 §11.6.1). */
const CHALLENGE_NAME: Record<Scheme, string> = {
  basic: 'basic',
  hmac: 'hmac',
  'hmac-nonce': 'hmac',
  oauth2: 'bearer',
  oauth1: 'oauth',
};

const SCHEME_WORDS: Record<Scheme, string> = {
  basic: 'Basic',
  hmac: 'hmac (simple form)',
  'hmac-nonce': 'hmac (date and nonce)',
  oauth2: 'OAuth 2',
  oauth1: 'OAuth 1',
};

const headerOf = (res: HttpResponse, name: string) => [res.headers[name] ?? []].flat().join(', ');
const text = (res: HttpResponse) => Buffer.from(res.body).toString('utf8');

/** The auth-scheme names of a `WWW-Authenticate` value, lower-cased: the tokens that start a challenge, not a param. */
export function challengeSchemes(value: string): string[] {
  const unquoted = value.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return [...unquoted.matchAll(/(?:^|,)\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?![A-Za-z0-9!#$%&'*+.^_`|~-])(?!\s*=)/g)]
    .map((m) => m[1]!.toLowerCase())
    .filter((name, i, all) => all.indexOf(name) === i);
}

/**
 * Positive evidence that `scheme` is not offered on this resource, in words, or undefined when the refusal says
 * nothing of the kind: a 401 whose challenges name other schemes and not this one (RFC 9110 §11.6.1: a challenge
 * lists what the resource accepts); a 400 or 501 whose body names the scheme as unsupported; for a bearer token, a
 * 403 `insufficient_scope` (RFC 6750 §3.1: the token is good, it does not reach this resource).
 */
export function notOfferedEvidence(scheme: Scheme, res: HttpResponse): string | undefined {
  const challenge = headerOf(res, 'www-authenticate');
  if (res.status === 401 && challenge !== '') {
    const names = challengeSchemes(challenge);
    if (names.length > 0 && !names.includes(CHALLENGE_NAME[scheme]))
      return `its 401 challenges with ${names.join(', ')} only (WWW-Authenticate: ${challenge})`;
  }
  if (scheme === 'oauth2' && res.status === 403 && /error\s*=\s*"?insufficient_scope/i.test(challenge))
    return `the token is valid but insufficient for this resource (403, ${challenge})`;
  if ((res.status === 400 || res.status === 501) && unsupportedIn(text(res), scheme))
    return `${res.status}: ${said(res) ?? ''}`;
  return undefined;
}

function unsupportedIn(body: string, scheme: Scheme): boolean {
  const name = CHALLENGE_NAME[scheme];
  const window = new RegExp(
    `\\b${name}\\b[^.\\n]{0,80}\\b(unsupported|not supported|not offered|not accepted)\\b`,
    'i',
  );
  const before = new RegExp(`\\b(unsupported|not supported)\\b[^.\\n]{0,40}\\b${name}\\b`, 'i');
  return window.test(body) || before.test(body);
}

/** Where a credential comes from, for the message: the profile key and the environment variable `conform init` names. */
function advice(scheme: Scheme, user: string, p: ResolvedProfile): string {
  const env = `CONFORM_${user.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  const index = p.users.findIndex((u) => u.name === user);
  const where =
    scheme === 'basic'
      ? `the password of ${user} (users[${index}].password, often \${${env}_PASSWORD})`
      : scheme === 'hmac' || scheme === 'hmac-nonce'
        ? `the secret of ${user} (users[${index}].secret, often \${${env}_SECRET})`
        : scheme === 'oauth2'
          ? 'the OAuth 2 client (auth.oauth2.clientId and clientSecret), its token endpoint or the user it acts for'
          : 'the OAuth 1 consumer (auth.oauth1.consumerKey and consumerSecret), its endpoints or the user who approves';
  return `check ${where}; or, if the target does not offer ${SCHEME_WORDS[scheme]} on this resource, leave ${scheme} out of auth.schemes; or, if the credential is right, the target refuses valid credentials — a defect: --no-credential-check runs the scenarios anyway to show where`;
}

export interface CredentialCheckDeps {
  client: HttpClient;
  bases: Bases;
  profile: ResolvedProfile;
  authenticator: Authenticator;
  tokens: TokenSource;
  /** Every exchange sent, for the report (raw: redact before reporting). */
  exchanges?: RawExchange[];
}

/** The users whose credentials of `scheme` the profile gives. */
function usersOf(scheme: Scheme, p: ResolvedProfile): string[] {
  const user = scheme === 'oauth2' ? p.auth.oauth2?.user : scheme === 'oauth1' ? p.auth.oauth1?.user : undefined;
  // OAuth 1 needs the owner's own credentials to approve: without them it cannot be tried (the run says so as an
  // omission, INCOMPLETE, not as a refusal).
  const owner = p.users.find((u) => u.name === user);
  if (scheme === 'oauth1' && owner?.password === undefined && owner?.secret === undefined) return [];
  if (scheme === 'oauth2' || scheme === 'oauth1') return user === undefined ? [] : [user];
  return p.users.filter((u) => (scheme === 'basic' ? u.password : u.secret) !== undefined).map((u) => u.name);
}

/**
 * Tries each user's credentials of each scheme of `profile.auth.schemes` once; returns the refusals (empty when all
 * were taken). A scheme the target offers on TLS only (`auth.tlsOnly`) is tried over TLS.
 */
export async function checkCredentials(deps: CredentialCheckDeps): Promise<CredentialRefusal[]> {
  const p = deps.profile;
  const records = recordsPathOf(p);
  const tries: Array<{ scheme: Scheme; user: string; base: string; path: string }> = [];
  for (const scheme of p.auth.schemes) {
    const tlsOnly = p.auth.tlsOnly.includes(scheme);
    const base = tlsOnly && deps.bases.tls !== undefined ? deps.bases.tls : deps.bases.primary;
    // A TLS-only credential never travels over plain HTTP (§5), not even to be tried.
    if (tlsOnly && !base.startsWith('https:')) continue;
    for (const user of usersOf(scheme, p)) {
      const path = (records ?? p.protected[0]?.path)?.replace('{user}', encodeURIComponent(user));
      if (path === undefined) return [];
      tries.push({ scheme, user, base, path });
    }
  }
  // Each try is independent of the others: all go out together (a round trip each, not one after another), each on
  // a connection of its own; refusals and exchanges are reported in the profile's order.
  const outcomes = await Promise.all(tries.map((t) => tryCredential(deps, t)));
  for (const o of outcomes) if (o.exchange) deps.exchanges?.push(o.exchange);
  return outcomes.flatMap((o) => (o.refusal ? [o.refusal] : []));
}

/** One user's credentials of one scheme, tried once on `path`: a refusal, or none; and the exchange sent. */
async function tryCredential(
  deps: CredentialCheckDeps,
  { scheme, user, base, path }: { scheme: Scheme; user: string; base: string; path: string },
): Promise<{ refusal?: CredentialRefusal; exchange?: RawExchange }> {
  const p = deps.profile;
  const request: HttpRequest = { method: 'GET', url: join(base, path), headers: {} };
  if (scheme === 'oauth2' || scheme === 'oauth1') {
    const got = await (scheme === 'oauth2' ? deps.tokens.oauth2(user, base) : deps.tokens.oauth1(user, base));
    if (!got.ok) {
      // Refused only when the target answered with a 4xx on the way (no answer says nothing of the credential).
      const refusal = got.exchanges.find(
        (x) => x.response !== undefined && isRefusalStatus(x.response.status, undefined),
      );
      if (refusal?.response === undefined) return {};
      return {
        refusal: {
          user,
          scheme,
          request: `${refusal.request.method} ${new URL(refusal.request.url).pathname} → ${refusal.response.status}`,
          status: refusal.response.status,
          said: said(refusal.response) ?? got.reason,
          advice: advice(scheme, user, p),
        },
      };
    }
    // Token credentials issued: the client's (and the owner's) credentials were taken. Whether the target then
    // honours its own token — on this instance or another, for this user or not — is for the scenarios to judge,
    // never a refusal of what the profile says.
    return {};
  }
  const applied = deps.authenticator.apply(request, scheme as AuthScheme, user);
  if (!applied.ok) return {};
  const sent = await deps.client.send(applied.request, { concurrent: true });
  const exchange: RawExchange = {
    step: 0,
    stepName: 'credential check',
    request: applied.request,
    ...(sent.ok ? { response: sent.response } : { error: sent.error }),
  };
  // Only a refusing 4xx refuses: no answer, a redirect, a 404 (no such resource) or a server error says nothing of
  // the credential (the scenarios judge those, errored or failed).
  if (!sent.ok || !isRefusalStatus(sent.response.status, undefined)) return { exchange };
  const what = said(sent.response);
  return {
    exchange,
    refusal: {
      user,
      scheme,
      request: `GET ${path} → ${sent.response.status}`,
      status: sent.response.status,
      ...(what !== undefined ? { said: what } : {}),
      advice: advice(scheme, user, p),
    },
  };
}

/** One refusal in words, for the console and the reports. */
export function describeRefusal(r: CredentialRefusal): string {
  return `${r.user}'s ${SCHEME_WORDS[r.scheme]} credentials were refused: ${r.request}${r.said ? ` (${JSON.stringify(r.said)})` : ''}; ${r.advice}`;
}
