/**
 * Profile: what a target offers where the spec leaves room (CONTRACT.md "Profiles"). Unknown keys are errors.
 * `resolveProfile` fills every default once, so the runner never asks "is this set?".
 */
import { z } from 'zod';

const PathTemplate = z.string().regex(/^\//, 'a path starts with "/"');
const Url = z.string().regex(/^https?:\/\/[^\s]+$/, 'an http:// or https:// URL');
/** Resources OPTIONS may be implemented on: the article collection and items, `/`, the per-user records. */
export const OptionsResourceSchema = z.enum(['collection', 'item', 'root', 'records']);
export const SchemeSchema = z.enum(['basic', 'hmac', 'hmac-nonce', 'oauth2', 'oauth1']);

export const ProfileSchema = z.strictObject({
  $schema: z.string().optional(),
  target: z
    .strictObject({
      http: Url.optional().describe('Plain-HTTP base URL.'),
      https: Url.optional().describe('TLS base URL.'),
      insecure: z.boolean().optional().describe('Accept a self-signed certificate.'),
      origins: z
        .array(Url)
        .optional()
        .describe(
          "Other origins that are the target's own (e.g. the public URL in front of a proxy): a Location on one of them is read through the base URL. When set, an absolute Location on any other origin fails; unset, any absolute Location is read through the base URL by its path.",
        ),
    })
    .optional(),
  users: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        password: z.string().optional().describe('Basic password; may contain ":" (RFC 7617).'),
        secret: z.string().optional().describe('HMAC shared secret.'),
      }),
    )
    .optional(),
  articles: z
    .strictObject({
      collection: PathTemplate.optional().describe('POST here creates. Default /articles.'),
      item: PathTemplate.optional().describe('Canonical item path with {id}. Default /articles/{id}.'),
      aliases: z.array(PathTemplate).optional().describe('Other path forms that accept PUT for the same resource.'),
      clientChosenPut: z.boolean().optional().describe('PUT may create at a client-chosen URL. Default true.'),
      readable: z.boolean().optional().describe('GET on an item returns the representation. Default true.'),
      deletable: z.boolean().optional().describe('DELETE on an item is supported. Default false.'),
      writeAuth: z.boolean().optional().describe('PUT/POST/DELETE need authentication. Default false.'),
      mediaType: z.string().optional().describe('Content-Type sent with article bodies. Default application/xml.'),
      optionalFields: z.array(z.string().regex(/^[A-Za-z_][\w.-]*$/)).optional().describe('Optional text child elements of <article> that the target stores and returns.'),
      replaceStatus: z.array(z.number().int().min(200).max(299)).min(1).optional().describe('Statuses of a successful replace. Default [200, 204] (RFC 9110 §9.3.4).'),
      bounds: z
        .strictObject({
          priceScale: z.number().int().min(1).max(18).optional().describe('Fraction digits of a price the target stores exactly. Default 2.'),
          priceMax: z.string().regex(/^[0-9]+(\.[0-9]+)?$/, 'a non-negative decimal such as "99999.99"').optional().describe('Largest price the target stores exactly, as decimal text. Default "99999.99".'),
          titleMaxLength: z.number().int().min(1).max(10_000).optional().describe('Longest title (and optional text field) the target stores exactly, in Unicode code points. Default 100.'),
        })
        .optional()
        .describe('Value bounds (§2: "not shown"). Inside them values must round-trip exactly; beyond them a target may refuse with a 4xx but never store an altered value.'),
    })
    .optional(),
  options: z
    .strictObject({
      implemented: z
        .union([z.boolean(), z.array(OptionsResourceSchema).min(1)])
        .optional()
        .describe('Where the target implements OPTIONS (§4.3 rule 3): true (everywhere), false (nowhere), or a list of collection, item, root, records. Default true.'),
      allowDependsOnAuth: z
        .boolean()
        .optional()
        .describe('Without valid credentials, OPTIONS on a resource that needs them lists no write method (§4.3 rule 2: "can receive a shorter list"). Default false: only checked when declared.'),
    })
    .optional(),
  oob: z
    .strictObject({
      listen: z
        .string()
        .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}$/, 'host:port, such as "0.0.0.0:8099" or "[::]:0"')
        .optional()
        .describe("Where the harness's out-of-band listener binds, host:port (port 0: any free port). Default 127.0.0.1:0."),
      url: z
        .string()
        .url()
        .optional()
        .describe('The base URL the target reaches that listener by (when the target runs on another host). Default: http://<listen host>:<bound port>; without it, scenarios needing the listener are skipped for a target that is not on loopback.'),
    })
    .optional()
    .describe('Out-of-band listener: scenarios about external entities (server-side requests) pass its URL to the target and fail when it is contacted.'),
  protected: z
    .array(
      z.strictObject({
        path: PathTemplate,
        ownerOnly: z.boolean().optional().describe('Only {user} may read it.'),
      }),
    )
    .optional(),
  auth: z
    .strictObject({
      schemes: z.array(SchemeSchema).optional().describe('The schemes the target supports.'),
      hmacHeader: z.string().optional().describe('Header carrying `hmac …` credentials. Default Authentication.'),
      window: z.number().positive().optional().describe('Accepted clock difference, seconds. Default 600.'),
      bodyHash: z.boolean().optional().describe('§5.2 rule 6 extension in use. Default false.'),
      tlsOnly: z.array(SchemeSchema).optional().describe('Schemes refused over plain HTTP. Default [basic, oauth2, oauth1].'),
      nonceScope: z.enum(['user', 'global']).optional().describe('Whether a nonce is used once per user or once for all users. Unset: not checked.'),
      windowMargin: z.number().min(0).optional().describe('Seconds kept clear of the window edge when testing it (transit time). Default 5.'),
      refusalStatus: z
        .array(z.number().int().min(400).max(499))
        .min(1)
        .optional()
        .describe(
          'Statuses of a refusal of missing or wrong credentials. Default: any 4xx that means a refusal (all but 404, 405, 406, 408–417, 421, 422, 425, 426, 428, 429, 431, 451). A challenge is required only with 401.',
        ),
      nonceMax: z
        .union([z.string().regex(/^[1-9][0-9]*$/, 'a decimal integer without leading zeros'), z.number().int().positive()])
        .refine((v) => BigInt(v) >= 10n ** 16n - 1n, 'nonceMax must be at least 9999999999999999: fresh nonces carry 16 digits from the clock')
        .optional()
        .describe('Largest nonce the target accepts, as a decimal integer (text for values beyond 2^53). At least 10^16 − 1. Default 9223372036854775807 (signed 64-bit).'),
      signedPathIncludesQuery: z
        .boolean()
        .optional()
        .describe('The <path> of a signed request (§5.2) includes "?query" when there is one. Default true; false: the path alone is signed, and auth/hmac-binds-query is skipped.'),
      nonceMemoryWait: z
        .number()
        .positive()
        .optional()
        .describe('Opt-in: seconds auth/nonce-remembered-in-window waits before replaying a nonce whose Date is still inside the window (must stay below window − windowMargin). Unset: that scenario is skipped.'),
      nonceLeadingZeros: z.boolean().optional().describe('Nonces with leading zeros are distinct nonces the target accepts. Default false: no generated nonce has one.'),
      strictDate: z
        .boolean()
        .optional()
        .describe('The target refuses every Date of the date-and-nonce form not of the shape "DD Mon YYYY hh:mm:ss". Default false: only dates malformed under any reading are sent.'),
      oauth2: z
        .strictObject({
          tokenEndpoint: PathTemplate.describe('Client credentials grant (RFC 6749 §4.4).'),
          clientAuth: z
            .array(z.enum(['basic', 'form']))
            .min(1)
            .optional()
            .describe('Client authentication methods the token endpoint supports (RFC 6749 §2.3.1: Basic is required, form fields optional). Default [basic].'),
          clientId: z.string(),
          clientSecret: z.string(),
          user: z.string().optional().describe('Whose protected resources the token opens.'),
          ttl: z.number().positive().optional().describe('Token lifetime, seconds.'),
          revokeEndpoint: PathTemplate.optional().describe('Token revocation (RFC 7009).'),
          otherClient: z
            .strictObject({ clientId: z.string(), clientSecret: z.string(), user: z.string() })
            .optional()
            .describe("A second client acting for another user: its tokens must not open the first user's resources."),
        })
        .optional(),
      oauth1: z
        .strictObject({
          consumerKey: z.string(),
          consumerSecret: z.string(),
          temporaryEndpoint: PathTemplate.describe('Temporary credentials (RFC 5849 §2.1).'),
          authorizeEndpoint: PathTemplate.describe('Resource owner authorization (§2.2); the user authenticates with Basic.'),
          tokenEndpoint: PathTemplate.describe('Token credentials (§2.3).'),
          user: z.string().optional().describe('The resource owner who approves (a profile user with a password).'),
          otherConsumer: z
            .strictObject({ consumerKey: z.string(), consumerSecret: z.string() })
            .optional()
            .describe("A second consumer of the target: its secret must not verify a request naming consumerKey (identity binding)."),
        })
        .optional()
        .describe('OAuth 1.0a (RFC 5849), HMAC-SHA1.'),
    })
    .optional(),
});

