import { isFormContentType, parseFormText } from '../oauth/encoding.js';
import { headerValue } from '../request.js';
import type { RequestRecord, ResponseRecord } from '../records.js';
import { oauth2Error } from './responses.js';

/** Outcome of {@link readForm}: the parameters by name, or the `invalid_request` answer. */
export type FormRead = { ok: true; params: ReadonlyMap<string, string> } | { ok: false; response: ResponseRecord };

/**
 * Reads the `application/x-www-form-urlencoded` body of a token or revocation request (RFC 6749 §3.2, Appendix
 * B): UTF-8, parameters without a value count as omitted, a repeated parameter is an `invalid_request`, as are
 * another media type, another charset and bytes that are not UTF-8. The query is not read.
 */
export function readForm(req: RequestRecord): FormRead {
  const contentType = headerValue(req, 'content-type');
  const fail = (description: string): FormRead => ({
    ok: false,
    response: oauth2Error(400, 'invalid_request', description),
  });
  if (!isFormContentType(contentType)) return fail('the body must be application/x-www-form-urlencoded');
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return fail('the form must be UTF-8');
  const pairs = parseFormText(req.body);
  if (pairs === undefined) return fail('the form is not UTF-8');
  const params = new Map<string, string>();
  for (const [name, value] of pairs) {
    if (value === '') continue;
    if (params.has(name)) return fail(`the parameter ${name} is repeated`);
    params.set(name, value);
  }
  return { ok: true, params };
}
