import { parseFormBytes, percentEncode, wireBytes } from '../oauth/encoding.js';
import { baseStringUri, encodeParam, hmacSha1Signature, signatureBaseString } from './base-string.js';
import type { EncodedParam } from './base-string.js';

const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/;

/** What {@link signOAuth1} signs: a request as it will be sent, and the credentials. */
export interface OAuth1SignInput {
  method: string;
  /** Absolute URL exactly as it will be sent (scheme, host[:port], raw path, raw query). */
  url: string;
  consumerKey: string;
  consumerSecret: string;
  /** `oauth_token` and its secret; absent for the temporary credential request. */
  token?: string;
  tokenSecret?: string;
  nonce: string;
  timestamp: string | number;
  /** Further protocol parameters (e.g. `oauth_callback`, `oauth_verifier`), decoded text. */
  extra?: ReadonlyArray<readonly [string, string]>;
  /** An `application/x-www-form-urlencoded` body exactly as it will be sent; its parameters are signed. */
  formBody?: string;
  /** `realm` of the `Authorization` header (not signed). */
  realm?: string;
  /** Send `oauth_version="1.0"`. Default true. */
  version?: boolean;
}

/** A signed OAuth 1 request: the protocol parameters (signature included), their header, and what was signed. */
export interface OAuth1Signed {
  /** `oauth_*` parameters in order, decoded text, `oauth_signature` last. */
  protocol: Array<[string, string]>;
  /** `OAuth realm="…", oauth_consumer_key="…", …` (RFC 5849 §3.5.1). */
  authorization: string;
  baseString: string;
  signature: string;
}

/**
 * Signs a request with HMAC-SHA1 as RFC 5849 §3.4 defines, for tests and tools: the base string covers the URL's
 * query, the form body and the protocol parameters. Put the result in the `Authorization` header, or the
 * `protocol` pairs in the body or the query (then sign with those places' other parameters only).
 */
export function signOAuth1(input: OAuth1SignInput): OAuth1Signed {
  const m = URL_PARTS.exec(input.url);
  const scheme = m?.[1]?.toLowerCase() === 'https' ? 'https' : 'http';
  const uri = baseStringUri(scheme, m?.[2] ?? '', m?.[3] ?? '') ?? '';
  const rawQuery = m?.[4] ?? '';
  const protocol: Array<[string, string]> = [
    ['oauth_consumer_key', input.consumerKey],
    ...(input.token === undefined ? [] : ([['oauth_token', input.token]] as Array<[string, string]>)),
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', String(input.timestamp)],
    ['oauth_nonce', input.nonce],
    ...((input.version ?? true) ? ([['oauth_version', '1.0']] as Array<[string, string]>) : []),
    ...(input.extra ?? []).map(([n, v]): [string, string] => [n, v]),
  ];
  const params: EncodedParam[] = [
    ...parseFormBytes(wireBytes(rawQuery)).map((p) => encodeParam(p.name, p.value)),
    ...parseFormBytes(wireBytes(input.formBody ?? '')).map((p) => encodeParam(p.name, p.value)),
    ...protocol.map(([n, v]) => encodeParam(n, v)),
  ];
  const baseString = signatureBaseString(input.method, uri, params);
  const signature = hmacSha1Signature(baseString, input.consumerSecret, input.tokenSecret ?? '');
  protocol.push(['oauth_signature', signature]);
  const realm = input.realm === undefined ? [] : [`realm="${input.realm}"`];
  const authorization = `OAuth ${[...realm, ...protocol.map(([n, v]) => `${percentEncode(n)}="${percentEncode(v)}"`)].join(', ')}`;
  return { protocol, authorization, baseString, signature };
}
