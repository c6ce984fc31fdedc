/**
 * An OAuth 2 access token obtained with one grant (RFC 6749 §4): the token request of the actor's client — client
 * credentials (§4.4), the resource owner's password (§4.3) — at the profile's token endpoint, over TLS.
 */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import type { OAuth2Actor, ResolvedProfile } from '../profile/schema.js';
import { authorizeCode } from './code-flow.js';
import type { TokenExchange } from './exchange.js';

/** A token answer read: the access token (and what came with it), or why there is none. */
export type GrantResult =
  { ok: true; token: string; expiresIn?: number; refreshToken?: string } | { ok: false; reason: string };

interface GrantDeps {
  client: HttpClient;
  profile: ResolvedProfile;
  authenticator: Authenticator;
  /** Called for every secret obtained on the way (a code, a verifier). */
  secret: (value: string) => void;
  /** Where the exchanges of an authorization request go (the token request goes through `send`). */
  exchanges?: TokenExchange[];
}

type Send = (
  request: HttpRequest,
) => Promise<{ ok: true; response: HttpResponse } | { ok: false; error: { message: string } }>;

const join = (base: string, path: string) => base.replace(/\/$/, '') + path;
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

/** Asks the token endpoint at `base` for a token of `actor`, sending through `send` (which records the exchange). */
export async function requestToken(
  deps: GrantDeps,
  actor: OAuth2Actor,
  base: string,
  send: Send,
): Promise<GrantResult> {
  const settings = deps.profile.auth.oauth2;
  if (!settings) return { ok: false, reason: 'the profile has no auth.oauth2 settings' };
  let code: { code: string; verifier: string; redirectUri?: string } | undefined;
  if (actor.grant === 'authorization_code') {
    if (actor.user === undefined) return { ok: false, reason: 'the authorization code grant needs a resource owner' };
    const got = await authorizeCode(
      { client: deps.client, profile: deps.profile, authenticator: deps.authenticator, secret: deps.secret },
      { clientId: actor.clientId, user: actor.user, base },
    );
    deps.exchanges?.push(...got.exchanges);
    if (!got.ok) return { ok: false, reason: got.reason };
    code = got;
  }
  const form: HttpRequest = {
    method: 'POST',
    url: join(base, settings.tokenEndpoint),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
  const applied = deps.authenticator.apply(form, 'oauth2-client', actor.user ?? deps.profile.users[0]?.name ?? '', {
    client: actor.clientId,
    grant: actor.grant,
    ...(code !== undefined
      ? {
          code: code.code,
          codeVerifier: code.verifier,
          ...(code.redirectUri !== undefined ? { redirectUri: code.redirectUri } : {}),
        }
      : {}),
  });
  if (!applied.ok) return { ok: false, reason: applied.reason };
  return tokenAnswer(await send(applied.request), `POST ${settings.tokenEndpoint} (${actor.grant}, ${actor.clientId})`);
}

/** Reads a token endpoint's answer (RFC 6749 §5.1): 200 with a JSON `access_token`. */
export function tokenAnswer(
  sent: { ok: true; response: HttpResponse } | { ok: false; error: { message: string } },
  what: string,
): GrantResult {
  if (!sent.ok) return { ok: false, reason: `obtaining an OAuth 2 token: ${what}: ${sent.error.message}` };
  let body: { access_token?: unknown; expires_in?: unknown; refresh_token?: unknown; error?: unknown } = {};
  try {
    body = JSON.parse(text(sent.response.body)) as typeof body;
  } catch {
    /* reported below */
  }
  if (sent.response.status !== 200 || typeof body.access_token !== 'string') {
    const error = typeof body.error === 'string' ? ` (${body.error})` : '';
    return {
      ok: false,
      reason: `obtaining an OAuth 2 token: ${what} answered ${sent.response.status}${error} without an access_token`,
    };
  }
  return {
    ok: true,
    token: body.access_token,
    ...(typeof body.expires_in === 'number' ? { expiresIn: body.expires_in } : {}),
    ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}),
  };
}
