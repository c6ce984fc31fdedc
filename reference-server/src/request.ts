import { isIPv6 } from 'node:net';
import type { RequestRecord } from './records.js';

/** First value of a request header (names are lowercase), or undefined. */
export function headerValue(req: RequestRecord, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Outcome of {@link checkXmlMediaType}: acceptable, or the reason it is not. */
export type MediaTypeCheck = { ok: true } | { ok: false; detail: string };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Accepts `application/xml`, `text/xml` and any `application/*+xml` (only `text/xml` when `textOnly`, the
 * `media-type-text-xml` variant), with parameters; a missing Content-Type counts as XML. A `charset` parameter
 * other than UTF-8 is refused.
 */
export function checkXmlMediaType(contentType: string | undefined, textOnly = false): MediaTypeCheck {
  if (contentType === undefined) return { ok: true };
  const [essence = '', ...params] = contentType.split(';');
  const [type = '', subtype = '', ...extra] = essence.trim().toLowerCase().split('/');
  const accepted = textOnly ? 'text/xml' : 'application/xml, text/xml or application/*+xml';
  if (extra.length > 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) {
    return { ok: false, detail: `malformed Content-Type ${JSON.stringify(contentType)}; send ${accepted}` };
  }
  const xml =
    (!textOnly && type === 'application' && (subtype === 'xml' || subtype.endsWith('+xml'))) ||
    (type === 'text' && subtype === 'xml');
  if (!xml) return { ok: false, detail: `Content-Type ${type}/${subtype} is not supported; send ${accepted}` };
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const name = param.slice(0, eq).trim().toLowerCase();
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (name === 'charset' && value !== 'utf-8' && value !== 'utf8') {
      return { ok: false, detail: `charset ${JSON.stringify(value)} is not supported; send UTF-8` };
    }
  }
  return { ok: true };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a body as strict UTF-8 (a leading BOM is dropped); undefined when the bytes are not valid UTF-8. */
export function decodeUtf8(body: Uint8Array): string | undefined {
  try {
    return UTF8.decode(body);
  } catch {
    return undefined;
  }
}

/** `reg-name` or `IPv4address` of RFC 3986 §3.2.2: unreserved characters, sub-delims and percent-encodings. */
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
/** `IPvFuture` of RFC 3986 §3.2.2, between the brackets of an IP-literal. */
const IP_FUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;

/**
 * Why the request's `Host` is unacceptable, or undefined when it is fine. RFC 9112 §3.2: a server MUST answer 400 to
 * a request with more than one Host field line or with an invalid one (`uri-host [ ":" port ]`, RFC 3986); an
 * HTTP/1.1 request without Host is refused by node's parser already. An empty value is valid (an authority-less URI).
 */
export function hostProblem(req: RequestRecord): string | undefined {
  const value = req.headers['host'];
  if (Array.isArray(value))
    return value.length > 1
      ? `the request has ${value.length} Host header fields; RFC 9112 §3.2 allows one`
      : undefined;
  if (value === undefined) return undefined;
  const bracket = value.startsWith('[') ? value.indexOf(']') : -1;
  const colon = bracket >= 0 ? (value[bracket + 1] === ':' ? bracket + 1 : -1) : value.lastIndexOf(':');
  const host = colon < 0 ? value : value.slice(0, colon);
  const port = colon < 0 ? '' : value.slice(colon + 1);
  const hostValid =
    bracket >= 0
      ? bracket === host.length - 1 && (isIPv6(host.slice(1, -1)) || IP_FUTURE.test(host.slice(1, -1)))
      : REG_NAME.test(host);
  if (!hostValid || !/^[0-9]*$/.test(port))
    return `Host ${JSON.stringify(value)} is not a valid uri-host [ ":" port ] (RFC 9112 §3.2, RFC 3986 §3.2.2)`;
  return undefined;
}
