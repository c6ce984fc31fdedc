import type { HeaderMap, ResponseRecord } from './records.js';
import type { VariantName } from './variants.js';

/** Media type of every article and document response. */
export const XML_TYPE = 'application/xml; charset=utf-8';
/** Media type of XML responses under the `media-type-text-xml` variant. */
export const TEXT_XML_TYPE = 'text/xml; charset=utf-8';
/** Media type of every error response (RFC 9457). */
export const PROBLEM_TYPE = 'application/problem+json';
/** Prefix of the problem `type` URIs this server mints; other problems use `about:blank`. */
export const PROBLEM_BASE = 'tag:conform.example,2025:problems/';

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  423: 'Locked',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** The standard reason phrase for `status` (`Error` when unknown). */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'Error';
}

/** Extra fields of a problem: a minted type slug with its own title, and extra headers. */
export interface ProblemOptions {
  /** Slug appended to {@link PROBLEM_BASE}; without it the type is `about:blank` and the title the reason phrase. */
  slug?: string;
  title?: string;
  headers?: HeaderMap;
}

/** An RFC 9457 `application/problem+json` response. */
export function problem(status: number, detail: string, options: ProblemOptions = {}): ResponseRecord {
  const type = options.slug === undefined ? 'about:blank' : PROBLEM_BASE + options.slug;
  const title = options.slug === undefined ? reasonPhrase(status) : (options.title ?? reasonPhrase(status));
  return {
    status,
    headers: { 'content-type': PROBLEM_TYPE, ...options.headers },
    body: JSON.stringify({ type, title, status, detail }),
  };
}

/** An XML document response. */
export function xmlResponse(status: number, body: string, headers: HeaderMap = {}): ResponseRecord {
  return { status, headers: { 'content-type': XML_TYPE, ...headers }, body };
}

/** UTF-8 byte length of a body. */
export function byteLength(body: string | Uint8Array | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength;
}

/**
 * The answer to a method this server does not implement at all (`allow` is the resource's `Allow`, or undefined
 * to leave the header out): `405` with that `Allow` — a 4xx, so a client's mistake never shows as a server error
 * in logs and alerts. RFC 9110 §9.1 recommends `501` here (a SHOULD); README "Methods" explains the choice.
 */
export function unknownMethod(method: string, path: string, allow: string | undefined): ResponseRecord {
  const detail = `method ${method} is not implemented by this server${allow === undefined ? '' : `; allowed on ${path}: ${allow}`}`;
  return problem(405, detail, allow === undefined ? {} : { headers: { allow } });
}

/** The variants that choose another error body format. */
export const ERROR_VARIANTS = ['errors-json', 'errors-text', 'errors-empty'] as const satisfies readonly VariantName[];

/**
 * An error answer in the body format a variant chooses (§7.2 leaves error bodies open): `errors-json`
 * (`application/json`, `{"error": title, "message": detail}`), `errors-text` (`text/plain`, one line) or
 * `errors-empty` (no body). Only problem+json answers change: the OAuth 2 endpoints' JSON errors are RFC 6749 §5.2's.
 */
export function errorFormat(response: ResponseRecord, variants: ReadonlySet<VariantName>): ResponseRecord {
  if (response.headers['content-type'] !== PROBLEM_TYPE || typeof response.body !== 'string') return response;
  const json = variants.has('errors-json');
  const plain = variants.has('errors-text');
  if (!json && !plain && !variants.has('errors-empty')) return response;
  const { title, detail } = JSON.parse(response.body) as { title: string; detail: string };
  const headers: HeaderMap = { ...response.headers };
  delete headers['content-type'];
  if (json)
    return {
      status: response.status,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ error: title, message: detail }),
    };
  if (plain)
    return {
      status: response.status,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
      body: `${response.status} ${title}: ${detail}\n`,
    };
  return { status: response.status, headers };
}
