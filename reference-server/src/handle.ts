import { forbidden, nonceStoreFull, unauthorized } from './auth/challenge.js';
import type { Refusal } from './auth/challenge.js';
import { authenticate, authenticateRacy } from './auth/identity.js';
import type { Identity } from './auth/identity.js';
import { SessionTable } from './auth/memory.js';
import { NonceStore } from './auth/nonces.js';
import { DEFAULT_USERS, userTable } from './auth/users.js';
import type { UserAccount } from './auth/users.js';
import { DEFAULT_OAUTH1_CONSUMERS } from './oauth/accounts.js';
import { createOAuthState } from './oauth/state.js';
import type { OAuthOptions } from './oauth/state.js';
import { TEXT_XML_TYPE, XML_TYPE, byteLength, errorFormat, problem, unknownMethod } from './responses.js';
import { oauthAllow, oauthEndpoint } from './routes/oauth.js';
import { takeDeferredWrite } from './routes/deferred.js';
import { matchRoute } from './routes/table.js';
import type { HandlerContext, Route } from './routes/route.js';
import { ArticleStore } from './store/articles.js';
import type { ChangeListener } from './store/changes.js';
import { isKnownMethod } from './records.js';
import { hostProblem } from './request.js';
import type { HeaderMap, Limits, Method, RequestRecord, ResponseRecord } from './records.js';
import type { HandlerDeps, LocalState, ServerState } from './types.js';

/** Authentication settings of {@link createState} (OAuth ones included); every field is optional. */
export interface AuthOptions extends OAuthOptions {
  /** Accounts. Default: {@link DEFAULT_USERS} (alice, bob, carol). */
  users?: readonly UserAccount[];
  /** Accepted clock difference of a signed Date, seconds. Default: 600. */
  window?: number;
  /** PUT and POST signatures must include the body hash. Default: true. */
  bodyHash?: boolean;
  /** Most nonces remembered at once (all users); beyond it signed-with-nonce requests get 503. Default: 1,000,000. */
  nonceCapacity?: number;
  /**
   * Most nonces remembered at once for one user (or one OAuth 1 consumer); beyond it that user's signed-with-nonce
   * requests get 503 and nobody else's. Default: the capacity shared out evenly among the users and consumers.
   */
  nonceShare?: number;
}

/**
 * Creates empty server state with the given limits and authentication settings. `listener` is told every durable
 * change (articles, nonces) as it is made: the journal of `--data`.
 * @throws {InvalidUserError} for an unusable account name.
 * @throws {InvalidOAuthClientError} for an empty or repeated OAuth client id or consumer key.
 * @throws {RangeError} for a `tokenTtl` or `tokenCapacity` that is not a positive integer.
 */
export function createState(limits: Limits, auth: AuthOptions = {}, listener?: ChangeListener): LocalState {
  const users = userTable(auth.users ?? DEFAULT_USERS);
  const capacity = auth.nonceCapacity ?? 1_000_000;
  return {
    store: new ArticleStore(limits.maxArticles, listener),
    limits,
    auth: { users, window: auth.window ?? 600, bodyHash: auth.bodyHash ?? true },
    nonces: new NonceStore(capacity, listener, auth.nonceShare ?? evenShare(capacity, users.size + (auth.oauth1Consumers ?? DEFAULT_OAUTH1_CONSUMERS).length)),
    sessions: new SessionTable(),
    articleFaults: { tombstones: new Map(), deletedIds: [], aliasCopies: new Map() },
    locks: new Map(),
    ...createOAuthState(auth),
  };
}

/** `capacity` shared out among `holders` credential holders (each at least 1). */
export function evenShare(capacity: number, holders: number): number {
  return Math.max(1, Math.floor(capacity / Math.max(1, holders)));
}

/**
 * Answers one request. A request with more than one Host field or an invalid one gets 400 (RFC 9112 §3.2). The OAuth endpoints (`/oauth2/token`, `/oauth2/revoke`, `/oauth1/request_token`,
 * `/oauth1/authorize`, `/oauth1/access_token`) authenticate their callers themselves; every other path goes through
 * authentication (credentials verified, nonce consumed in the same synchronous step), routing by path shape,
 * 405 with `Allow` for methods the server does not implement at all, OPTIONS and 405/404 generically, access rules (401, 403), then the
 * route's handler. Pure apart from the state mutation; never throws (an unexpected error becomes a 500 problem).
 * Sets `content-length` on every response that may carry one, and drops the body of HEAD responses.
 */
export function handle(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const response = handleNow(req, state, deps);
  takeDeferredWrite(req)?.();
  return response;
}

