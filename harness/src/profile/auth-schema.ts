/**
 * The `auth` part of a profile (CONTRACT.md "Profiles"): the schemes a target supports and how it applies them —
 * the signed-request header, the Date window, nonces, refusals, OAuth 2 and OAuth 1 endpoints and credentials — and
 * its resolution with every default filled.
 */
import { z } from 'zod';
import { PathTemplate, stripUndefined } from './fields.js';
import { OAuth2Schema, resolveOAuth2, type ResolvedOAuth2 } from './oauth2-schema.js';

export {
  GrantSchema,
  OAuth2ClientSchema,
  type Grant,
  type OAuth2Actor,
  type ResolvedOAuth2,
  type ResolvedOAuth2Client,
} from './oauth2-schema.js';

export const SchemeSchema = z.enum(['basic', 'hmac', 'hmac-nonce', 'oauth2', 'oauth1']);

/** The profile's `auth` key. Unknown keys are errors. */
export const AuthSchema = z.strictObject({
  schemes: z.array(SchemeSchema).optional().describe('The schemes the target supports.'),
  hmacHeader: z.string().optional().describe('Header carrying `hmac …` credentials. Default Authentication.'),
  window: z.number().positive().optional().describe('Accepted clock difference, seconds. Default 600.'),
  bodyHash: z.boolean().optional().describe('§5.2 rule 6 extension in use. Default false.'),
  tlsOnly: z
    .array(SchemeSchema)
    .optional()
    .describe('Schemes refused over plain HTTP. Default [basic, oauth2, oauth1].'),
  nonceScope: z
    .enum(['user', 'global'])
    .optional()
    .describe('Whether a nonce is used once per user or once for all users. Unset: not checked.'),
  windowMargin: z
    .number()
    .min(0)
    .optional()
    .describe('Seconds kept clear of the window edge when testing it (transit time). Default 5.'),
  refusalStatus: z
    .array(z.number().int().min(400).max(499))
    .min(1)
    .optional()
    .describe(
      'Statuses of a refusal of missing or wrong credentials. Default: any 4xx that means a refusal (all but 404, 405, 406, 408–417, 421, 422, 425, 426, 428, 429, 431, 451). A challenge is required only with 401.',
    ),
  nonceMax: z
    .union([z.string().regex(/^[1-9][0-9]*$/, 'a decimal integer without leading zeros'), z.number().int().positive()])
    .refine(
      (v) => BigInt(v) >= 10n ** 16n - 1n,
      'nonceMax must be at least 9999999999999999: fresh nonces carry 16 digits from the clock',
    )
    .optional()
    .describe(
      'Largest nonce the target accepts, as a decimal integer (text for values beyond 2^53). At least 10^16 − 1. Default 9223372036854775807 (signed 64-bit).',
    ),
  signedPathIncludesQuery: z
    .boolean()
    .optional()
    .describe(
      'The <path> of a signed request (§5.2) includes "?query" when there is one. Default true; false: the path alone is signed, and auth/hmac-binds-query is skipped.',
    ),
  nonceMemoryWait: z
    .number()
    .positive()
    .optional()
    .describe(
      'Opt-in: seconds auth/nonce-remembered-in-window waits before replaying a nonce whose Date is still inside the window (must stay below window − windowMargin). Unset: that scenario is skipped.',
    ),
  nonceLeadingZeros: z
    .boolean()
    .optional()
    .describe(
      'Nonces with leading zeros are distinct nonces the target accepts. Default false: no generated nonce has one.',
    ),
  strictDate: z
    .boolean()
    .optional()
    .describe(
      'The target refuses every Date of the date-and-nonce form not of the shape "DD Mon YYYY hh:mm:ss". Default false: only dates malformed under any reading are sent.',
    ),
  oauth2: OAuth2Schema.optional(),
  oauth1: z
    .strictObject({
      consumerKey: z.string(),
      consumerSecret: z.string(),
      temporaryEndpoint: PathTemplate.describe('Temporary credentials (RFC 5849 §2.1).'),
      authorizeEndpoint: PathTemplate.describe(
        "Resource owner authorization (§2.2). How the owner approves there is the server's choice: the harness finds it (GET with the token, the page's form, or a POST), unless approval pins it.",
      ),
      tokenEndpoint: PathTemplate.describe('Token credentials (§2.3).'),
      user: z
        .string()
        .optional()
        .describe(
          'The resource owner who approves (a profile user with a password or a secret). Default: the first user.',
        ),
      approval: z
        .strictObject({
          method: z
            .enum(['GET', 'POST'])
            .describe('GET: oauth_token in the query; POST: oauth_token and the fields in a form body.'),
          ownerScheme: z
            .enum(['basic', 'hmac', 'hmac-nonce'])
            .optional()
            .describe(
              'How the owner authenticates at the authorize endpoint. Default: the first the owner has credentials for (basic, hmac-nonce, hmac).',
            ),
          fields: z
            .record(z.string(), z.string())
            .optional()
            .describe('Extra form fields of the approving POST. Default: confirm=yes.'),
        })
        .optional()
        .describe(
          "Pins how the resource owner approves (RFC 5849 §2.2 leaves it to the server). Unset: found from the target's answers, the verifier read from a redirect's Location or the body.",
        ),
      tokensBoundToConsumer: z
        .boolean()
        .optional()
        .describe(
          'The target refuses token credentials used by another consumer than the one they were issued to (RFC 5849 §3.2: MAY). Unset: not checked.',
        ),
      placements: z
        .array(z.enum(['header', 'query', 'form']))
        .min(1)
        .optional()
        .describe(
          'Where the target takes OAuth protocol parameters (RFC 5849 §3.5 lets it choose). Default [header]: only the Authorization header is sent.',
        ),
      otherConsumer: z
        .strictObject({ consumerKey: z.string(), consumerSecret: z.string() })
        .optional()
        .describe(
          'A second consumer of the target: its secret must not verify a request naming consumerKey (identity binding).',
        ),
      signatureMethods: z
        .array(z.enum(['HMAC-SHA1', 'HMAC-SHA256', 'PLAINTEXT']))
        .min(1)
        .optional()
        .describe(
          'The signature methods the target takes (RFC 5849 §3.4 leaves them to the server; PLAINTEXT only over TLS). Unset: learned (HMAC-SHA1, and PLAINTEXT and HMAC-SHA256 where a request signed with them is taken).',
        ),
      realm: z
        .string()
        .optional()
        .describe(
          'The realm named in every Authorization: OAuth header (RFC 5849 §3.5.1: OPTIONAL). Unset: no realm is sent (a server may refuse a realm it was not configured with).',
        ),
    })
    .optional()
    .describe('OAuth 1.0a (RFC 5849), HMAC-SHA1.'),
});

