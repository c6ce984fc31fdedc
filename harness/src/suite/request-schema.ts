/** A step's request in the scenario format: method, path, fields, body, and the credentials (`auth`). */
import { z } from 'zod';
import { Template } from './schema-parts.js';

export const RequestBody = z.union([
  z.strictObject({
    article: Template.describe(
      'An article value (usually `{{ name }}` of a generated article), serialized as XML by the harness.',
    ),
  }),
  z.strictObject({ raw: Template.describe('Sent as-is (after templating).') }),
  z.strictObject({ form: z.record(z.string(), Template).describe('application/x-www-form-urlencoded fields.') }),
]);

export const AuthSpec = z.union([
  z
    .enum(['auto', 'none'])
    .describe('auto (default): credentials when the profile says the request needs them; none: never.'),
  z.strictObject({
    scheme: z
      .union([
        z.enum(['basic', 'hmac', 'hmac-nonce', 'oauth2', 'oauth1', 'oauth2-client']),
        z.string().regex(/^\{\{.*\}\}$/),
      ])
      .describe('A scheme, or a template rendering to one.'),
    user: Template.optional().describe('User name from the profile (default: the first user).'),
    secretOf: Template.optional().describe(
      "basic, hmac, hmac-nonce: name `user` but sign with (or send the password of) this other profile user; oauth1: name the profile's consumer but sign with the secret of the consumer with this key (auth.oauth1.otherConsumer) (identity binding).",
    ),
    passwordMutation: Template.optional().describe(
      'Basic: a mutation (from the passwordMutation generator) applied to the password sent.',
    ),
    nonce: Template.optional().describe('Exact nonce (default: a fresh one).'),
    date: Template.optional().describe('Exact Date text (default: the harness clock).'),
    skew: Template.optional().describe('Seconds added to the harness clock for the Date.'),
    omitDate: z.boolean().optional().describe('Send no Date header.'),
    signAs: z
      .strictObject({
        method: Template.optional(),
        path: Template.optional(),
        date: Template.optional(),
        nonce: Template.optional(),
        body: Template.optional(),
        simple: z
          .boolean()
          .optional()
          .describe('Sign the simple-form message (VERB+path) although the date-and-nonce header is sent.'),
        url: Template.optional().describe("oauth1: sign for this path and query instead of the request's."),
      })
      .optional()
      .describe("Compute the digest over these values instead of the request's own."),
    digestMutation: Template.optional().describe(
      'A mutation (from the digestMutation generator) applied to the digest.',
    ),
    bodyHash: z
      .boolean()
      .optional()
      .describe('false: sign a PUT/POST without the body hash although the profile uses it.'),
    token: Template.optional().describe(
      'oauth2: the access token; oauth1: the token (temporary or token credentials).',
    ),
    tokenSecret: Template.optional().describe('oauth1: the token secret.'),
    verifier: Template.optional().describe('oauth1: oauth_verifier (token credentials request).'),
    callback: Template.optional().describe('oauth1: oauth_callback (temporary credentials request), e.g. oob.'),
    placement: z
      .union([z.enum(['header', 'query', 'form']), z.string().regex(/^\{\{.*\}\}$/)])
      .optional()
      .describe('oauth1: where the protocol parameters go (default header).'),
    signatureMethod: z
      .union([z.enum(['HMAC-SHA1', 'HMAC-SHA256', 'PLAINTEXT']), z.string().regex(/^\{\{.*\}\}$/)])
      .optional()
      .describe(
        'oauth1: HMAC-SHA1 (default), or PLAINTEXT (RFC 5849 §3.4.4: oauth_signature is enc(consumer secret)&enc(token secret); digestMutation then changes that text).',
      ),
    omitParams: z
      .array(z.enum(['oauth_nonce', 'oauth_timestamp', 'oauth_version']))
      .optional()
      .describe('oauth1: leave these protocol parameters out (and out of the signature base string).'),
    omitRealm: z
      .boolean()
      .optional()
      .describe(
        "oauth1: send no realm in the Authorization header, although the profile's auth.oauth1.realm names one.",
      ),
    actor: Template.optional().describe(
      'oauth2: obtain the token of this OAuth 2 actor ({ clientId, grant, user }, e.g. "{{ profile.auth.oauth2.code }}"), kept for the run.',
    ),
    tokenMutation: Template.optional().describe(
      'oauth2: a mutation applied to the token sent (forged, truncated tokens).',
    ),
    secretMutation: Template.optional().describe('oauth2-client: a mutation applied to the client secret sent.'),
    clientAuth: z
      .union([z.enum(['basic', 'basic-encoded', 'form']), z.string().regex(/^\{\{.*\}\}$/)])
      .optional()
      .describe(
        'oauth2-client: Basic (default), Basic with id and secret fully percent-encoded, or client_id/client_secret form fields.',
      ),
    otherClient: z
      .boolean()
      .optional()
      .describe("oauth2-client: authenticate as the profile's auth.oauth2.otherClient."),
    client: Template.optional().describe('oauth2-client: authenticate as this client of auth.oauth2.clients (its id).'),
    grant: Template.optional().describe(
      "oauth2-client: add the parameters of this grant (client_credentials, password, refresh_token) to the form body: grant_type, and for password the user's username and password (TLS only).",
    ),
    refreshToken: Template.optional().describe('oauth2-client, grant refresh_token: the refresh token.'),
    code: Template.optional().describe('oauth2-client, grant authorization_code: the code.'),
    redirectUri: Template.optional().describe(
      'oauth2-client, grant authorization_code: the redirect_uri (sent only when given and not empty).',
    ),
    codeVerifier: Template.optional().describe(
      'oauth2-client, grant authorization_code: the PKCE code_verifier (sent only when given and not empty).',
    ),
    clientSecret: z
      .union([z.enum(['omit', 'empty']), z.string().regex(/^\{\{.*\}\}$/)])
      .optional()
      .describe(
        'oauth2-client: send the client id with no secret (omit) or an empty one: a client that does not authenticate.',
      ),
    asConsumer: Template.optional().describe(
      "oauth1: name this consumer (the profile's auth.oauth1.otherConsumer, by key) and sign with its own secret.",
    ),
  }),
]);

