/**
 * The client rules of the OAuth 2 grants (RFC 6749 §2.3.1, §4.1.2, §6, §10.8; RFC 7636 §4.2, §4.5), judged on the
 * authorization and token requests a client sends, with what the server's answers issued: the code a redirect
 * carried, the refresh token a refresh answer replaced the old one with.
 */
import type { RecordedExchange } from '../recording.js';
import { bodyParams } from './body-params.js';
import type { Tally } from './verdicts.js';

const CODE_ONCE = 'rfc6749-client-code-once';
const PASSWORD_TLS = 'rfc6749-client-password-tls';
const SECRET_NOT_IN_AUTHORIZE = 'rfc6749-client-secret-not-in-authorization-request';
const REFRESH_REPLACED = 'rfc6749-client-refresh-replaced';
const S256 = 'rfc7636-client-s256';
const VERIFIER_SENT = 'rfc7636-client-verifier-sent';

/** The client rules this module judges. */
export const GRANT_CLIENT_RULES = [
  SECRET_NOT_IN_AUTHORIZE,
  PASSWORD_TLS,
  CODE_ONCE,
  REFRESH_REPLACED,
  S256,
  VERIFIER_SENT,
] as const;

/** What the judge knows: the paths of the OAuth 2 endpoints. */
export interface GrantContext {
  /** The endpoints that take client credentials (token, revocation): where grants are exchanged. */
  clientEndpoints: readonly string[];
  /** The authorization endpoints (RFC 6749 §3.1). */
  authorizeEndpoints: readonly string[];
}

/** What the judge remembers of the requests before: codes sent, codes issued for a challenge, refresh tokens replaced. */
export interface GrantMemory {
  /** Each authorization code the client exchanged, and the request that first did. */
  codesSent: Map<string, number>;
  /** Each code the server issued in answer to an authorization request with a `code_challenge`, and that request. */
  challenged: Map<string, number>;
  /** Each refresh token a refresh answer replaced with a new one, and that refresh request. */
  replaced: Map<string, number>;
}

export function grantMemory(): GrantMemory {
  return { codesSent: new Map(), challenged: new Map(), replaced: new Map() };
}

/** Judges the grant rules on one request, and remembers what its answer issued. */
export function judgeGrants(ex: RecordedExchange, ctx: GrantContext, memory: GrantMemory, tally: Tally): void {
  const q = ex.target.indexOf('?');
  const path = q < 0 ? ex.target : ex.target.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : ex.target.slice(q + 1));
  if (ctx.authorizeEndpoints.includes(path)) judgeAuthorization(ex, query, memory, tally);
  if (!ctx.clientEndpoints.includes(path)) return;
  // A token request's parameters belong in its form body (RFC 6749 §4.1.3, §4.3.2, §6); read in the query too, so a
  // client that put them there is still judged by what it sent.
  const body = bodyParams(ex).params;
  const param = (name: string) => body.get(name) ?? query.get(name) ?? undefined;
  const grant = param('grant_type');
  if (grant === 'password' || param('password') !== undefined) judgePasswordTransport(ex, grant, tally);
  const code = param('code');
  if (grant === 'authorization_code' && code !== undefined) judgeCodeExchange(ex, code, param, memory, tally);
  const refresh = param('refresh_token');
  if (grant === 'refresh_token' && refresh !== undefined) judgeRefresh(ex, refresh, memory, tally);
}

/** RFC 6749 §2.3.1 and RFC 7636 §4.2 on an authorization request; the code its redirect carried is remembered. */
function judgeAuthorization(ex: RecordedExchange, query: URLSearchParams, memory: GrantMemory, tally: Tally): void {
  if (query.has('client_secret'))
    tally.fail(SECRET_NOT_IN_AUTHORIZE, {
      seq: ex.seq,
      reason:
        'client_secret in the authorization request URI (RFC 6749 §4.1.1 takes none): the secret travels through the user agent; authenticate at the token endpoint only',
    });
  else tally.exercise(SECRET_NOT_IN_AUTHORIZE);
  const challenge = query.get('code_challenge');
  if (challenge === null) return;
  const method = query.get('code_challenge_method');
  if (method === 'S256') tally.exercise(S256);
  else
    tally.fail(S256, {
      seq: ex.seq,
      reason:
        method === null
          ? 'a code_challenge without code_challenge_method, which means plain (RFC 7636 §4.3); send code_challenge_method=S256 with BASE64URL(SHA256(code_verifier))'
          : `code_challenge_method=${method}; a client capable of S256 must use S256 (this server takes S256 only)`,
    });
  const code = codeOf(ex.location);
  if (code !== undefined) memory.challenged.set(code, ex.seq);
}

/** RFC 6749 §10.8: the resource owner's password never in the clear. */
function judgePasswordTransport(ex: RecordedExchange, grant: string | undefined, tally: Tally): void {
  if (ex.transport === 'https') return tally.exercise(PASSWORD_TLS);
  const what = grant === 'password' ? 'a password grant (grant_type=password)' : "the resource owner's password";
  tally.fail(PASSWORD_TLS, {
    seq: ex.seq,
    reason: `${what} sent over plain HTTP: the resource owner's password in the clear; send token requests over TLS`,
  });
}

/** RFC 6749 §4.1.2 (each code used once) and RFC 7636 §4.5 (the verifier of a code issued for a challenge). */
function judgeCodeExchange(
  ex: RecordedExchange,
  code: string,
  param: (name: string) => string | undefined,
  memory: GrantMemory,
  tally: Tally,
): void {
  const first = memory.codesSent.get(code);
  if (first === undefined) {
    memory.codesSent.set(code, ex.seq);
    tally.exercise(CODE_ONCE);
  } else
    tally.fail(CODE_ONCE, {
      seq: ex.seq,
      reason: `the authorization code exchanged in request #${first} is exchanged again; a code is used once (get a new one from the authorization endpoint)`,
    });
  const challenged = memory.challenged.get(code);
  if (challenged === undefined) return;
  if (param('code_verifier') !== undefined) tally.exercise(VERIFIER_SENT);
  else
    tally.fail(VERIFIER_SENT, {
      seq: ex.seq,
      reason: `the code was issued for the code_challenge of request #${challenged}, and its exchange sends no code_verifier`,
    });
}

/** RFC 6749 §6: a refresh token a refresh answer replaced is discarded; the answer's new one is remembered. */
function judgeRefresh(ex: RecordedExchange, refresh: string, memory: GrantMemory, tally: Tally): void {
  const by = memory.replaced.get(refresh);
  if (by === undefined) tally.exercise(REFRESH_REPLACED);
  else
    tally.fail(REFRESH_REPLACED, {
      seq: ex.seq,
      reason: `this refresh token was replaced by the new one the answer to request #${by} issued; the client must discard it and use the new one`,
    });
  if (ex.status === 200 && ex.refreshToken !== undefined && ex.refreshToken !== refresh && by === undefined)
    memory.replaced.set(refresh, ex.seq);
}

/** The `code` of a redirect's Location, if it carries one. */
function codeOf(location: string | undefined): string | undefined {
  if (location === undefined) return undefined;
  try {
    return new URL(location, 'https://client.invalid/').searchParams.get('code') ?? undefined;
  } catch {
    return undefined;
  }
}