/** An authentication scheme the harness can use: `basic`, `hmac`, `hmac-nonce`, `oauth2`, `oauth1`. */
export type Scheme = z.infer<typeof SchemeSchema>;
export type AuthData = z.infer<typeof AuthSchema>;

/** `auth` with every default filled. */
export interface ResolvedAuth {
  schemes: Scheme[];
  hmacHeader: string;
  window: number;
  bodyHash: boolean;
  tlsOnly: Scheme[];
  nonceScope?: 'user' | 'global';
  windowMargin: number;
  /** Statuses of a refusal; absent: any 4xx that means a refusal (see {@link isRefusalStatus}). */
  refusalStatus?: number[];
  /** Largest nonce the target accepts (decimal text). */
  nonceMax: string;
  nonceLeadingZeros: boolean;
  strictDate: boolean;
  /** Whether the signed <path> includes the query string (default true). */
  signedPathIncludesQuery: boolean;
  /** Seconds to wait before replaying a nonce still inside the window (opt-in). */
  nonceMemoryWait?: number;
  oauth2?: ResolvedOAuth2;
  oauth1?: {
    consumerKey: string;
    consumerSecret: string;
    temporaryEndpoint: string;
    authorizeEndpoint: string;
    tokenEndpoint: string;
    user?: string;
    otherConsumer?: { consumerKey: string; consumerSecret: string };
    approval?: {
      method: 'GET' | 'POST';
      ownerScheme?: 'basic' | 'hmac' | 'hmac-nonce';
      fields?: Record<string, string>;
    };
    tokensBoundToConsumer?: boolean;
    placements: Array<'header' | 'query' | 'form'>;
    /** The realm of the `Authorization: OAuth` header; absent: none is sent. */
    realm?: string;
    /** The signature methods the target takes (declared or learned; default HMAC-SHA1). */
    signatureMethods: Array<'HMAC-SHA1' | 'HMAC-SHA256' | 'PLAINTEXT'>;
  };
}

/** The largest signed 64-bit integer: the default `auth.nonceMax`. */
export const INT64_MAX = '9223372036854775807';

/** Fills the defaults of `auth`; the OAuth 2 client and OAuth 1 consumer act for `firstUser` unless they name a user. */
export function resolveAuth(auth: AuthData, firstUser: string | undefined): ResolvedAuth {
  return {
    schemes: auth.schemes ?? [],
    hmacHeader: auth.hmacHeader ?? 'Authentication',
    window: auth.window ?? 600,
    bodyHash: auth.bodyHash ?? false,
    tlsOnly: auth.tlsOnly ?? ['basic', 'oauth2', 'oauth1'],
    windowMargin: auth.windowMargin ?? 5,
    nonceMax: auth.nonceMax === undefined ? INT64_MAX : BigInt(auth.nonceMax).toString(),
    nonceLeadingZeros: auth.nonceLeadingZeros ?? false,
    strictDate: auth.strictDate ?? false,
    signedPathIncludesQuery: auth.signedPathIncludesQuery ?? true,
    ...stripUndefined({
      nonceMemoryWait: auth.nonceMemoryWait,
      refusalStatus: auth.refusalStatus,
      oauth2: auth.oauth2 && resolveOAuth2(auth.oauth2),
      oauth1: auth.oauth1 && {
        ...auth.oauth1,
        user: auth.oauth1.user ?? firstUser,
        placements: auth.oauth1.placements ?? ['header'],
        signatureMethods: auth.oauth1.signatureMethods ?? ['HMAC-SHA1'],
      },
      nonceScope: auth.nonceScope,
    }),
  };
}
