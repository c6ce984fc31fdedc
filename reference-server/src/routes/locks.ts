/**
 * The `webdav-lock` variant: a WebDAV-flavoured server (RFC 4918) whose article collection and items handle LOCK
 * and UNLOCK. A LOCK really locks — an exclusive write lock, with no timeout — so that a harness sending LOCK with
 * effect is seen to have done so: from then on every write of the locked resource answers `423 Locked` until an
 * UNLOCK with its token. A lock on the collection covers POST to it and every write of its items (depth infinity).
 * A LOCK (or UNLOCK) under an `If-Match` that cannot hold answers `412` and changes nothing (RFC 9110 §13.1.1): this
 * server has no entity-tags, so only `*` on an existing resource matches.
 */
import { randomUuid } from '../oauth/state.js';
import { XML_TYPE, problem } from '../responses.js';
import type { Method, ResponseRecord } from '../records.js';
import { escapeAttribute } from '../xml/article.js';
import type { Handler, HandlerContext, Route, ServerState } from '../types.js';

/** Lock key of the article collection. */
const COLLECTION = 'collection';

/** Lock key of the article item `id` (its path form does not matter: the alias is the same resource). */
function itemKey(id: string): string {
  return `item:${id}`;
}

/** The route with LOCK and UNLOCK added (before OPTIONS, as writes) and its writes refused with 423 while locked. */
export function withLocks(route: Route): Route {
  if (route.kind !== 'collection' && !(route.kind === 'item' && route.id !== undefined)) return route;
  const own = route.kind === 'collection' ? COLLECTION : itemKey(route.id ?? '');
  // A write is blocked by a lock on the resource itself or, for an item, on its collection.
  const covering = route.kind === 'collection' ? [COLLECTION] : [COLLECTION, own];
  const exists = (ctx: HandlerContext) => route.kind === 'collection' || route.exists?.(ctx) === true;
  const handlers: Partial<Record<Method, Handler>> = { ...route.handlers };
  for (const method of ['PUT', 'POST', 'DELETE'] as const) {
    const write = route.handlers[method];
    if (write !== undefined) handlers[method] = guarded(write, covering);
  }
  handlers.LOCK = (ctx) => lock(ctx, own, covering, exists(ctx));
  handlers.UNLOCK = (ctx) => unlock(ctx, covering, exists(ctx));
  const before = (list: readonly Method[]): Method[] => {
    const at = list.indexOf('OPTIONS');
    return at < 0 ? [...list, 'LOCK', 'UNLOCK'] : [...list.slice(0, at), 'LOCK', 'UNLOCK', ...list.slice(at)];
  };
  return {
    ...route,
    methods: before(route.methods),
    writes: [...route.writes, 'LOCK', 'UNLOCK'],
    guarded: [...route.guarded, 'LOCK', 'UNLOCK'],
    handlers,
  };
}

/** `write`, unless one of the `covering` locks is held: then 423. */
function guarded(write: Handler, covering: readonly string[]): Handler {
  return (ctx) => {
    const held = heldLock(ctx.state, covering);
    if (held !== undefined) return locked(ctx, held.root);
    return write(ctx);
  };
}

function heldLock(state: ServerState, keys: readonly string[]): { root: string } | undefined {
  for (const key of keys) {
    const held = state.locks.get(key);
    if (held !== undefined) return held;
  }
  return undefined;
}

function locked(ctx: HandlerContext, root: string): ResponseRecord {
  return problem(423, `${ctx.req.path} is locked (lock on ${root}); UNLOCK it with its Lock-Token first`);
}

/**
 * True when the request's `If-Match` cannot hold (RFC 9110 §13.1.1): present, and not `*` on an existing resource.
 * This server has no entity-tags, so no tag matches.
 */
function preconditionFails(ctx: HandlerContext, exists: boolean): boolean {
  const raw = ctx.req.headers['if-match'];
  if (raw === undefined) return false;
  const members = (Array.isArray(raw) ? raw.join(',') : raw).split(',').map((m) => m.trim());
  return !(exists && members.includes('*'));
}

/**
 * LOCK (RFC 4918 §9.10): 404 for an item with no article, 412 under an `If-Match` that cannot hold, 423 when a lock
 * already covers the resource (for the collection: any lock at all, since its lock covers every item), else an
 * exclusive write lock with no timeout: 200, a `lockdiscovery` body and `Lock-Token`. The request body is not read.
 */
function lock(ctx: HandlerContext, own: string, covering: readonly string[], exists: boolean): ResponseRecord {
  if (!exists) return problem(404, `no article at ${ctx.req.path}`);
  if (preconditionFails(ctx, exists))
    return problem(412, `If-Match does not hold for ${ctx.req.path}; nothing was locked`);
  const held = own === COLLECTION ? ctx.state.locks.values().next().value : heldLock(ctx.state, covering);
  if (held !== undefined) return locked(ctx, held.root);
  const token = `urn:uuid:${randomUuid(ctx.deps.random)}`;
  ctx.state.locks.set(own, { token, root: ctx.req.path });
  const depth = own === COLLECTION ? 'infinity' : '0';
  const body =
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<D:prop xmlns:D="DAV:"><D:lockdiscovery><D:activelock>' +
    '<D:locktype><D:write/></D:locktype><D:lockscope><D:exclusive/></D:lockscope>' +
    `<D:depth>${depth}</D:depth><D:timeout>Infinite</D:timeout>` +
    `<D:locktoken><D:href>${token}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeAttribute(ctx.req.path)}</D:href></D:lockroot>` +
    '</D:activelock></D:lockdiscovery></D:prop>';
  return { status: 200, headers: { 'content-type': XML_TYPE, 'lock-token': `<${token}>` }, body };
}

/**
 * UNLOCK (RFC 4918 §9.11): 404 for an item with no article, 412 under an `If-Match` that cannot hold, 400 without a
 * `Lock-Token` (`<urn:uuid:…>`), 409 when the token is not that of a lock covering the resource; else the lock is
 * released: 204.
 */
function unlock(ctx: HandlerContext, covering: readonly string[], exists: boolean): ResponseRecord {
  if (!exists) return problem(404, `no article at ${ctx.req.path}`);
  if (preconditionFails(ctx, exists))
    return problem(412, `If-Match does not hold for ${ctx.req.path}; nothing was unlocked`);
  const raw = ctx.req.headers['lock-token'];
  const sent = typeof raw === 'string' ? /^\s*<([^<>]+)>\s*$/.exec(raw)?.[1] : undefined;
  if (sent === undefined) return problem(400, 'UNLOCK needs one Lock-Token header: <urn:uuid:…>, as LOCK answered it');
  const key = covering.find((k) => ctx.state.locks.get(k)?.token === sent);
  if (key === undefined) return problem(409, `${sent} is not the token of a lock on ${ctx.req.path}`);
  ctx.state.locks.delete(key);
  return { status: 204, headers: {} };
}