export type ProfileData = z.infer<typeof ProfileSchema>;
export type Scheme = z.infer<typeof SchemeSchema>;
export type OptionsResource = z.infer<typeof OptionsResourceSchema>;

/** Bounds of article values the target stores exactly (`articles.bounds`), resolved. */
export interface ArticleBounds {
  priceScale: number;
  /** Decimal text. */
  priceMax: string;
  titleMaxLength: number;
}

/** Defaults of `articles.bounds`: ordinary values any store keeps (DECIMAL(7,2), a 100-character column). */
export const DEFAULT_BOUNDS: Readonly<ArticleBounds> = { priceScale: 2, priceMax: '99999.99', titleMaxLength: 100 };
const OPTIONS_RESOURCES: readonly OptionsResource[] = ['collection', 'item', 'root', 'records'];

/** `oob.listen` ("host:port", brackets around an IPv6 host) and `oob.url`, resolved. */
function resolveOob(o: { listen?: string | undefined; url?: string | undefined } | undefined): ResolvedProfile['oob'] {
  const m = /^\[?(.*?)\]?:([0-9]+)$/.exec(o?.listen ?? '127.0.0.1:0');
  return { host: m?.[1] ?? '127.0.0.1', port: Number(m?.[2] ?? 0), ...(o?.url !== undefined ? { url: o.url.replace(/\/+$/, '') } : {}) };
}

