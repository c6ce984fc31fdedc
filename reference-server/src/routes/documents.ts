import { xmlResponse } from '../responses.js';
import { escapeAttribute } from '../xml/article.js';
import type { Route } from './route.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** `/`: a small service document listing the article collection. Protected in a later issue. */
export function rootRoute(): Route {
  const get = () => xmlResponse(200, `${DECLARATION}<service><collection href="/articles"/></service>`);
  return { kind: 'root', methods: ['GET', 'HEAD', 'OPTIONS'], writes: [], unlisted: 405, handlers: { GET: get, HEAD: get } };
}

/** `/users/<name>/financialrecords`: a placeholder document. Protected (owner only) in a later issue. */
export function recordsRoute(user: string): Route {
  const get = () => xmlResponse(200, `${DECLARATION}<financialrecords user="${escapeAttribute(user)}"/>`);
  return { kind: 'records', methods: ['GET', 'HEAD', 'OPTIONS'], writes: [], unlisted: 405, handlers: { GET: get, HEAD: get } };
}

/** Any other path: only OPTIONS answers (`Allow: OPTIONS`); every other known method is 404. */
export function unknownRoute(): Route {
  return { kind: 'unknown', methods: ['OPTIONS'], writes: [], unlisted: 404, handlers: {} };
}
