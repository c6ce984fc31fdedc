/**
 * The reference server's state, the dependencies of its handlers, and the seams the faults use: the rules the
 * handlers read, the rewrite of answers and the named hooks. The leaf records are in records.ts. (One module:
 * these types refer to each other — a route's handlers take the deps, the deps carry rules about routes.)
 */
import type { AuthRules } from './auth/rules.js';
import type { NonceStore } from './auth/nonces.js';
import type { UserAccount } from './auth/users.js';
import type { Identity, PendingNonce, Verification } from './auth/verification.js';
import type { FaultName } from './faults/registry.js';
import type { VariantName } from './variants.js';
import type { OAuth1Rules } from './oauth1/rules.js';
import type { OAuth2Rules } from './oauth2/rules.js';
import type { LocalOAuth1State, LocalOAuth2State, OAuth1State, OAuth2State } from './oauth/state.js';
import type { Limits, Method, RequestRecord, ResponseRecord } from './records.js';
import type { ArticleRules } from './routes/rules.js';
import type { ArticleStore } from './store/articles.js';
import type { Articles, Nonces } from './store/interfaces.js';

/** Injected effects (the clock, the id source), the switched-on variants and faults, and what the faults change. */
export interface HandlerDeps {
  now: () => Date;
  newId: () => string;
  /**
   * Random bytes for credentials and UUIDs. Default: `node:crypto` randomBytes. The shared store replays one
   * request's draws when it runs the request again (store/redis/shared-handler.ts), so a pass is a function of its input.
   */
  random?: (size: number) => Buffer;
  /** Open points of the spec chosen differently from the default (variants.ts); empty for the default server. */
  variants: ReadonlySet<VariantName>;
  /** The faults switched on, by name. What they do is below, made from these names once (`faultKit`, faults/). */
  faults: ReadonlySet<FaultName>;
  /** The rules the handlers follow. Default: {@link RULES} (rules.ts), the correct ones. */
  rules?: Rules;
  /** Rewrites every answer before it is framed (faults only). Default: none. */
  rewrite?: AnswerRewrite;
  /** Named hooks into the handlers (faults only). Default: none. */
  hooks?: FaultHooks;
}

/** Whether PUT and POST signatures cover the body hash: always, never, or either way ({@link AuthSettings}). */
export type BodyHashMode = boolean | 'optional';

/** Authentication settings: the accounts, the Date window and whether PUT/POST signatures cover the body. */
export interface AuthSettings {
  users: ReadonlyMap<string, UserAccount>;
  /** Accepted clock difference of a signed Date, seconds, both directions. */
  window: number;
  /**
   * PUT and POST signatures must include the body hash (docs/auth.md): `true`; never: `false`; `'optional'`: a
   * signature with it and one without are both accepted (§5.2 rule 6: extra data "may be added"; `conform
   * check-client`'s default, so a client is judged by the spec's words rather than by one server's choice).
   */
  bodyHash: BodyHashMode;
}

/**
 * The state a request is handled against: articles, nonces (§5.2 and OAuth 1 alike), OAuth clients and issued
 * credentials. The stores are interfaces: in memory by default ({@link LocalState}), or views of the shared store
 * of a cluster (store/redis/views.ts).
 */
