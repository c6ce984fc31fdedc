/**
 * Faults that only rewrite an answer on its way out: a status changed, a header dropped, a body changed. Each is an
 * {@link AnswerRewrite} run after the handler, so the handler stays correct and knows nothing of them.
 */
import { unauthorized } from '../auth/challenge.js';
import { isKnownMethod } from '../records.js';
import type { RequestRecord } from '../records.js';
import { errorFormat, unknownMethod } from '../responses.js';
import { freshId } from '../routes/articles.js';
import { OAUTH_PATHS, oauthEndpoint } from '../routes/oauth.js';
import type { FaultGroup } from './define.js';
import { isRequest, withoutHeaders } from './define.js';

/** An answer of the article collection to a POST that created an article (it carries the new `Location`). */
function postCreated(req: RequestRecord, location: unknown): location is string {
  return isRequest(req, 'POST', '/articles') && typeof location === 'string';
}

/** A request the handler answered itself for a resource (not an OAuth endpoint, which answers methods its own way). */
function resourceRequest(req: RequestRecord, origin: 'handler' | 'parser'): boolean {
  return origin === 'handler' && oauthEndpoint(req.path) === undefined;
}

export const ANSWER_FAULTS = {
  'post-200': {
    rewrite: (req, res) => (isRequest(req, 'POST', '/articles') && res.status === 201 ? { ...res, status: 200 } : res),
  },
  'post-no-location': {
    rewrite: (req, res) => (postCreated(req, res.headers.location) ? withoutHeaders(res, 'location') : res),
  },
  'post-location-nowhere': {
    // Another unused id, drawn as POST draws them, so the Location serves nothing.
    rewrite: (req, res, ctx) => {
      const location = res.headers.location;
      if (!postCreated(req, location)) return res;
      const slash = location.lastIndexOf('/') + 1;
      const id = location.slice(slash);
      return {
        ...res,
        headers: { ...res.headers, location: `${location.slice(0, slash)}${freshId(ctx, id) ?? `${id}-elsewhere`}` },
      };
    },
  },
  'post-location-shape': {
    rewrite: (req, res) => {
      const location = res.headers.location;
      return postCreated(req, location)
        ? { ...res, headers: { ...res.headers, location: location.replace(/\/articles\/([^/]*)$/, '/items/$1') } }
        : res;
    },
  },
  'put-create-200': {
    rewrite: (req, res) => (req.method === 'PUT' && res.status === 201 ? { ...res, status: 200 } : res),
  },
  'put-create-no-location': {
    rewrite: (req, res) =>
      req.method === 'PUT' && res.headers.location !== undefined ? withoutHeaders(res, 'location') : res,
  },
  'options-no-allow': {
    rewrite: (req, res, ctx) =>
      req.method === 'OPTIONS' && resourceRequest(req, ctx.origin) && (res.status === 200 || res.status === 204)
        ? withoutHeaders(res, 'allow')
        : res,
  },
  'options-204': {
    rewrite: (req, res, ctx) =>
      req.method === 'OPTIONS' && resourceRequest(req, ctx.origin) && res.status === 200
        ? { ...res, status: 204 }
        : res,
  },
  'method-405-no-allow': {
    // The OAuth endpoints' own 405s keep their Allow; an unknown method's 405 loses the list from its detail too.
    rewrite: (req, res, ctx) => {
      if (res.status !== 405 || res.headers.allow === undefined) return res;
      if (ctx.origin === 'parser') return unknownMethod(req.method, req.path, undefined);
      if (!resourceRequest(req, ctx.origin)) return res;
      return isKnownMethod(req.method)
        ? withoutHeaders(res, 'allow')
        : errorFormat(unknownMethod(req.method, req.path, undefined), ctx.deps.variants);
    },
  },
  'unlisted-method-200': {
    // A method the server knows but the resource does not list (unknown methods keep their 405).
    rewrite: (req, res, ctx) =>
      res.status === 405 && isKnownMethod(req.method) && resourceRequest(req, ctx.origin)
        ? { status: 200, headers: {} }
        : res,
  },
  'oauth-endpoint-405-no-allow': {
    // Only the OAuth endpoints' own 405s (a method other than the one each takes) lose their Allow.
    rewrite: (req, res, ctx) =>
      res.status === 405 && ctx.origin === 'handler' && oauthEndpoint(req.path) !== undefined
        ? withoutHeaders(res, 'allow')
        : res,
  },
  'no-www-authenticate': {
    rewrite: (_req, res) =>
      res.headers['www-authenticate'] === undefined ? res : withoutHeaders(res, 'www-authenticate'),
  },
  'oauth2-token-cacheable': {
    rewrite: (req, res) =>
      isRequest(req, 'POST', OAUTH_PATHS.oauth2Token) && res.status === 200
        ? withoutHeaders(res, 'cache-control', 'pragma')
        : res,
  },
  'oauth1-callback-unconfirmed': {
    rewrite: (req, res) => {
      if (!isRequest(req, 'POST', OAUTH_PATHS.oauth1Temporary) || res.status !== 200 || typeof res.body !== 'string')
        return res;
      return {
        ...res,
        body: res.body
          .split('&')
          .filter((pair) => pair !== 'oauth_callback_confirmed=true')
          .join('&'),
      };
    },
  },
  'oversize-acknowledged': {
    // The IO shell reads bodies up to 16 times the limit; the handler's 413 becomes a 204 as if the body was stored.
    io: { readCap: (max) => max * 16 },
    rewrite: (req, res, ctx) =>
      res.status === 413 && ctx.origin === 'handler' && (req.method === 'PUT' || req.method === 'POST')
        ? { status: 204, headers: {}, body: new Uint8Array(0) }
        : res,
  },
  'root-refuses-basic': {
    rewrite: (req, res, ctx) => {
      const basic = /^\s*basic\b/i.test(String(req.headers['authorization'] ?? ''));
      if (
        !basic ||
        req.path !== '/' ||
        (req.method !== 'GET' && req.method !== 'HEAD') ||
        res.status !== 200 ||
        ctx.origin !== 'handler'
      )
        return res;
      return errorFormat(
        unauthorized(req, { reason: 'Basic credentials do not open /' }, ctx.deps.variants),
        ctx.deps.variants,
      );
    },
  },
} satisfies FaultGroup;
