/**
 * The authorization code grant's first half (RFC 6749 §4.1.1–4.1.2), as a person with a browser makes it: `GET
 * <authorizeEndpoint>?response_type=code&client_id=…&redirect_uri=…&state=…` with a PKCE challenge (RFC 7636 §4.2,
 * S256 — a server that does not take PKCE ignores the parameters, RFC 6749 §3.1), the resource owner authenticated
 * the way OAuth 1 approvals are (Basic, then the signed forms); a page with a form in the answer is submitted as a
 * browser would. The code is read from the redirect's `Location` (query or fragment), with the state it must echo.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import { formField } from '../http/form.js';
import { formEncode } from '../http/percent.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { formOf, ownerSchemes } from './approval.js';
import type { TokenExchange } from './exchange.js';

/** What an authorization request gave: the code, with the verifier and redirect URI its exchange repeats. */
export type CodeResult =
  | { ok: true; code: string; verifier: string; redirectUri?: string; exchanges: TokenExchange[] }
  | { ok: false; reason: string; exchanges: TokenExchange[] };

export interface CodeFlowDeps {
  client: HttpClient;
  profile: ResolvedProfile;
  authenticator: Authenticator;
  /** Called for every secret obtained (the code, the verifier), so reports never show it. */
  secret: (value: string) => void;
}

/** A PKCE code verifier (RFC 7636 §4.1: 43 unreserved characters from 32 random bytes) and its S256 challenge. */
export function pkcePair(bytes: Buffer = randomBytes(32)): { verifier: string; challenge: string } {
  const verifier = bytes.toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier, 'ascii').digest('base64url') };
}

const join = (base: string, path: string) => base.replace(/\/$/, '') + path;
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const header = (r: HttpResponse, name: string) => [r.headers[name] ?? []].flat()[0];

/** `name` in a redirect's Location, query or fragment. */
function fromLocation(r: HttpResponse, name: string): string | undefined {
  const location = header(r, 'location');
  if (location === undefined || r.status < 300 || r.status >= 400) return undefined;
  for (const part of location.split(/[?#]/).slice(1)) {
    const v = formField(part, name);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * The resource owner `user` authorizes `clientId` at `base` (a TLS base URL): the code, or why there is none. With
 * `verifier`, that PKCE verifier is used (a scenario that sends a wrong one later); `redirectUri` overrides the
 * profile's (`auth.oauth2.redirectUri`; none: the parameter is left out, §4.1.1 makes it OPTIONAL).
 */
export async function authorizeCode(
  deps: CodeFlowDeps,
  r: { clientId: string; user: string; base: string; verifier?: string; redirectUri?: string },
): Promise<CodeResult> {
  const exchanges: TokenExchange[] = [];
  const settings = deps.profile.auth.oauth2;
  if (!settings?.authorizeEndpoint)
    return { ok: false, reason: 'the profile has no auth.oauth2.authorizeEndpoint', exchanges };
  const pkce = r.verifier !== undefined ? { verifier: r.verifier, challenge: pkcePair().challenge } : pkcePair();
  if (r.verifier !== undefined) pkce.challenge = createHash('sha256').update(r.verifier, 'ascii').digest('base64url');
  const state = randomBytes(12).toString('base64url');
  const redirectUri = r.redirectUri ?? settings.redirectUri;
  const query = [
    ['response_type', 'code'],
    ['client_id', r.clientId],
    ...(redirectUri !== undefined ? [['redirect_uri', redirectUri]] : []),
    ['state', state],
    ['code_challenge', pkce.challenge],
    ['code_challenge_method', 'S256'],
  ]
    .map(([k, v]) => `${formEncode(k!)}=${formEncode(v!)}`)
    .join('&');
  const endpoint = join(r.base, settings.authorizeEndpoint);
  const send = async (request: HttpRequest, scheme: 'basic' | 'hmac' | 'hmac-nonce') => {
    const applied = deps.authenticator.apply(request, scheme, r.user, {});
    if (!applied.ok) return applied.reason;
    const sent = await deps.client.send(applied.request);
    exchanges.push(
      sent.ok
        ? { purpose: 'credentials', request: applied.request, response: sent.response }
        : { purpose: 'credentials', request: applied.request, error: sent.error },
    );
    return sent.ok ? sent.response : `GET ${settings.authorizeEndpoint}: ${sent.error.message}`;
  };
  const notes: string[] = [];
  for (const scheme of ownerSchemes(deps.profile, r.user)) {
    let answer = await send({ method: 'GET', url: `${endpoint}?${query}`, headers: {} }, scheme);
    if (typeof answer === 'string') {
      notes.push(answer);
      continue;
    }
    // A page that asks the owner: its form, submitted as a browser would.
    const page =
      answer.status >= 200 && answer.status < 300 ? formOf(text(answer.body), `${endpoint}?${query}`) : undefined;
    if (page) {
      const body = page.fields.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&');
      const submitted = await send(
        page.method === 'GET'
          ? { method: 'GET', url: `${page.action}${page.action.includes('?') ? '&' : '?'}${body}`, headers: {} }
          : {
              method: 'POST',
              url: page.action,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body,
            },
        scheme,
      );
      if (typeof submitted === 'string') {
        notes.push(submitted);
        continue;
      }
      answer = submitted;
    }
    const code = fromLocation(answer, 'code');
    if (code !== undefined) {
      const echoed = fromLocation(answer, 'state');
      if (echoed !== state)
        return {
          ok: false,
          reason: `the authorization redirect carried a code but ${echoed === undefined ? 'no state' : 'another state'} (RFC 6749 §4.1.2: state is REQUIRED when the request had one)`,
          exchanges,
        };
      deps.secret(code);
      deps.secret(pkce.verifier);
      return {
        ok: true,
        code,
        verifier: pkce.verifier,
        ...(redirectUri !== undefined ? { redirectUri } : {}),
        exchanges,
      };
    }
    const error = fromLocation(answer, 'error');
    notes.push(
      `GET ${settings.authorizeEndpoint} with ${scheme} → ${answer.status}${error ? ` (error=${error})` : ''}`,
    );
  }
  return {
    ok: false,
    reason: `the authorization request gave no code: ${notes.join('; ') || `${r.user} has neither a password nor a secret`}`,
    exchanges,
  };
}
