import { createHmac } from 'node:crypto';
import { percentEncode } from '../oauth/encoding.js';

/** One parameter as the signature base string covers it: name and value already encoded per RFC 5849 §3.6. */
export interface EncodedParam {
  name: string;
  value: string;
}

const HOST = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\]]+)(?::([0-9]{1,5}))?$/;

/** Encodes a decoded name and value (text as UTF-8, or raw bytes) per RFC 5849 §3.6. */
export function encodeParam(name: string | Uint8Array, value: string | Uint8Array): EncodedParam {
  return { name: percentEncode(name), value: percentEncode(value) };
}

/**
 * The base string URI (RFC 5849 §3.4.1.2): lowercase scheme and host, the port only when it is not the scheme's
 * default (80, 443), then the path as received (`/` when empty). Undefined when `host` (a Host header value) is
 * not `host[:port]`.
 */
export function baseStringUri(scheme: 'http' | 'https', host: string, path: string): string | undefined {
  const m = HOST.exec(host.trim());
  if (!m) return undefined;
  const name = (m[1] ?? '').toLowerCase();
  const port = m[2];
  const defaultPort = scheme === 'https' ? 443 : 80;
  const authority = port === undefined || Number(port) === defaultPort ? name : `${name}:${port}`;
  return `${scheme}://${authority}${path === '' ? '/' : path}`;
}

/**
 * The normalized parameters (RFC 5849 §3.4.1.3.2): encoded pairs sorted by name, then by value, in ascending
 * byte order (the encoded text is ASCII), duplicates kept, each `name=value`, joined by `&`.
 */
export function normalizeParameters(params: readonly EncodedParam[]): string {
  const sorted = [...params].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0,
  );
  return sorted.map((p) => `${p.name}=${p.value}`).join('&');
}

/**
 * The signature base string (RFC 5849 §3.4.1.1): the uppercase method, the encoded base string URI and the
 * encoded normalized parameters, joined by `&`.
 */
export function signatureBaseString(method: string, uri: string, params: readonly EncodedParam[]): string {
  return `${percentEncode(method.toUpperCase())}&${percentEncode(uri)}&${percentEncode(normalizeParameters(params))}`;
}

/** The HMAC-SHA1 key (RFC 5849 §3.4.2): encoded client shared secret, `&`, encoded token secret (maybe empty). */
export function signingKey(consumerSecret: string, tokenSecret: string): string {
  return `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
}

/** `oauth_signature` for HMAC-SHA1 (RFC 5849 §3.4.2): standard base64 of HMAC-SHA1(key, base string). */
export function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret: string): string {
  return createHmac('sha1', signingKey(consumerSecret, tokenSecret)).update(baseString, 'utf8').digest('base64');
}

/**
 * `oauth_signature` for `method`: HMAC-SHA1 (§3.4.2), HMAC-SHA256 (the same construction with SHA-256) or PLAINTEXT
 * (§3.4.4: the signing key itself); undefined for another method.
 */
export function signatureFor(
  method: string,
  baseString: string,
  consumerSecret: string,
  tokenSecret: string,
): string | undefined {
  if (method === 'PLAINTEXT') return signingKey(consumerSecret, tokenSecret);
  if (method === 'HMAC-SHA1') return hmacSha1Signature(baseString, consumerSecret, tokenSecret);
  if (method === 'HMAC-SHA256')
    return createHmac('sha256', signingKey(consumerSecret, tokenSecret)).update(baseString, 'utf8').digest('base64');
  return undefined;
}
