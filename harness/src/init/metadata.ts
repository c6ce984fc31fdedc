/**
 * `conform init` reads the OAuth 2 authorization server metadata (RFC 8414 §3: `/.well-known/oauth-authorization-server`
 * at the TLS base) where it is served: the authorization and revocation endpoints (on the target's origin, as paths)
 * and whether PKCE S256 is supported. Nothing is concluded from its absence.
 */
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { join } from '../learn/common.js';

export interface MetadataFound {
  authorizeEndpoint?: string;
  revokeEndpoint?: string;
  pkce?: boolean;
  how: string;
}

/** The metadata's endpoints as paths of `base`'s origin (another origin's are left out), and its PKCE methods. */
export async function oauth2Metadata(
  base: string,
  send: (r: HttpRequest) => Promise<HttpResponse | undefined>,
  line: (r: HttpRequest, res: HttpResponse | undefined) => string,
): Promise<MetadataFound> {
  const r: HttpRequest = { method: 'GET', url: join(base, '/.well-known/oauth-authorization-server'), headers: {} };
  const res = await send(r);
  const how = `RFC 8414 metadata: ${line(r, res)}`;
  if (res === undefined || res.status !== 200) return { how };
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(Buffer.from(res.body).toString('utf8')) as Record<string, unknown>;
  } catch {
    return { how: `${how}, not JSON` };
  }
  const origin = new URL(base).origin;
  const pathOf = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    try {
      const u = new URL(v);
      return u.origin === origin ? u.pathname : undefined;
    } catch {
      return undefined;
    }
  };
  const methods = doc['code_challenge_methods_supported'];
  const authorizeEndpoint = pathOf(doc['authorization_endpoint']);
  const revokeEndpoint = pathOf(doc['revocation_endpoint']);
  return {
    how,
    ...(authorizeEndpoint !== undefined ? { authorizeEndpoint } : {}),
    ...(revokeEndpoint !== undefined ? { revokeEndpoint } : {}),
    ...(Array.isArray(methods) && methods.includes('S256') ? { pkce: true } : {}),
  };
}
