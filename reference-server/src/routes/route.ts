import type { Method, RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';

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
  /** For article items: whether an article is stored at the path (the `replace-without-auth` fault asks). */
  exists?: (ctx: HandlerContext) => boolean;
}
