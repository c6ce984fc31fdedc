import type { VariantName } from '../reference-server/src/index.js';

/**
 * Scenarios about what the default reference server does not offer (a grant, a kind of token): skipped on it, and
 * run on the clean server with the variants that offer it (with their profile) — where they pass.
 */
export const VARIANT_SCENARIOS: Record<string, VariantName[]> = {
  'auth/oauth2-password-wrong-refused': ['oauth2-password-only'],
  'auth/oauth2-client-token-no-user': ['oauth2-client-no-user'],
  'auth/oauth2-code-exchanged-once': ['oauth2-code-pkce-only'],
  'auth/oauth2-code-redirect-bound': ['oauth2-code-pkce-only'],
  'auth/oauth2-pkce-verified': ['oauth2-code-pkce-only'],
  'auth/oauth2-refresh-used': ['oauth2-code-pkce-only'],
  'auth/oauth2-refresh-bound-to-client': ['oauth2-code-pkce-only'],
  'auth/oauth2-refresh-rotated': ['oauth2-code-pkce-only', 'oauth2-refresh-rotation'],
  'auth/oauth2-refresh-revoked': ['oauth2-code-pkce-only'],
};
