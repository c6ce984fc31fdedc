import { problem, xmlResponse } from '../responses.js';
import { escapeAttribute } from '../xml/article.js';
import type { HandlerContext, Route } from '../types.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** `/`: a small service document listing the article collection. GET and HEAD need credentials. */
export function rootRoute(): Route {
  const get = () => xmlResponse(200, `${DECLARATION}<service><collection href="/articles"/></service>`);
  return {
    kind: 'root',
    methods: ['GET', 'HEAD', 'OPTIONS'],
    writes: [],
    guarded: ['GET', 'HEAD'],
    unlisted: 405,
    handlers: { GET: get, HEAD: get },
  };
}

/**
 * `/users/<name>/financialrecords`: a placeholder document, readable by its owner only (GET and HEAD need
 * credentials; 403 for another user, 404 when no such user exists).
 */
export function recordsRoute(user: string): Route {
  const get = (ctx: HandlerContext) =>
    ctx.state.auth.users.has(user)
      ? xmlResponse(200, `${DECLARATION}<financialrecords user="${escapeAttribute(user)}"/>`)
      : problem(404, `no user ${user}`);
  return {
    kind: 'records',
    methods: ['GET', 'HEAD', 'OPTIONS'],
    writes: [],
    guarded: ['GET', 'HEAD'],
    owner: user,
    unlisted: 405,
    handlers: { GET: get, HEAD: get },
  };
}

/** Any other path: only OPTIONS answers (`Allow: OPTIONS`); every other known method is 404. */
export function unknownRoute(): Route {
  return { kind: 'unknown', methods: ['OPTIONS'], writes: [], guarded: [], unlisted: 404, handlers: {} };
}
