/**
 * The harness's OAuth 1.0a (RFC 5849) HMAC-SHA1 signer, written independently of the reference server and checked
 * against specs/vectors/oauth.yaml (computed with Python) before every run.
 */
import { createHmac } from 'node:crypto';
import { formPairBytes } from '../http/form.js';
import { percentEncode, percentEncodeBytes } from '../http/percent.js';
import { applyMutation, type Mutation } from '../auth/mutations.js';

/** RFC 5849 §3.6: unreserved characters stay, every other UTF-8 byte becomes %XX (uppercase hex). */
export const oauthEncode = percentEncode;

/** §3.4.1.2: scheme and host lowercased, the default port dropped, no query or fragment. */
export function baseStringUri(url: string): string {
  const u = new URL(url);
  const defaultPort =
    (u.protocol === 'http:' && u.port === '80') || (u.protocol === 'https:' && u.port === '443') || u.port === '';
  return `${u.protocol.toLowerCase()}//${u.hostname.toLowerCase()}${defaultPort ? '' : `:${u.port}`}${u.pathname || '/'}`;
}

/** §3.4.1: method, base string URI and the normalized parameters (query, form body, protocol parameters). */
export function oauth1BaseString(
  method: string,
  url: string,
  formBody: string,
  protocol: ReadonlyArray<readonly [string, string]>,
): string {
  const query = new URL(url).search.replace(/^\?/, '');
  // Query and body pairs are decoded to bytes and encoded again byte for byte (§3.4.1.3.2): `%FF` stays `%FF`.
  const decoded = [...formPairBytes(query), ...formPairBytes(formBody)].map(
    ([k, v]) => [percentEncodeBytes(k), percentEncodeBytes(v)] as const,
  );
  const own = protocol
    .filter(([k]) => k !== 'oauth_signature' && k !== 'realm')
    .map(([k, v]) => [oauthEncode(k), oauthEncode(v)] as const);
  const pairs = [...decoded, ...own].sort((a, b) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
  );
  const normalized = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  return [oauthEncode(method.toUpperCase()), oauthEncode(baseStringUri(url)), oauthEncode(normalized)].join('&');
}

/** §3.4.2: base64 HMAC-SHA1 keyed with `enc(consumerSecret)&enc(tokenSecret)`. */
export function oauth1Signature(baseString: string, consumerSecret: string, tokenSecret = ''): string {
  return createHmac('sha1', `${oauthEncode(consumerSecret)}&${oauthEncode(tokenSecret)}`)
    .update(baseString)
    .digest('base64');
}

/** The signature methods the harness signs with: RFC 5849 §3.4's HMAC-SHA1 and PLAINTEXT, and HMAC-SHA256. */
export type OAuth1Method = 'HMAC-SHA1' | 'HMAC-SHA256' | 'PLAINTEXT';

/**
 * `oauth_signature` for `method`: HMAC-SHA1 (§3.4.2), HMAC-SHA256 (the same construction with SHA-256) or PLAINTEXT
 * (§3.4.4, the key itself).
 */
export function oauth1SignWith(
  method: OAuth1Method,
  baseString: string,
  consumerSecret: string,
  tokenSecret = '',
): string {
  if (method === 'PLAINTEXT') return oauth1Plaintext(consumerSecret, tokenSecret);
  return createHmac(
    method === 'HMAC-SHA256' ? 'sha256' : 'sha1',
    `${oauthEncode(consumerSecret)}&${oauthEncode(tokenSecret)}`,
  )
    .update(baseString)
    .digest('base64');
}

/** §3.5.1: `OAuth realm="…", name="value", …` with encoded names and values. */
export function oauth1Header(params: ReadonlyArray<readonly [string, string]>, realm?: string): string {
  const parts = params.map(([k, v]) => `${oauthEncode(k)}="${oauthEncode(v)}"`);
  // The realm is an RFC 2617 quoted-string: a backslash or a double quote inside is escaped.
  const quoted = realm === undefined ? '' : `realm="${realm.replace(/[\\"]/g, '\\$&')}", `;
  return `OAuth ${quoted}${parts.join(', ')}`;
}

/** §3.4.4 PLAINTEXT: `oauth_signature` is `enc(consumerSecret)&enc(tokenSecret)`, no base string. */
export function oauth1Plaintext(consumerSecret: string, tokenSecret = ''): string {
  return `${oauthEncode(consumerSecret)}&${oauthEncode(tokenSecret)}`;
}

/**
 * A PLAINTEXT signature changed by a mutation so that the secrets it decodes to change (VERDICTS.md §4): a server
 * may percent-decode both halves before comparing, so a change of hex case alone is no mutation; such a result
 * gets a character appended to the token secret half instead.
 */
export function mutatePlaintext(signature: string, m: Mutation): string {
  const decoded = (v: string): string | undefined => {
    try {
      return v
        .split('&')
        .map((part) => decodeURIComponent(part))
        .join('\u0000');
    } catch {
      return undefined;
    }
  };
  const out = applyMutation(signature, m);
  return out !== signature && decoded(out) !== decoded(signature) ? out : `${signature}x`;
}
