import type { ConnectionMemory, SessionTable } from './auth/memory.js';
import type { NonceStore } from './auth/nonces.js';
import type { UserAccount } from './auth/users.js';
import type { FaultName } from './faults.js';
import type { VariantName } from './variants.js';
import type { OAuth1State, OAuth2State } from './oauth/state.js';
import type { ArticleStore } from './store/articles.js';

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
}

/** Injected effects: the clock, the id source and the switched-on faults. */
export interface HandlerDeps {
  now: () => Date;
  newId: () => string;
  faults: ReadonlySet<FaultName>;
  /** Open points of the spec chosen differently from the default (variants.ts); empty for the default server. */
  variants: ReadonlySet<VariantName>;
}

/** Limits enforced by the pure core (the IO shell enforces the body cap too). */
export interface Limits {
  maxBodyBytes: number;
  maxArticles: number;
}

/** Authentication settings: the accounts, the Date window and whether PUT/POST signatures cover the body. */
export interface AuthSettings {
  users: ReadonlyMap<string, UserAccount>;
  /** Accepted clock difference of a signed Date, seconds, both directions. */
  window: number;
  /** PUT and POST signatures must include the body hash (docs/auth.md). */
  bodyHash: boolean;
}

/**
 * Mutable server state shared by every listener: articles, nonces (§5.2 and OAuth 1 alike), OAuth clients and
 * issued credentials (and sessions, under a fault only).
 */
export interface ServerState {
  store: ArticleStore;
  limits: Limits;
  auth: AuthSettings;
  nonces: NonceStore;
  oauth2: OAuth2State;
  oauth1: OAuth1State;
  /** Used only by the `session-cookie` fault. */
  sessions: SessionTable;
}

/** HTTP methods this server knows; anything else answers 405 (see `unknownMethod`). */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT'] as const;

/** A method token from {@link KNOWN_METHODS}. */
export type Method = (typeof KNOWN_METHODS)[number];

/** True when `token` is one of {@link KNOWN_METHODS}. */
export function isKnownMethod(token: string): token is Method {
  return (KNOWN_METHODS as readonly string[]).includes(token);
}
