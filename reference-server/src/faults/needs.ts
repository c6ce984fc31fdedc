import type { VariantName } from '../variants.js';

/**
 * The variants a fault needs to show, by fault name: a defect of something the default server does not offer (a
 * grant, a kind of token). Tests and the fault sweep switch them on with the fault, and judge with their profile;
 * reference-server/src/faults.test.ts checks every name is a fault's.
 */
export const NEEDED_VARIANTS: Readonly<Record<string, readonly VariantName[]>> = {
  'oauth2-password-unchecked': ['oauth2-password-only'],
  'oauth2-client-token-acts-for-user': ['oauth2-client-no-user'],
  'oauth2-code-reusable': ['oauth2-code-pkce-only'],
  'oauth2-code-reuse-keeps-tokens': ['oauth2-code-pkce-only'],
  'oauth2-code-redirect-unchecked': ['oauth2-code-pkce-only'],
  'oauth2-pkce-unchecked': ['oauth2-code-pkce-only'],
  'oauth2-refresh-refused': ['oauth2-code-pkce-only'],
  'oauth1-hmac-sha256-unverified': ['oauth1-methods-extra'],
  'oauth2-refresh-any-client': ['oauth2-code-pkce-only'],
  'oauth2-refresh-rotation-keeps-old': ['oauth2-code-pkce-only', 'oauth2-refresh-rotation'],
  'oauth2-refresh-revocation-ignored': ['oauth2-code-pkce-only'],
};

/** The faults of the OAuth 2 grants the variants offer (spread into registry.ts's FAULTS in place). */
export const OAUTH2_GRANT_FAULTS = {
  'oauth2-password-unchecked': 'Under oauth2-password-only, a known username gets a token whatever the password.',
  'oauth2-code-reusable': 'An authorization code can be exchanged again: each exchange issues new tokens.',
  'oauth2-code-reuse-keeps-tokens':
    'A second exchange of a code is refused, but the tokens issued from it keep working.',
  'oauth2-code-redirect-unchecked': "A code is exchanged whatever the token request's redirect_uri, or without one.",
  'oauth2-pkce-unchecked': 'A code is exchanged whatever the code_verifier: the PKCE challenge is never compared.',
  'oauth2-client-token-acts-for-user':
    "Under the oauth2-client-no-user variant, client-credentials tokens still act for the client's registered user: they open that user's records.",
  'oauth1-hmac-sha256-unverified':
    'Under oauth1-methods-extra, an HMAC-SHA256 request is taken whatever its signature.',
  'oauth2-refresh-refused': 'Refresh tokens are issued, but every refresh is refused with invalid_grant.',
  'oauth2-refresh-any-client': 'A refresh token issued to one client is taken from any other authenticated client.',
  'oauth2-refresh-rotation-keeps-old':
    'Under oauth2-refresh-rotation, a refresh issues a new refresh token but the old one keeps working.',
  'oauth2-refresh-revocation-ignored': 'The revocation endpoint answers 200 for a refresh token but keeps it working.',
} as const;
