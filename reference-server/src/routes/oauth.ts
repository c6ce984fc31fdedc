import { authorizeEndpoint, temporaryCredentialsEndpoint, tokenCredentialsEndpoint } from '../oauth1/endpoints.js';
import { oauth2AuthorizeEndpoint } from '../oauth2/authorize.js';
import { metadataEndpoint } from '../oauth2/metadata.js';
import { revokeEndpoint } from '../oauth2/revoke.js';
import { tokenEndpoint } from '../oauth2/token.js';
import { problem, unknownMethod } from '../responses.js';
import { isKnownMethod } from '../records.js';
import type { Method, RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import type { VariantName } from '../variants.js';

/** Answers one request to an OAuth endpoint, which authenticates its callers itself. */
export type EndpointHandler = (req: RequestRecord, state: ServerState, deps: HandlerDeps) => ResponseRecord;

/** Paths of the OAuth endpoints (docs/oauth.md), as `reference-server/profile.yaml` lists them. */
export const OAUTH_PATHS = {
  oauth2Token: '/oauth2/token',
  oauth2Revoke: '/oauth2/revoke',
  oauth2Authorize: '/oauth2/authorize',
  oauth2Metadata: '/.well-known/oauth-authorization-server',
  oauth1Temporary: '/oauth1/request_token',
  oauth1Authorize: '/oauth1/authorize',
  oauth1Token: '/oauth1/access_token',
} as const;

interface Endpoint {
  method: Method;
  handler: EndpointHandler;
  /** A second method the endpoint answers when a variant is on (the same handler answers it). */
  also?: { variant: VariantName; method: Method };
}

const ENDPOINTS: ReadonlyMap<string, Endpoint> = new Map<string, Endpoint>([
  [OAUTH_PATHS.oauth2Token, { method: 'POST', handler: tokenEndpoint }],
  [OAUTH_PATHS.oauth2Revoke, { method: 'POST', handler: revokeEndpoint }],
  [OAUTH_PATHS.oauth2Authorize, { method: 'GET', handler: oauth2AuthorizeEndpoint }],
  [OAUTH_PATHS.oauth2Metadata, { method: 'GET', handler: metadataEndpoint }],
  [OAUTH_PATHS.oauth1Temporary, { method: 'POST', handler: temporaryCredentialsEndpoint }],
  // Under `oauth1-approve-post` the GET shows the approval form and the owner's POST answers it.
  [
    OAUTH_PATHS.oauth1Authorize,
    { method: 'GET', handler: authorizeEndpoint, also: { variant: 'oauth1-approve-post', method: 'POST' } },
  ],
  [OAUTH_PATHS.oauth1Token, { method: 'POST', handler: tokenCredentialsEndpoint }],
]);

const NO_VARIANTS: ReadonlySet<VariantName> = new Set();

/** The methods an endpoint answers besides OPTIONS, with `variants` on. */
function methodsOf(endpoint: Endpoint, variants: ReadonlySet<VariantName>): Method[] {
  return endpoint.also !== undefined && variants.has(endpoint.also.variant)
    ? [endpoint.method, endpoint.also.method]
    : [endpoint.method];
}

/** The `Allow` of an OAuth endpoint path (with `variants` on), or undefined for any other path. */
export function oauthAllow(path: string, variants: ReadonlySet<VariantName> = NO_VARIANTS): string | undefined {
  const endpoint = ENDPOINTS.get(path);
  return endpoint === undefined ? undefined : `${methodsOf(endpoint, variants).join(', ')}, OPTIONS`;
}

/**
 * The handler of an OAuth endpoint path (matched raw, without the query), or undefined for any other path. It
 * answers its one method (two for the authorize endpoint under `oauth1-approve-post`: GET and POST), `OPTIONS`
 * (`200`, `Allow`), and `405` with `Allow` for every other method, known or not. These requests skip the resource
 * authentication: the endpoints verify client, consumer or resource-owner credentials themselves.
 */
export function oauthEndpoint(path: string): EndpointHandler | undefined {
  const endpoint = ENDPOINTS.get(path);
  if (endpoint === undefined) return undefined;
  return (req, state, deps) => {
    const methods = methodsOf(endpoint, deps.variants);
    const allow = `${methods.join(', ')}, OPTIONS`;
    if (!isKnownMethod(req.method)) return unknownMethod(req.method, req.path, allow);
    if (req.method === 'OPTIONS') return { status: 200, headers: { allow } };
    if (!methods.includes(req.method))
      return problem(405, `${req.method} is not allowed on ${req.path}; allowed: ${allow}`, { headers: { allow } });
    return endpoint.handler(req, state, deps);
  };
}
