/**
 * Diagnostic refusals (`conform serve --diagnose`, on by default under `conform check-client`): a refused signed
 * request's problem+json body gains a `diagnostic` member with what the server rebuilt and the common mistake that
 * explains the client's digest. Off unless asked for: conform's own scenarios judge the bare server.
 */
import type { RequestRecord, ResponseRecord } from '../records.js';
import { PROBLEM_TYPE, byteLength } from '../responses.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { diagnoseHmac } from './diagnose-hmac.js';
import { diagnoseOAuth1 } from './diagnose-oauth1.js';

export type { Diagnostic } from './diagnose-hmac.js';

/** `response` with a diagnostic added when it is a 400 or 401 problem answering a signed request; else as is. */
export function withDiagnostic(
  req: RequestRecord,
  response: ResponseRecord,
  state: ServerState,
  deps: HandlerDeps,
): ResponseRecord {
  if (response.status !== 400 && response.status !== 401) return response;
  const type = response.headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith(PROBLEM_TYPE) || typeof response.body !== 'string') return response;
  const diagnostic = diagnoseHmac(req, state, deps) ?? diagnoseOAuth1(req, state, deps);
  if (diagnostic === undefined) return response;
  let problem: Record<string, unknown>;
  try {
    problem = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    return response;
  }
  const body = JSON.stringify({ ...problem, diagnostic });
  const headers = { ...response.headers };
  if (headers['content-length'] !== undefined) headers['content-length'] = String(byteLength(body));
  return { ...response, headers, body };
}
