/**
 * Adds credentials to requests for every scheme the harness knows, with the knobs scenarios use to probe a
 * target: explicit or fresh nonces, dates at any skew, a digest signed for another verb or path, mutated digests
 * and passwords, no body hash.
 */
import { randomInt } from 'node:crypto';
import type { HttpRequest } from '../http/client.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import { applyMutation, type Mutation } from './mutations.js';
import { basicHeader, bodyHash, formatSpecDate, hmacDigest, hmacHeader, signedMessage } from './signers.js';

/** Per-request knobs, already rendered from the scenario. Everything is optional. */
export interface AuthOptions {
  /** Basic: send the user's password changed by this mutation. */
  passwordMutation?: Mutation;
  /** Exact nonce to send (date-and-nonce form). */
  nonce?: string;
  /** Exact Date text to send. */
  date?: string;
  /** Seconds added to the harness clock for the Date. */
  skew?: number;
  /** Send no Date header (the digest is computed with an empty date text). */
  omitDate?: boolean;
  /** Compute the digest over these instead of the request's own values. */
  signAs?: { method?: string; path?: string; date?: string; nonce?: string; body?: string; simple?: boolean };
  /** Change the digest after computing it. */
  digestMutation?: Mutation;
  /** false: sign a PUT/POST without the body hash although the profile uses it. */
  bodyHash?: boolean;
}

export interface Authenticator {
  apply(request: HttpRequest, scheme: Scheme, user: string, options?: AuthOptions): { ok: true; request: HttpRequest } | { ok: false; reason: string };
  /** A nonce no earlier request of this process used: 16 digits from the clock and a counter. */
  freshNonce(): string;
}

export interface AuthenticatorDeps {
  profile: ResolvedProfile;
  /** The harness clock (injectable for tests). */
  now?: () => Date;
}

export function createAuthenticator(deps: AuthenticatorDeps): Authenticator {
  const now = deps.now ?? (() => new Date());
  const { profile } = deps;
  // Unique across this process and, through the clock, across earlier runs against the same target.
  let counter = BigInt(Date.now()) * 1000n + BigInt(randomInt(0, 1000));
  const freshNonce = () => (counter++).toString();

  const apply: Authenticator['apply'] = (request, scheme, userName, options = {}) => {
    const user = profile.users.find((u) => u.name === userName);
    if (!user) return { ok: false, reason: `the profile has no user "${userName}"` };
    const headers = { ...request.headers };
    const target = new URL(request.url);
    const path = target.pathname + target.search;
    switch (scheme) {
      case 'basic': {
        if (user.password === undefined) return { ok: false, reason: `the profile gives user "${userName}" no password for Basic` };
        const password = options.passwordMutation ? applyMutation(user.password, options.passwordMutation) : user.password;
        headers['authorization'] = basicHeader(user.name, password);
        break;
      }
      case 'hmac':
      case 'hmac-nonce': {
        if (user.secret === undefined) return { ok: false, reason: `the profile gives user "${userName}" no secret for signed requests` };
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
          ...(nonce !== undefined && !sign.simple ? { nonce: sign.nonce ?? nonce, date: options.omitDate ? '' : (sign.date ?? date ?? '') } : {}),
          ...(hash !== undefined ? { bodyHash: hash } : {}),
        });
        let digest = hmacDigest(user.secret, message);
        if (options.digestMutation) digest = applyMutation(digest, options.digestMutation);
        headers[profile.auth.hmacHeader.toLowerCase()] = hmacHeader(user.name, digest, nonce);
        break;
      }
      case 'oauth2':
      case 'oauth1':
        return { ok: false, reason: `the harness does not sign ${scheme} requests yet` };
      default: {
        const never: never = scheme;
        return { ok: false, reason: `unknown scheme ${String(never)}` };
      }
    }
    return { ok: true, request: { ...request, headers } };
  };
  return { apply, freshNonce };
}
