import { forbidden, nonceStoreFull, unauthorized } from './auth/challenge.js';
import type { Refusal } from './auth/challenge.js';
import { authenticate } from './auth/identity.js';
import type { Identity } from './auth/identity.js';
import { NonceStore } from './auth/nonces.js';
import { DEFAULT_USERS, userTable } from './auth/users.js';
import type { UserAccount } from './auth/users.js';
import { DEFAULT_OAUTH1_CONSUMERS } from './oauth/accounts.js';
import { createOAuthState } from './oauth/state.js';
import type { OAuthOptions } from './oauth/state.js';
import { TEXT_XML_TYPE, XML_TYPE, byteLength, errorFormat, problem, unknownMethod } from './responses.js';
import { oauthAllow, oauthEndpoint } from './routes/oauth.js';
import { matchRoute } from './routes/table.js';
import { rulesOf } from './rules.js';
import { ArticleStore } from './store/articles.js';
import type { ChangeListener } from './store/changes.js';
import { isKnownMethod } from './records.js';
import { hostProblem } from './request.js';
import type { Limits, Method, RequestRecord, ResponseRecord } from './records.js';
import type { BodyHashMode, HandlerContext, HandlerDeps, LocalState, Route, ServerState } from './types.js';

/** Authentication settings of {@link createState} (OAuth ones included); every field is optional. */
export interface ServerAuthOptions extends OAuthOptions {
  /** Accounts. Default: {@link DEFAULT_USERS} (alice, bob, carol). */
  users?: readonly UserAccount[];
  /** Accepted clock difference of a signed Date, seconds. Default: 600. */
  window?: number;
  /** PUT and POST signatures must include the body hash. Default: true. */
  bodyHash?: BodyHashMode;
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
export function createState(limits: Limits, auth: ServerAuthOptions = {}, listener?: ChangeListener): LocalState {
  const users = userTable(auth.users ?? DEFAULT_USERS);
  const capacity = auth.nonceCapacity ?? 1_000_000;
  return {
    store: new ArticleStore(limits.maxArticles, listener),
    limits,
    auth: { users, window: auth.window ?? 600, bodyHash: auth.bodyHash ?? true },
    nonces: new NonceStore(
      capacity,
      listener,
      auth.nonceShare ?? evenShare(capacity, users.size + (auth.oauth1Consumers ?? DEFAULT_OAUTH1_CONSUMERS).length),
    ),
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
 * The answer goes through `deps.rewrite` (faults only), then gets `content-length` on every response that may
 * carry one, and loses its body for HEAD.
 */
export function handle(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const answer = answerOf(req, state, deps);
  return finish(
    req,
    deps.rewrite === undefined ? answer : deps.rewrite(req, answer, { state, deps, origin: 'handler' }),
    deps,
  );
}

function answerOf(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const badHost = hostProblem(req);
  if (badHost !== undefined) return errorFormat(problem(400, badHost), deps.variants);
  if (
    deps.variants.has('get-content-refused') &&
    (req.method === 'GET' || req.method === 'HEAD') &&
    req.body.byteLength > 0
  )
    return errorFormat(
      problem(400, `${req.method} requests carry no content here: RFC 9110 §9.3.1 gives it no meaning`),
      deps.variants,
    );
  const endpoint = oauthEndpoint(req.path);
  if (endpoint !== undefined)
    return errorFormat(
      guarded(() => endpoint(req, state, deps)),
      deps.variants,
    );
  return respond(req, state, deps);
}

/**
 * {@link handle} for the socket wiring: the same answer, through the faults' `served` hook when there is one (a
 * race between requests, a write finished after a wait of 0–9 ms); the answer is returned only after that write.
 */
export async function handleAsync(req: RequestRecord, state: ServerState, deps: HandlerDeps): Promise<ResponseRecord> {
  const served = deps.hooks?.served;
  return served === undefined ? handle(req, state, deps) : served(req, state, deps, handle);
}

/**
 * The `Allow` list of a route, as OPTIONS and 405 report it: every method when `authenticated` (or under the
 * `allow-same-for-all` variant), else without the write methods.
 */
export function allowedMethods(route: Route, deps: HandlerDeps, authenticated: boolean): Method[] {
  const full = authenticated || deps.variants.has('allow-same-for-all');
  return rulesOf(deps).access.allow(
    route,
    authenticated,
    route.methods.filter((m) => full || !route.writes.includes(m)),
  );
}

/**
 * The answer to a request whose method token node's HTTP parser does not know (so it never reaches
 * {@link handle}): the {@link unknownMethod} 405 with the `Allow` an unauthenticated OPTIONS of `path` gets.
 */
export function unparsedMethodResponse(
  method: string,
  path: string,
  state: ServerState,
  deps: HandlerDeps,
): ResponseRecord {
  const allow =
    oauthAllow(path, deps.variants) ?? allowedMethods(matchRoute(path, deps.variants), deps, false).join(', ');
  const answer = unknownMethod(method, path, allow);
  if (deps.rewrite === undefined) return answer;
  const req: RequestRecord = { method, path, query: '', headers: {}, body: new Uint8Array(), secure: false };
  return deps.rewrite(req, answer, { state, deps, origin: 'parser' });
}

function guarded(answer: () => ResponseRecord): ResponseRecord {
  try {
    return answer();
  } catch {
    return problem(500, 'unexpected error while handling the request');
  }
}

function respond(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  let response: ResponseRecord;
  try {
    response = dispatch(req, state, deps, authenticate(req, state, deps));
  } catch {
    response = problem(500, 'unexpected error while handling the request');
  }
  return errorFormat(response, deps.variants);
}

function dispatch(req: RequestRecord, state: ServerState, deps: HandlerDeps, identity: Identity): ResponseRecord {
  if (identity.kind === 'unavailable') return nonceStoreFull(identity.retryAfterSeconds);
  const route = rulesOf(deps).access.route(matchRoute(req.path, deps.variants));
  const user = identity.kind === 'user' ? identity.user : undefined;
  const allow = allowedMethods(route, deps, user !== undefined);
  const method = routeMethod(req.method, route);
  if (method === undefined) return unknownMethod(req.method, req.path, allow.join(', '));
  if (method === 'OPTIONS' && route.methods.includes('OPTIONS'))
    return { status: 200, headers: { allow: allow.join(', ') } };
  const handler = allow.includes(method) ? route.handlers[method] : undefined;
  const refusal = identity.kind === 'anonymous' ? identity : undefined;
  const ctx: HandlerContext = { req, state, deps };
  if (handler) {
    if (!route.guarded.includes(method)) return handler(ctx);
    if (user === undefined) return refuseWrite(route, method, ctx, refusal);
    if (
      route.owner !== undefined &&
      route.owner !== user &&
      state.auth.users.has(route.owner) &&
      rulesOf(deps).access.ownerOnly(req)
    ) {
      return forbidden(req, user);
    }
    return handler(ctx);
  }
  if (user === undefined && route.writes.includes(method)) return refuseWrite(route, method, ctx, refusal);
  if (route.unlisted === 404) return problem(404, `nothing at ${req.path}`);
  return problem(405, `${method} is not allowed on ${req.path}; allowed: ${allow.join(', ')}`, {
    headers: { allow: allow.join(', ') },
  });
}

/**
 * `token` as a method of `route`: one of the known methods, or one the route itself handles (LOCK and UNLOCK under the
 * webdav-lock variant); undefined for a method this server does not implement there.
 */
function routeMethod(token: string, route: Route): Method | undefined {
  if (isKnownMethod(token)) return token;
  return route.methods.find((m) => m === token);
}

/**
 * The refusal of a request without valid credentials where it needs them (401, or 400/403 under the refusal
 * variants). An article write goes through the faults' `unauthorizedWrite` hook first, which may answer instead.
 */
function refuseWrite(route: Route, method: Method, ctx: HandlerContext, refusal: Refusal | undefined): ResponseRecord {
  const handler = route.kind === 'item' || route.kind === 'collection' ? route.handlers[method] : undefined;
  const write =
    handler === undefined
      ? undefined
      : { kind: route.kind, method, handler, exists: () => route.exists?.(ctx) === true };
  return (
    (write && ctx.deps.hooks?.unauthorizedWrite?.(ctx, write)) ?? unauthorized(ctx.req, refusal, ctx.deps.variants)
  );
}

function finish(req: RequestRecord, response: ResponseRecord, deps: HandlerDeps): ResponseRecord {
  const headers = { ...response.headers };
  if (deps.variants.has('media-type-text-xml') && headers['content-type'] === XML_TYPE)
    headers['content-type'] = TEXT_XML_TYPE;
  if (response.status === 204 || response.status === 304 || response.status < 200) {
    delete headers['content-length'];
    return { status: response.status, headers };
  }
  headers['content-length'] = String(byteLength(response.body));
  if (req.method === 'HEAD' || response.body === undefined) return { status: response.status, headers };
  return { status: response.status, headers, body: response.body };
}
