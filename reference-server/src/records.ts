/**
 * Leaf records of the reference server: a request and its answer as the pure core sees them, an article, the limits,
 * the methods it knows. They import nothing, so every module may use them without a cycle.
 */

/** What a connection remembers across requests (only under the `connection-remembers` fault). */
export interface ConnectionMemory {
  user?: string;
}

/** Header map with lowercased names; repeated headers may be arrays. */
export type HeaderMap = Record<string, string | string[]>;

/** One HTTP request as the pure core sees it (no sockets). */
export interface RequestRecord {
  /** Method token exactly as received (case-sensitive). */
  method: string;
  /** Raw path without the query, exactly as received (no percent-decoding). */
  path: string;
  /** Raw query without the leading `?`; empty when absent. */
  query: string;
  headers: HeaderMap;
  body: Uint8Array;
  /** True when the request arrived over TLS. */
  secure: boolean;
  /**
   * Request-target in origin form exactly as sent (the raw path plus `?query` when there is one); signed
   * requests cover it. Default: `path`, plus `?query` when `query` is not empty.
   */
  target?: string;
  /** Per-connection memory, given only under the `connection-remembers` fault (the correct server keeps none). */
  connection?: ConnectionMemory;
}

/** One HTTP response produced by the pure core. */
export interface ResponseRecord {
  status: number;
  headers: HeaderMap;
  body?: string | Uint8Array;
}

/** A stored article. `price` keeps the decimal text exactly as sent. */
export interface Article {
  title: string;
  price: string;
  currency: string;
  summary?: string;
  /** Only under the `accepts-missing-title`, `accepts-duplicate-title` and `accepts-other-root` faults: the document as sent, served verbatim. */
  raw?: string;
  /** Only under the `put-revision` fault: how many writes this article has had (1 for the one that created it). */
  revision?: number;
}

/** Limits enforced by the pure core (the IO shell enforces the body cap too). */
export interface Limits {
  maxBodyBytes: number;
  maxArticles: number;
}

/** HTTP methods this server knows; anything else answers 405 (see `unknownMethod`). */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT'] as const;

/**
 * Methods only the `webdav-lock` variant handles, on the article collection and items (RFC 4918 §9.10–9.11).
 * They are not in {@link KNOWN_METHODS}: everywhere else they are methods the server does not implement.
 */
export const WEBDAV_METHODS = ['LOCK', 'UNLOCK'] as const;

/** A method token from {@link KNOWN_METHODS}, or one of the {@link WEBDAV_METHODS} a route may handle. */
export type Method = (typeof KNOWN_METHODS)[number] | (typeof WEBDAV_METHODS)[number];

/** True when `token` is one of {@link KNOWN_METHODS}. */
export function isKnownMethod(token: string): token is Method {
  return (KNOWN_METHODS as readonly string[]).includes(token);
}
