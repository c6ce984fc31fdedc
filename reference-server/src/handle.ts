import { byteLength, problem } from './responses.js';
import { matchRoute } from './routes/table.js';
import type { Route } from './routes/route.js';
import { ArticleStore } from './store/articles.js';
import { isKnownMethod } from './types.js';
import type { HandlerDeps, HeaderMap, Limits, Method, RequestRecord, ResponseRecord, ServerState } from './types.js';

/** Creates empty server state with the given limits. */
export function createState(limits: Limits): ServerState {
  return { store: new ArticleStore(limits.maxArticles), limits };
}

/**
 * Answers one request: 501 for unknown methods, routing by path shape, OPTIONS and 405/404 generically, then the
 * route's handler. Pure apart from the store mutation; never throws (an unexpected error becomes a 500 problem).
 * Sets `content-length` on every response that may carry one, and drops the body of HEAD responses.
 */
export function handle(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  let response: ResponseRecord;
  try {
    response = dispatch(req, state, deps);
  } catch {
    response = problem(500, 'unexpected error while handling the request');
  }
  return finish(req, response);
}

/** The `Allow` list of a route, as OPTIONS and 405 report it. */
export function allowedMethods(route: Route, deps: HandlerDeps): Method[] {
  const methods = [...route.methods];
  const article = route.kind === 'item' || route.kind === 'collection';
  if (article && deps.faults.has('options-extra-method')) methods.splice(methods.indexOf('OPTIONS'), 0, 'PATCH');
  return methods;
}

function dispatch(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const method = req.method;
  if (!isKnownMethod(method)) return problem(501, `method ${method} is not implemented by this server`);
  const route = matchRoute(req.path);
  const allow = allowedMethods(route, deps);
  if (method === 'OPTIONS') return options(allow, deps);
  // The authentication step (later issue) goes here: when route.writes includes the method, check credentials.
  const handler = allow.includes(method) ? route.handlers[method] : undefined;
  if (handler) return handler({ req, state, deps });
  if (route.unlisted === 404) return problem(404, `nothing at ${req.path}`);
  if (deps.faults.has('unlisted-method-200')) return { status: 200, headers: {} };
  const headers: HeaderMap = deps.faults.has('method-405-no-allow') ? {} : { allow: allow.join(', ') };
  return problem(405, `${method} is not allowed on ${req.path}; allowed: ${allow.join(', ')}`, { headers });
}

function options(allow: readonly Method[], deps: HandlerDeps): ResponseRecord {
  const status = deps.faults.has('options-204') ? 204 : 200;
  return { status, headers: deps.faults.has('options-no-allow') ? {} : { allow: allow.join(', ') } };
}

function finish(req: RequestRecord, response: ResponseRecord): ResponseRecord {
  const headers = { ...response.headers };
  if (response.status === 204 || response.status === 304 || response.status < 200) {
    delete headers['content-length'];
    return { status: response.status, headers };
  }
  headers['content-length'] = String(byteLength(response.body));
  if (req.method === 'HEAD' || response.body === undefined) return { status: response.status, headers };
  return { status: response.status, headers, body: response.body };
}
