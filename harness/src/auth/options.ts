/** The per-request options of the authenticator: what a step can authenticate as, and the knobs that probe a target. */
import type { Grant, Scheme } from '../profile/schema.js';
import type { Mutation } from './mutations.js';

/** What a step can authenticate as: a profile scheme, or the OAuth 2 client itself (at the token endpoint). */
export type AuthScheme = Scheme | 'oauth2-client';

/** Per-request knobs, already rendered from the scenario. Everything is optional. */
export interface AuthOptions {
  /**
   * Basic, hmac, hmac-nonce: name the user but sign with (or send the password of) this other profile user, so a
   * target that checks the digest or password against any user's is caught (identity binding).
   */
  secretOf?: string;
  /** Basic: send the user's password changed by this mutation. */
  passwordMutation?: Mutation;
  /** Exact nonce to send (date-and-nonce form). */
  nonce?: string;
  /** Exact Date text to send. */
  date?: string;
  /** Seconds added to the harness clock for the Date. */
  skew?: number;
  /** Send no Date header (the digest is computed with an empty date text). */
  omitDate?: boolean;
  /** Compute the digest over these instead of the request's own values. */
  signAs?: { method?: string; path?: string; date?: string; nonce?: string; body?: string; simple?: boolean };
  /** Change the digest after computing it. */
  digestMutation?: Mutation;
  /** false: sign a PUT/POST without the body hash although the profile uses it. */
  bodyHash?: boolean;
  /** oauth2: the access token; oauth1: the token. */
  token?: string;
  /** oauth1: the token secret. */
  tokenSecret?: string;
  /** oauth1: oauth_verifier. */
  verifier?: string;
  /** oauth1: oauth_callback. */
  callback?: string;
  /** oauth1: where the protocol parameters travel (default the Authorization header). */
  placement?: 'header' | 'query' | 'form';
  /** oauth2: change the token sent. */
  tokenMutation?: Mutation;
  /** oauth2-client: change the client secret sent. */
  secretMutation?: Mutation;
  /**
   * oauth2-client: Basic (default, unless the profile's `auth.oauth2.clientAuth` lacks it), Basic with every
   * character percent-encoded (RFC 6749 §2.3.1 has the server form-urldecode id and secret, so this must work too),
   * or form fields (only when `auth.oauth2.clientAuth` lists form).
   */
  clientAuth?: 'basic' | 'basic-encoded' | 'form';
  /** oauth2-client: authenticate as the profile's second client (`auth.oauth2.otherClient`). */
  otherClient?: boolean;
  /** oauth2-client: authenticate as this client of `auth.oauth2.clients` (by id). */
  client?: string;
  /**
   * oauth2-client: add this grant's parameters to the form body (RFC 6749 §4.1.3, §4.3.2, §4.4.2, §6): `grant_type`,
   * and for `password` the user's `username` and `password` (changed by `passwordMutation`), TLS only.
   */
  grant?: Grant;
  /** oauth2-client, grant refresh_token: the refresh token. */
  refreshToken?: string;
  /** oauth2-client, grant authorization_code: the code. */
  code?: string;
  /** oauth2-client, grant authorization_code: the `redirect_uri` (sent only when given). */
  redirectUri?: string;
  /** oauth2-client, grant authorization_code: the PKCE `code_verifier` (sent only when given). */
  codeVerifier?: string;
  /** oauth2-client: the client id with no secret (`omit`: no password in Basic, no client_secret field) or an empty one. */
  clientSecret?: 'omit' | 'empty';
  /** oauth1: name this consumer (the profile's `auth.oauth1.otherConsumer`, by key) and sign with its own secret. */
  asConsumer?: string;
  /** oauth1: sign for this path and query instead of the request's own. */
  signUrl?: string;
  /** oauth1: HMAC-SHA1 (default) or PLAINTEXT (RFC 5849 §3.4.4). */
  signatureMethod?: 'HMAC-SHA1' | 'HMAC-SHA256' | 'PLAINTEXT';
  /** oauth1: protocol parameters left out of the request and of the base string. */
  omitParams?: ReadonlyArray<'oauth_nonce' | 'oauth_timestamp' | 'oauth_version'>;
  /** oauth1: send no `realm` in the header although the profile declares one (RFC 5849 §3.5.1: it is OPTIONAL). */
  omitRealm?: boolean;
}
