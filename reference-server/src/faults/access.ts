/**
 * Faults of access: routes whose `Allow` lists a method they do not really handle (route patches, as the variants
 * patch routes in routes/table.ts), `Allow` lists that do not depend on the requester as they should, and writes that
 * go through without credentials — or are carried out while being refused (the `unauthorizedWrite` hook), and a
 * method refused to valid credentials as if they were wrong.
 */
import { unauthorized } from '../auth/challenge.js';
import type { Method, RequestRecord } from '../records.js';
import { errorFormat, problem } from '../responses.js';
import { oauthEndpoint } from '../routes/oauth.js';
import type { Handler, Route } from '../types.js';
import type { FaultGroup } from './define.js';

/** `route` also listing `method` (before OPTIONS), as a write or not, answered by `handler` or by nothing (405). */
function listing(route: Route, method: Method, write: boolean, handler?: Handler): Route {
  const at = route.methods.indexOf('OPTIONS');
  return {
    ...route,
    methods: [...route.methods.slice(0, at), method, ...route.methods.slice(at)],
    writes: write ? [...route.writes, method] : route.writes,
    guarded: write ? [...route.guarded, method] : route.guarded,
    handlers: handler ? { ...route.handlers, [method]: handler } : route.handlers,
  };
}

/** `methods` with PATCH inserted before OPTIONS. */
function withPatch(methods: Method[]): Method[] {
  methods.splice(methods.indexOf('OPTIONS'), 0, 'PATCH');
  return methods;
}

export const ACCESS_FAULTS = {
  'allow-method-401': {
    // Items list PATCH to authenticated requests, and PATCH is refused as if the credentials were wrong.
    rules: {
      access: (prev) => ({
        route: (r) => {
          const route = prev.route(r);
          return route.kind === 'item'
            ? listing(route, 'PATCH', true, (ctx) => unauthorized(ctx.req, undefined, ctx.deps.variants))
            : route;
        },
      }),
    },
  },
  'allow-lists-unhandled-delete-on-collection': {
    rules: {
      access: (prev) => ({
        route: (r) => {
          const route = prev.route(r);
          return route.kind === 'collection' ? listing(route, 'DELETE', true) : route;
        },
      }),
    },
  },
  'allow-method-500': {
    rules: {
      access: (prev) => ({
        route: (r) => {
          const route = prev.route(r);
          return route.kind === 'records'
            ? listing(route, 'DELETE', true, () => problem(500, 'unexpected error while deleting the records'))
            : route;
        },
      }),
    },
  },
  'root-allow-lies': {
    rules: {
      access: (prev) => ({
        route: (r) => {
          const route = prev.route(r);
          return route.kind === 'root' ? listing(route, 'PUT', false) : route;
        },
      }),
    },
  },
  'options-extra-method': {
    rules: {
      access: (prev) => ({
        allow: (route, authenticated, listed) => {
          const methods = prev.allow(route, authenticated, listed);
          return route.kind === 'item' || route.kind === 'collection' ? withPatch(methods) : methods;
        },
      }),
    },
  },
  'allow-anonymous-extra': {
    rules: {
      access: (prev) => ({
        allow: (route, authenticated, listed) => {
          const methods = prev.allow(route, authenticated, listed);
          return !authenticated && route.kind === 'item' && !methods.includes('PATCH') ? withPatch(methods) : methods;
        },
      }),
    },
  },
  'allow-ignores-auth': {
    rules: {
      access: (prev) => ({ allow: (route, authenticated) => prev.allow(route, authenticated, [...route.methods]) }),
    },
  },
  'delete-without-auth': {
    hooks: {
      unauthorizedWrite: (ctx, write) =>
        write.kind === 'item' && write.method === 'DELETE' ? write.handler(ctx) : undefined,
    },
  },
  'replace-without-auth': {
    hooks: {
      unauthorizedWrite: (ctx, write) =>
        write.kind === 'item' && write.method === 'PUT' && write.exists() ? write.handler(ctx) : undefined,
    },
  },
  // A server that checks credentials before the method, and takes "not allowed to these credentials" for "wrong
  // credentials": an authenticated request whose method the resource does not allow gets 401 and the challenges
  // instead of 405 (the mutation survivors of handle.ts's method check). The requests `identified` as a user are
  // held weakly, for the rewrite of their answer.
  'unlisted-method-401-authenticated': () => {
    const authenticated = new WeakSet<RequestRecord>();
    return {
      hooks: {
        identified: (req, _verification, identity) => {
          if (identity.kind === 'user') authenticated.add(req);
          return identity;
        },
      },
      rewrite: (req, res, ctx) =>
        res.status === 405 &&
        ctx.origin === 'handler' &&
        authenticated.has(req) &&
        oauthEndpoint(req.path) === undefined
          ? errorFormat(
              unauthorized(req, { reason: `${req.method} is not allowed with these credentials` }, ctx.deps.variants),
              ctx.deps.variants,
            )
          : res,
    };
  },
  'refused-write-applied': {
    hooks: {
      unauthorizedWrite: (ctx, write) => {
        write.handler(ctx);
        return undefined;
      },
    },
  },
} satisfies FaultGroup;