function handleNow(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const badHost = hostProblem(req);
  if (badHost !== undefined) return finish(req, errorFormat(problem(400, badHost), deps.variants));
  const endpoint = oauthEndpoint(req.path);
  if (endpoint !== undefined) return finish(req, errorFormat(guarded(() => endpoint(req, state, deps)), deps.variants));
  return respond(req, state, deps, () => authenticate(req, state, deps));
}

/**
 * {@link handle} for the socket wiring. The same as `handle` (synchronous inside) except under the `nonce-race`
 * fault, whose nonce check and store are separated by a macrotask, and the `put-non-atomic` and `lost-update`
 * faults, whose deferred write (the second write of a replace; the rewrite of the whole store) comes after a timer
 * of 0–9 ms. The answer is returned only after that write.
 */
export async function handleAsync(req: RequestRecord, state: ServerState, deps: HandlerDeps): Promise<ResponseRecord> {
  const response = await handleRacy(req, state, deps);
  const rest = takeDeferredWrite(req);
  if (rest !== undefined) {
    await new Promise<void>((resolve) => setTimeout(resolve, Math.floor(Math.random() * 10)));
    rest();
  }
  return response;
}

async function handleRacy(req: RequestRecord, state: ServerState, deps: HandlerDeps): Promise<ResponseRecord> {
  if (!deps.faults.has('nonce-race') || oauthEndpoint(req.path) !== undefined || hostProblem(req) !== undefined) return handleNow(req, state, deps);
  let identity: Identity;
  try {
    identity = await authenticateRacy(req, state, deps);
  } catch {
    return finish(req, errorFormat(problem(500, 'unexpected error while authenticating the request'), deps.variants));
  }
  return respond(req, state, deps, () => identity);
}

/**
 * The `Allow` list of a route, as OPTIONS and 405 report it: every method when `authenticated`, else without
 * the write methods (unless `allow-ignores-auth`).
 */
export function allowedMethods(route: Route, deps: HandlerDeps, authenticated: boolean): Method[] {
  const full = authenticated || deps.faults.has('allow-ignores-auth') || deps.variants.has('allow-same-for-all');
  const methods = route.methods.filter((m) => full || !route.writes.includes(m));
  const article = route.kind === 'item' || route.kind === 'collection';
  if (article && deps.faults.has('options-extra-method')) methods.splice(methods.indexOf('OPTIONS'), 0, 'PATCH');
  if (!authenticated && route.kind === 'item' && deps.faults.has('allow-anonymous-extra') && !methods.includes('PATCH')) methods.splice(methods.indexOf('OPTIONS'), 0, 'PATCH');
  return methods;
}

/**
 * The answer to a request whose method token node's HTTP parser does not know (so it never reaches
 * {@link handle}): the {@link unknownMethod} 405 with the `Allow` an unauthenticated OPTIONS of `path` gets.
 */
export function unparsedMethodResponse(method: string, path: string, deps: HandlerDeps): ResponseRecord {
  const allow = oauthAllow(path, deps.variants) ?? allowedMethods(matchRoute(path, deps.variants), deps, false).join(', ');
  return unknownMethod(method, path, deps.faults.has('method-405-no-allow') ? undefined : allow);
}

function guarded(answer: () => ResponseRecord): ResponseRecord {
  try {
    return answer();
  } catch {
    return problem(500, 'unexpected error while handling the request');
  }
}

function respond(req: RequestRecord, state: ServerState, deps: HandlerDeps, identify: () => Identity): ResponseRecord {
  let response: ResponseRecord;
  try {
    const identity = identify();
    response = dispatch(req, state, deps, identity);
    if (identity.kind === 'user' && identity.setCookie !== undefined) {
      response = { ...response, headers: { ...response.headers, 'set-cookie': identity.setCookie } };
    }
  } catch {
    response = problem(500, 'unexpected error while handling the request');
  }
  return finish(req, errorFormat(response, deps.variants), deps);
}