/** A profile with every default filled. */
export interface ResolvedProfile {
  file: string;
  target: { http?: string; https?: string; insecure: boolean; origins?: string[] };
  users: Array<{ name: string; password?: string; secret?: string }>;
  articles: {
    collection: string;
    item: string;
    aliases: string[];
    clientChosenPut: boolean;
    readable: boolean;
    deletable: boolean;
    writeAuth: boolean;
    mediaType: string;
    optionalFields: string[];
    replaceStatus: number[];
    bounds: ArticleBounds;
  };
  /** `implemented`: OPTIONS is implemented on the collection and the items; `on`: every resource it is implemented on. */
  options: { implemented: boolean; on: OptionsResource[]; allowDependsOnAuth: boolean };
  /** The out-of-band listener: where it binds, and the URL the target reaches it by (when set). */
  oob: { host: string; port: number; url?: string };
  protected: Array<{ path: string; ownerOnly: boolean }>;
  auth: {
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
    oauth2?: {
      tokenEndpoint: string;
      clientAuth: Array<'basic' | 'form'>;
      clientId: string;
      clientSecret: string;
      user?: string;
      ttl?: number;
      revokeEndpoint?: string;
      otherClient?: { clientId: string; clientSecret: string; user: string };
    };
    oauth1?: {
      consumerKey: string;
      consumerSecret: string;
      temporaryEndpoint: string;
      authorizeEndpoint: string;
      tokenEndpoint: string;
      user?: string;
      otherConsumer?: { consumerKey: string; consumerSecret: string };
    };
  };
}

/** The largest signed 64-bit integer: the default `auth.nonceMax`. */
export const INT64_MAX = '9223372036854775807';

export function resolveProfile(data: ProfileData, file: string): ResolvedProfile {
  const a = data.articles ?? {};
  const auth = data.auth ?? {};
  return {
    file,
    target: { ...stripUndefined({ http: data.target?.http, https: data.target?.https, origins: data.target?.origins }), insecure: data.target?.insecure ?? false },
    users: (data.users ?? []).map((u) => ({ ...u })),
    articles: {
      collection: a.collection ?? '/articles',
      item: a.item ?? '/articles/{id}',
      aliases: a.aliases ?? [],
      clientChosenPut: a.clientChosenPut ?? true,
      readable: a.readable ?? true,
      deletable: a.deletable ?? false,
      writeAuth: a.writeAuth ?? false,
      mediaType: a.mediaType ?? 'application/xml',
      optionalFields: a.optionalFields ?? [],
      replaceStatus: a.replaceStatus ?? [200, 204],
      bounds: { ...DEFAULT_BOUNDS, ...stripUndefined({ ...a.bounds }) },
    },
    options: { ...resolveOptions(data.options?.implemented ?? true), allowDependsOnAuth: data.options?.allowDependsOnAuth ?? false },
    oob: resolveOob(data.oob),
    protected: (data.protected ?? []).map((p) => ({ path: p.path, ownerOnly: p.ownerOnly ?? false })),
    auth: {
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
        oauth2: auth.oauth2 && { ...auth.oauth2, clientAuth: auth.oauth2.clientAuth ?? ['basic'], user: auth.oauth2.user ?? data.users?.[0]?.name },
        oauth1: auth.oauth1 && { ...auth.oauth1, user: auth.oauth1.user ?? data.users?.[0]?.name },
        nonceScope: auth.nonceScope,
      }),
    },
  };
}

function resolveOptions(implemented: boolean | OptionsResource[]): Omit<ResolvedProfile['options'], 'allowDependsOnAuth'> {
  const on = implemented === true ? [...OPTIONS_RESOURCES] : implemented === false ? [] : OPTIONS_RESOURCES.filter((r) => implemented.includes(r));
  return { implemented: on.includes('collection') && on.includes('item'), on };
}

function stripUndefined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
