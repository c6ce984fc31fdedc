/**
 * The variants of the OAuth 2 grants (variants.ts holds every variant; these are spread into it in place): which
 * grants the token endpoint offers, to whom, and whom its tokens act for (RFC 6749 §4, §5.2).
 */
export const OAUTH2_GRANT_VARIANTS = {
  'oauth2-unauthorized-client': {
    description:
      "The OAuth 2 token endpoint knows every grant type RFC 6749 defines, but the profile's clients are registered for client_credentials only: authorization_code, password and refresh_token answer 400 unauthorized_client, other grant types 400 unsupported_grant_type (Spring Authorization Server's and node-oauth2-server's order; RFC 6749 §5.2 defines both codes).",
    profile: {},
  },
  'oauth2-password-only': {
    description:
      "The OAuth 2 token endpoint offers the resource owner password grant only (RFC 6749 §4.3), to every client: grant_type=password with a user's username and password gives a token acting for that user; a wrong password answers 400 invalid_grant; client_credentials answers 400 unsupported_grant_type (§5.3 leaves token endpoints and parameters open; first-party apps of Django OAuth Toolkit, Keycloak and node-oauth2-server run so).",
    profile: { auth: { oauth2: { grants: ['password', 'refresh_token'], otherClient: null } } },
    excludes: ['oauth2-client-no-user', 'oauth2-unauthorized-client', 'oauth2-code-pkce-only'],
  },
  'oauth2-client-no-user': {
    description:
      "Client-credentials tokens act for no user (RFC 6749 §4.4: the client acts on its own behalf): they open / and article writes, no user's records (403).",
    // The clients entry declares reporting's tokens user-less (a patch's null would remove the key, not declare it).
    profile: {
      auth: {
        oauth2: {
          user: null,
          otherClient: null,
          clients: [{ clientId: 'reporting', clientSecret: 'rep-secret', grants: ['client_credentials'], user: null }],
        },
      },
    },
    excludes: ['oauth2-password-only', 'oauth2-code-pkce-only'],
  },
  'oauth2-code-pkce-only': {
    description:
      "The OAuth 2 token endpoint offers the authorization code grant only (RFC 6749 §4.1), with PKCE required (RFC 7636, S256): GET /oauth2/authorize with the resource owner's Basic credentials redirects to the registered redirect URI with a code; the code is exchanged once, with the same redirect_uri and the code_verifier, for a token acting for that owner and a refresh token (§6). A code used twice is refused and its tokens revoked.",
    profile: {
      auth: {
        oauth2: {
          grants: ['authorization_code', 'refresh_token'],
          pkce: true,
          otherClient: { grants: ['authorization_code', 'refresh_token'] },
        },
      },
    },
    excludes: ['oauth2-password-only', 'oauth2-client-no-user', 'oauth2-unauthorized-client'],
  },
  'oauth2-refresh-rotation': {
    description:
      'A refresh (RFC 6749 §6) issues a new refresh token and forgets the one sent: the old one is refused from then on (§6: the server MAY issue a new refresh token and revoke the old one).',
    profile: { auth: { oauth2: { refreshRotation: true } } },
  },
} as const;