function dispatch(req: RequestRecord, state: ServerState, deps: HandlerDeps, identity: Identity): ResponseRecord {
  if (identity.kind === 'unavailable') return nonceStoreFull(identity.retryAfterSeconds);
  const route = withAllowFaults(matchRoute(req.path, deps.variants), req, deps);
  const user = identity.kind === 'user' ? identity.user : undefined;
  const allow = allowedMethods(route, deps, user !== undefined);
  const method = routeMethod(req.method, route);
  if (method === undefined) return unknownMethod(req.method, req.path, deps.faults.has('method-405-no-allow') ? undefined : allow.join(', '));
  if (method === 'OPTIONS' && route.methods.includes('OPTIONS')) return options(allow, deps);
  const handler = allow.includes(method) ? route.handlers[method] : undefined;
  const refusal = identity.kind === 'anonymous' ? identity : undefined;
  if (user === undefined && openWrite(route, method, { req, state, deps })) return route.handlers[method]!({ req, state, deps });
  if (handler) {
    if (!route.guarded.includes(method)) return handler({ req, state, deps });
    if (user === undefined) return refuseWrite(route, method, { req, state, deps }, refusal);
    if (deps.faults.has('root-refuses-basic') && req.path === '/' && /^\s*basic\b/i.test(String(req.headers['authorization'] ?? ''))) {
      return unauthorized(req, { reason: 'Basic credentials do not open /' }, deps.faults, deps.variants);
    }
    const ownerChecked = !deps.faults.has('records-any-user') && (!deps.faults.has('records-owner-hmac-only') || req.headers['authentication'] !== undefined);
    if (route.owner !== undefined && route.owner !== user && state.auth.users.has(route.owner) && ownerChecked) {
      return forbidden(req, user);
    }
    return handler({ req, state, deps });
  }
  if (user === undefined && route.writes.includes(method)) return refuseWrite(route, method, { req, state, deps }, refusal);
  if (route.unlisted === 404) return problem(404, `nothing at ${req.path}`);
  if (deps.faults.has('unlisted-method-200')) return { status: 200, headers: {} };
  const headers: HeaderMap = deps.faults.has('method-405-no-allow') ? {} : { allow: allow.join(', ') };
  return problem(405, `${method} is not allowed on ${req.path}; allowed: ${allow.join(', ')}`, { headers });
}

/**
 * `token` as a method of `route`: one of the known methods, or one the route itself handles (LOCK and UNLOCK under the
 * webdav-lock variant); undefined for a method this server does not implement there.
 */
function routeMethod(token: string, route: Route): Method | undefined {
  if (isKnownMethod(token)) return token;
  return route.methods.find((m) => m === token);
}

/** Under `delete-without-auth` and `replace-without-auth`: an article write that goes through without credentials. */
function openWrite(route: Route, method: Method, ctx: HandlerContext): boolean {
  if (route.kind !== 'item' || route.handlers[method] === undefined) return false;
  const { faults } = ctx.deps;
  if (method === 'DELETE') return faults.has('delete-without-auth');
  return method === 'PUT' && faults.has('replace-without-auth') && route.exists?.(ctx) === true;
}

/** The refusal of a write without valid credentials; under `refused-write-applied`, an article write is applied first. */
function refuseWrite(route: Route, method: Method, ctx: HandlerContext, refusal: Refusal | undefined): ResponseRecord {
  const article = route.kind === 'item' || route.kind === 'collection';
  if (article && ctx.deps.faults.has('refused-write-applied')) route.handlers[method]?.(ctx);
  return unauthorized(ctx.req, refusal, ctx.deps.faults, ctx.deps.variants);
}

/** The `allow-*` faults: a route whose `Allow` lists a method it does not really handle. */
function withAllowFaults(route: Route, req: RequestRecord, deps: HandlerDeps): Route {
  const f = deps.faults;
  const add = (method: Method, write: boolean, handler?: Route['handlers'][Method]): Route => {
    const at = route.methods.indexOf('OPTIONS');
    const methods = [...route.methods.slice(0, at), method, ...route.methods.slice(at)];
    return {
      ...route,
      methods,
      writes: write ? [...route.writes, method] : route.writes,
      guarded: write ? [...route.guarded, method] : route.guarded,
      handlers: handler ? { ...route.handlers, [method]: handler } : route.handlers,
    };
  };
  if (route.kind === 'item' && f.has('allow-method-401')) return add('PATCH', true, () => unauthorized(req, undefined, f, deps.variants));
  if (route.kind === 'collection' && f.has('allow-lists-unhandled-delete-on-collection')) return add('DELETE', true);
  if (route.kind === 'records' && f.has('allow-method-500')) return add('DELETE', true, () => problem(500, 'unexpected error while deleting the records'));
  if (route.kind === 'root' && f.has('root-allow-lies')) return add('PUT', false);
  return route;
}

function options(allow: readonly Method[], deps: HandlerDeps): ResponseRecord {
  const status = deps.faults.has('options-204') ? 204 : 200;
  return { status, headers: deps.faults.has('options-no-allow') ? {} : { allow: allow.join(', ') } };
}

function finish(req: RequestRecord, response: ResponseRecord, deps?: HandlerDeps): ResponseRecord {
  const headers = { ...response.headers };
  if (deps?.variants.has('media-type-text-xml') && headers['content-type'] === XML_TYPE) headers['content-type'] = TEXT_XML_TYPE;
  if (response.status === 204 || response.status === 304 || response.status < 200) {
    delete headers['content-length'];
    return { status: response.status, headers };
  }
  headers['content-length'] = String(byteLength(response.body));
  if (req.method === 'HEAD' || response.body === undefined) return { status: response.status, headers };
  return { status: response.status, headers, body: response.body };
}
