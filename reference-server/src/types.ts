/** The reference server's state and the dependencies of its handlers; the leaf records are in records.ts. */
import type { SessionTable } from './auth/memory.js';
import type { NonceStore } from './auth/nonces.js';
import type { UserAccount } from './auth/users.js';
import type { FaultName } from './faults.js';
import type { VariantName } from './variants.js';
import type { OAuth1State, OAuth2State } from './oauth/state.js';
import type { Limits } from './records.js';
import type { ArticleStore } from './store/articles.js';

/** Injected effects: the clock, the id source and the switched-on faults. */
export interface HandlerDeps {
  now: () => Date;
  newId: () => string;
  faults: ReadonlySet<FaultName>;
  /** Open points of the spec chosen differently from the default (variants.ts); empty for the default server. */
  variants: ReadonlySet<VariantName>;
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