export interface ServerState {
  store: Articles;
  limits: Limits;
  auth: AuthSettings;
  nonces: Nonces;
  oauth2: OAuth2State;
  oauth1: OAuth1State;
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

/** {@link ServerState} held in memory and shared by every listener of one server (what `createState` makes). */
export interface LocalState extends ServerState {
  store: ArticleStore;
  nonces: NonceStore;
  oauth2: LocalOAuth2State;
  oauth1: LocalOAuth1State;
}

/** Everything a handler may use: the request, the mutable state and the injected effects. */
export interface HandlerContext {
  req: RequestRecord;
  state: ServerState;
  deps: HandlerDeps;
}

/** Answers one method on one matched resource. */
export type Handler = (ctx: HandlerContext) => ResponseRecord;

/** Kinds of resources, one per path shape. */
export type RouteKind = 'collection' | 'item' | 'root' | 'records' | 'unknown';

/** A resource matched from a path, with its handlers bound to the path's parameters. */
export interface Route {
  kind: RouteKind;
  /** Methods the resource handles, in the order `Allow` lists them (OPTIONS included, answered generically). */
  methods: readonly Method[];
  /** Methods that change state: they need credentials, and `Allow` leaves them out for anonymous requests. */
  writes: readonly Method[];
  /** Methods that need credentials: the writes, plus GET and HEAD on protected documents. */
  guarded: readonly Method[];
  /** For owner-only resources: the user allowed to read it (others authenticated get 403). */
  owner?: string;
  /** Status for a known method the resource does not handle: 405 for real resources, 404 for unknown paths. */
  unlisted: 404 | 405;
  handlers: Partial<Record<Method, Handler>>;
  /** For article items: the id in the path (the same for `/articles/<id>` and its alias). */
  id?: string;
  /** For article items: whether an article is stored at the path. */
  exists?: (ctx: HandlerContext) => boolean;
}

/** Who may do what to a route: the `Allow` list and the owner check. */
export interface AccessRules {
  /** The route a path's requests are handled by: as matched. */
  route(route: Route): Route;
  /** The `Allow` list of a route: `listed`, what the route handles minus the writes for an anonymous requester. */
  allow(route: Route, authenticated: boolean, listed: Method[]): Method[];
  /** Whether an owner-only resource is refused (403) to another user making this request: always. */
  ownerOnly(req: RequestRecord): boolean;
}

/** Which schemes and endpoints refuse plain HTTP (docs/auth.md, docs/oauth.md): all of these. */
export interface TlsOnly {
  basic: boolean;
  bearer: boolean;
  /** OAuth 1 credentials on resources. */
  oauth1: boolean;
  /** The OAuth 1 temporary-credential endpoint. */
  oauth1Temporary: boolean;
  /** The OAuth 1 token endpoint. */
  oauth1Token: boolean;
}

/** Every setting and strategy the handlers read: what the spec and its RFCs ask, unless faults patched it. */
export interface Rules {
  tlsOnly: TlsOnly;
  auth: AuthRules;
  oauth2: OAuth2Rules;
  oauth1: OAuth1Rules;
  articles: ArticleRules;
  access: AccessRules;
}

/** Where an answer comes from: the handler, or the IO shell for a request node's parser refused (unknown methods). */
export interface AnswerContext {
  state: ServerState;
  deps: HandlerDeps;
  origin: 'handler' | 'parser';
}

/** A rewrite of an answer once the handler has given it, before it is framed (content length, HEAD). */
export type AnswerRewrite = (req: RequestRecord, res: ResponseRecord, ctx: AnswerContext) => ResponseRecord;

/** `handle` or a hook around it, as `handleAsync` runs it. */
export type Serve = (
  req: RequestRecord,
  state: ServerState,
  deps: HandlerDeps,
) => ResponseRecord | Promise<ResponseRecord>;

/** One call of an article handler: its method, and for an item its store key, id and path form. */
export interface ArticleCall {
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE' | 'POST';
  /** Store key of the item (absent for POST to the collection). */
  key?: string;
  id?: string;
  /** `/articles/<id>` (plural) or its alias `/article/<id>` (singular). */
  form?: 'plural' | 'singular';
}

/** A write about to be refused for want of credentials: the route's kind, the handler, whether the article exists. */
export interface RefusedWrite {
  kind: RouteKind;
  method: Method;
  handler: Handler;
  exists: () => boolean;
}

/**
 * The places where the faults that change the course of a request (not only its settings or its answer) step in;
 * each is called from one place. The correct server sets none.
 */
export interface FaultHooks {
  /** Around the whole request as `handleAsync` serves it (races, writes finished later). */
  served?(req: RequestRecord, state: ServerState, deps: HandlerDeps, next: Serve): Promise<ResponseRecord>;
  /** After the identity of a request is known; may answer with another (per-connection or per-cookie memory). */
  identified?(req: RequestRecord, verification: Verification, identity: Identity): Identity;
  /** After the digest of a date-and-nonce request was checked, before its nonce is spent (the order of the two). */
  digestChecked?(verification: Verification, nonce: PendingNonce, nonces: Nonces, nowMs: number): Verification;
  /** A write refused for want of credentials: an answer instead of the refusal, or undefined to refuse. */
  unauthorizedWrite?(ctx: HandlerContext, write: RefusedWrite): ResponseRecord | undefined;
  /** Around each article handler (how writes reach the store, what the server remembers of them). */
  article?(ctx: HandlerContext, call: ArticleCall, next: Handler): ResponseRecord;
  /** The id a POST creates its article at, or undefined for a fresh one. */
  postId?(ctx: HandlerContext): string | undefined;
}
