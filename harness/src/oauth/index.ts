/**
 * How conform gets and uses OAuth credentials — the harness's OAuth client side, in one folder:
 *
 * - `tokens.ts` — the run's token source: OAuth 2 access tokens and OAuth 1 token credentials, obtained from the
 *   target on first use and kept until they are about to expire. This is what the runner calls.
 * - `grants.ts` — one token request per grant (client credentials, password, a code); `code-flow.ts` — the
 *   authorization request of the code grant (PKCE S256), the owner approving the target's way.
 * - `approval.ts` — the resource owner's approval of OAuth 1 temporary credentials, found the target's way.
 * - `apply.ts` — a bearer token, client authentication at a token endpoint, an OAuth 1 signed request.
 * - `signature.ts` — the OAuth 1 signature methods (RFC 5849 §3.4), checked against `specs/vectors/oauth.yaml`.
 * - `exchange.ts` — what obtaining credentials sent and got, for the transcript of the step that needed them.
 */
export { createApprover, formOf, verifierIn } from './approval.js';
export type { ApprovalResult, ApprovalWay, Approver } from './approval.js';
export { authorizeCode, pkcePair } from './code-flow.js';
export type { CodeResult } from './code-flow.js';
export type { TokenExchange } from './exchange.js';
export { createTokenSource } from './tokens.js';
export type { TokenResult, TokenSource } from './tokens.js';