export const RequestSchema = z.strictObject({
  method: Template,
  path: Template.describe('Path (with optional query) below the target base URL.'),
  headers: z
    .record(z.string(), z.union([Template, z.array(Template).min(1)]))
    .optional()
    .describe('Request fields. A list sends the field once per value, in order (a repeated field).'),
  addHeaders: z
    .record(
      z.string(),
      z.strictObject({
        before: z
          .union([Template, z.array(Template).min(1)])
          .optional()
          .describe('Lines sent before the value the request already carries.'),
        after: z
          .union([Template, z.array(Template).min(1)])
          .optional()
          .describe('Lines sent after it.'),
      }),
    )
    .optional()
    .describe(
      'Field lines added once the credentials are applied: with a name the request already carries (the signed `Authentication`), that field is then sent more than once — a valid credential beside a junk one, in either order.',
    ),
  body: RequestBody.optional(),
  auth: AuthSpec.optional(),
  via: z
    .enum(['plain', 'tls', 'credentials'])
    .optional()
    .describe(
      "Send to the profile's plain-HTTP or TLS base URL, or where the harness's credentials go (`credentials`: the primary target, or TLS when every usable scheme is TLS-only — so a request without credentials can share the connection of one with them). Default: TLS when the scheme is TLS-only, else the primary target.",
    ),
  bodyAfterSigning: z
    .union([
      RequestBody,
      z.strictObject({
        mutate: Template.describe('A mutation (from the bodyMutation generator) applied to the signed body text.'),
      }),
    ])
    .optional()
    .describe('Replace the body after the request was signed (tampering).'),
});
