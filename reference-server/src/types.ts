/** The reference server's state and the dependencies of its handlers; the leaf records are in records.ts. */
import type { SessionTable } from './auth/memory.js';
import type { NonceStore } from './auth/nonces.js';
import type { UserAccount } from './auth/users.js';
import type { FaultName } from './faults.js';
import type { VariantName } from './variants.js';
import type { LocalOAuth1State, LocalOAuth2State, OAuth1State, OAuth2State } from './oauth/state.js';
import type { Article, Limits } from './records.js';
import type { ArticleStore } from './store/articles.js';
import type { Articles, Nonces } from './store/interfaces.js';

/** Injected effects: the clock, the id source and the switched-on faults. */
export interface HandlerDeps {
  now: () => Date;
  newId: () => string;
  /**
   * Random bytes for credentials and UUIDs. Default: `node:crypto` randomBytes. The shared store replays one
   * request's draws when it runs the request again (cluster/shared-handler.ts), so a pass is a function of its input.
   */
  random?: (size: number) => Buffer;
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
 * The state a request is handled against: articles, nonces (§5.2 and OAuth 1 alike), OAuth clients and issued
 * credentials (and sessions, under a fault only). The stores are interfaces: in memory by default
 * ({@link LocalState}), or views of the shared store of a cluster (cluster/views.ts).
 */
export interface ServerState {
  store: Articles;
  limits: Limits;
  auth: AuthSettings;
  nonces: Nonces;
  oauth2: OAuth2State;
  oauth1: OAuth1State;
  /** Used only by the `session-cookie` fault. */
  sessions: SessionTable;
  /** Used only by the article faults that remember deletions and alias copies (empty otherwise). */
  articleFaults: ArticleFaultMemory;
  /**
   * Used only by the `webdav-lock` variant: the locks held, by resource (`collection`, `item:<id>`). Kept in this
   * process only (not journaled, not shared by a cluster's instances).
   */
  locks: Map<string, WebDavLock>;
}

/** A lock taken by LOCK under the `webdav-lock` variant: its token (`urn:uuid:…`) and the path LOCK named. */
export interface WebDavLock {
  token: string;
  root: string;
}

/**
 * What some article faults remember between requests, written only while they are switched on; each memory keeps
 * a bounded number of entries, the oldest dropped first (routes/articles.ts).
 */
export interface ArticleFaultMemory {
  /** `delete-then-put-resurrects`, `put-after-delete-200`: deleted articles by store key, until a PUT creates there again. */
  tombstones: Map<string, Article>;
  /** `post-reuses-deleted-id`: ids of deleted articles, the latest last. */
  deletedIds: string[];
  /** `alias-diverges-after-replace`: the copy the alias `/article/<id>` serves, by id. */
  aliasCopies: Map<string, Article>;
}

/** {@link ServerState} held in memory and shared by every listener of one server (what `createState` makes). */
export interface LocalState extends ServerState {
  store: ArticleStore;
  nonces: NonceStore;
  oauth2: LocalOAuth2State;
  oauth1: LocalOAuth1State;
}
