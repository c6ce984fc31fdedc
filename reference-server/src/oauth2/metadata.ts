/**
 * `GET /.well-known/oauth-authorization-server` (RFC 8414 §3): the authorization server's metadata — its endpoints
 * and the grants it offers, as the variants on make them — so a client (or `conform init`) finds them. TLS only.
 */
import type { RequestRecord, ResponseRecord } from '../records.js';
import { problem } from '../responses.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { offersCodes } from './authorize.js';
import { offeredGrants } from './grants.js';
import { JSON_TYPE } from './responses.js';

/** The path of the metadata document (RFC 8414 §3, no issuer path). */
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

export function metadataEndpoint(req: RequestRecord, _state: ServerState, deps: HandlerDeps): ResponseRecord {
  if (!req.secure) return problem(400, 'the authorization server metadata is served over TLS only');
  const host = typeof req.headers.host === 'string' ? req.headers.host : 'localhost';
  const issuer = `https://${host}`;
  const body = {
    issuer,
    token_endpoint: `${issuer}/oauth2/token`,
    ...(offersCodes(deps)
      ? {
          authorization_endpoint: `${issuer}/oauth2/authorize`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        }
      : { response_types_supported: [] }),
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    grant_types_supported: offeredGrants(deps.variants),
    token_endpoint_auth_methods_supported: deps.variants.has('oauth2-client-basic-only')
      ? ['client_secret_basic']
      : ['client_secret_basic', 'client_secret_post'],
  };
  return {
    status: 200,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  };
}
