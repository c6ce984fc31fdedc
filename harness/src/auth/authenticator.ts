/**
 * Adds credentials to requests for every scheme the harness knows, with the knobs scenarios use to probe a
 * target: explicit or fresh nonces, dates at any skew, a digest signed for another verb or path, mutated digests
 * and passwords, no body hash.
 */
import { randomInt } from 'node:crypto';
import type { HttpRequest } from '../http/client.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { AuthOptions, AuthScheme } from './options.js';
import { applyOAuth1, applyOAuth2 } from '../oauth/apply.js';
import { applyDigestMutation, applyPasswordMutation } from './mutations.js';
import { basicHeader, bodyHash, formatSpecDate, hmacDigest, hmacHeader, signedMessage } from './signers.js';

export type { AuthOptions, AuthScheme } from './options.js';

/** Applies credentials of a scheme and user to a request, or says why it cannot. */
export interface Authenticator {
  apply(
    request: HttpRequest,
    scheme: AuthScheme,
    user: string,
    options?: AuthOptions,
  ): { ok: true; request: HttpRequest; signed?: SignedParts } | { ok: false; reason: string };
  /** A nonce no earlier request of this process used: 16 digits from the clock and a counter. */
  freshNonce(): string;
  /** The same signers (clock, nonce counter) for another profile: the one the harness learned (harness/src/learn). */
  withProfile(profile: ResolvedProfile): Authenticator;
}

/**
 * What a Basic or hmac credential was made from, beyond the scheme and user: the header it went in and, for hmac, the
 * path signed and whether the body hash was — what `conform sign` needs to make a fresh one for the same request.
 */
export interface SignedParts {
  header: string;
  path?: string;
  bodyHash?: boolean;
}

export interface AuthenticatorDeps {
  profile: ResolvedProfile;
  /** The harness clock (injectable for tests). */
  now?: () => Date;
  /** Where fresh nonces come from (default: a new counter seeded from the clock). */
  freshNonce?: () => string;
}

/** The harness's own implementation of the spec's schemes (Basic, HMAC, OAuth 2 and 1): it signs requests for scenarios and fetches tokens; it shares no code with the reference server. */
export function createAuthenticator(deps: AuthenticatorDeps): Authenticator {
  const now = deps.now ?? (() => new Date());
  const { profile } = deps;
  const freshNonce = deps.freshNonce ?? nonceCounter();

  const apply: Authenticator['apply'] = (request, scheme, userName, options = {}) => {
    if (scheme === 'oauth2' || scheme === 'oauth2-client')
      return applyOAuth2(request, scheme, options, profile, userName);
    if (scheme === 'oauth1') return applyOAuth1(request, options, { profile, now, freshNonce });
    const named = profile.users.find((u) => u.name === userName);
    if (!named) return { ok: false, reason: `the profile has no user "${userName}"` };
    // The user named in the credentials, and the one whose secret or password is used (the same unless secretOf).
    const keyOwner = options.secretOf ?? userName;
    const owner = profile.users.find((u) => u.name === keyOwner);
    if (!owner) return { ok: false, reason: `the profile has no user "${keyOwner}"` };
    const user = { name: named.name, password: owner.password, secret: owner.secret };
    const headers = { ...request.headers };
    const target = new URL(request.url);
    // Whether <path> holds the query is open in §5.2: the profile's auth.signedPathIncludesQuery says.
    const path = target.pathname + (profile.auth.signedPathIncludesQuery ? target.search : '');
    let signed: SignedParts;
    switch (scheme) {
      case 'basic': {
        if (user.password === undefined)
          return { ok: false, reason: `the profile gives user "${keyOwner}" no password for Basic` };
        const password = options.passwordMutation
          ? applyPasswordMutation(user.password, options.passwordMutation)
          : user.password;
        headers['authorization'] = basicHeader(user.name, password);
        signed = { header: 'Authorization' };
        break;
      }
      case 'hmac':
      case 'hmac-nonce': {
        if (user.secret === undefined)
          return { ok: false, reason: `the profile gives user "${keyOwner}" no secret for signed requests` };
        const sign = options.signAs ?? {};
        const method = sign.method ?? request.method;
        const withBody = profile.auth.bodyHash && options.bodyHash !== false && (method === 'PUT' || method === 'POST');
        const hash = withBody ? bodyHash(sign.body ?? request.body) : undefined;
        let nonce: string | undefined;
        let date: string | undefined;
        if (scheme === 'hmac-nonce') {
          nonce = options.nonce ?? freshNonce();
          date = options.date ?? formatSpecDate(new Date(now().getTime() + (options.skew ?? 0) * 1000));
          if (!options.omitDate) headers['date'] = date;
        }
        const message = signedMessage({
          method,
          path: sign.path ?? path,
          ...(nonce !== undefined && !sign.simple
            ? { nonce: sign.nonce ?? nonce, date: options.omitDate ? '' : (sign.date ?? date ?? '') }
            : {}),
          ...(hash !== undefined ? { bodyHash: hash } : {}),
        });
        let digest = hmacDigest(user.secret, message);
        if (options.digestMutation) digest = applyDigestMutation(digest, options.digestMutation);
        headers[profile.auth.hmacHeader.toLowerCase()] = hmacHeader(user.name, digest, nonce);
        signed = { header: profile.auth.hmacHeader, path: sign.path ?? path, bodyHash: withBody };
        break;
      }
      default: {
        const never: never = scheme;
        return { ok: false, reason: `unknown scheme ${String(never)}` };
      }
    }
    return { ok: true, request: { ...request, headers }, signed };
  };

  return { apply, freshNonce, withProfile: (other) => createAuthenticator({ ...deps, profile: other, freshNonce }) };
}

/** Nonces unique across this process and, through the clock, across earlier runs against the same target. */
function nonceCounter(): () => string {
  let counter = BigInt(Date.now()) * 1000n + BigInt(randomInt(0, 1000));
  return () => (counter++).toString();
}
