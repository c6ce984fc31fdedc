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

export { hostProblem } from './host.js';
