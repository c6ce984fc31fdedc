/**
 * Profile: what a target offers where the spec leaves room (CONTRACT.md "Profiles"). Unknown keys are errors.
 * `resolveProfile` fills every default once, so the runner never asks "is this set?".
 */
import { z } from 'zod';
import { AuthSchema, resolveAuth, type ResolvedAuth } from './auth-schema.js';
import { PathTemplate, Url, declaredKeys, stripUndefined } from './fields.js';
import { finishOAuth2 } from './oauth2-actors.js';
import { OptionsResourceSchema, resolveOob, resolveOptions, type OptionsResource } from './resolve-parts.js';

import {
  DEFAULT_BOUNDS,
  DEFAULT_PROTECTED,
  TEXT_NORMALIZATIONS_LENIENT,
  TextNormalizationSchema,
  type ArticleBounds,
  type TextNormalization,
} from './defaults.js';
export * from './defaults.js';
export { declaredKeys } from './fields.js';
export { OptionsResourceSchema, resolveOptionsOn } from './resolve-parts.js';
export {
  INT64_MAX,
  SchemeSchema,
  type AuthData,
  type Grant,
  type OAuth2Actor,
  type ResolvedAuth,
  type ResolvedOAuth2,
  type ResolvedOAuth2Client,
  type Scheme,
} from './auth-schema.js';

/** One instance of a clustered target: its own plain and TLS base URLs (at least one). */
export const InstanceSchema = z
  .strictObject({
    http: Url.optional().describe("This instance's plain-HTTP base URL."),
    https: Url.optional().describe("This instance's TLS base URL."),
  })
  .refine((i) => i.http !== undefined || i.https !== undefined, 'an instance needs http or https (or both)');

/** A target's profile (format v1): what the service offers where the spec leaves room; the source of `profile.v1.schema.json` and `docs/profile-keys.md`. */
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
      instances: z
        .array(InstanceSchema)
        .optional()
        .describe(
          'The instances behind the load-balanced target (a cluster), each with its own base URLs; the first is instance 1. The cluster scenarios send to them directly (with the Host of the target, as the balancer would) and need two or more; without them they are skipped. Default: none.',
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
      optionalFields: z
        .array(z.string().regex(/^[A-Za-z_][\w.-]*$/))
        .optional()
        .describe('Optional text child elements of <article> that the target stores and returns.'),
      textNormalization: z
        .array(TextNormalizationSchema)
        .refine(
          (l) => !(l.includes('nfc') && l.includes('nfd')),
          'a store keeps one Unicode form: nfc or nfd, not both',
        )
        .refine((l) => new Set(l).size === l.length, 'each normalization once')
        .optional()
        .describe(
          'How the target stores article text (the title and the optional fields), when not exactly as sent: trim (edge whitespace removed), collapse (whitespace runs become one space), nfc or nfd (a Unicode canonical form). Text is compared modulo these (RFC 9110 §9.3.4 lets a server transform a representation to fit its constraints). [] declares exact storage, and each of them is then a failure. Unset: learned from the target before the first scenario. Truncation, compatibility folding (NFKC) and replaced characters are failures under any value.',
        ),
      replaceStatus: z
        .array(z.number().int().min(200).max(299))
        .min(1)
        .optional()
        .describe('Statuses of a successful replace. Default [200, 204] (RFC 9110 §9.3.4).'),
      maxBodyBytes: z
        .number()
        .int()
        .min(1)
        .max(16 * 1024 * 1024)
        .optional()
        .describe(
          'The largest article body the target accepts, in bytes (§8: "payload size limits: not shown"). A larger one may be refused with a 4xx (413), never acknowledged and dropped. Unset: not declared, and articles/oversized-* are skipped.',
        ),
      bounds: z
        .strictObject({
          priceScale: z
            .number()
            .int()
            .min(1)
            .max(18)
            .optional()
            .describe('Fraction digits of a price the target stores exactly. Default 2.'),
          priceMax: z
            .string()
            .regex(/^[0-9]+(\.[0-9]+)?$/, 'a non-negative decimal such as "99999.99"')
            .optional()
            .describe('Largest price the target stores exactly, as decimal text. Default "99999.99".'),
          titleMaxLength: z
            .number()
            .int()
            .min(1)
            .max(10_000)
            .optional()
            .describe(
              'Longest title (and optional text field) the target stores exactly, in Unicode code points. Default 50.',
            ),
        })
        .optional()
        .describe(
          'Value bounds (§2: "not shown"). Inside them values must round-trip exactly; beyond them a target may refuse with a 4xx but never store an altered value.',
        ),
    })
    .optional(),
  options: z
    .strictObject({
      implemented: z
        .union([z.boolean(), z.array(OptionsResourceSchema).min(1)])
        .optional()
        .describe(
          'Where the target implements OPTIONS (§4.3 rule 3): true (everywhere), false (nowhere), or a list of collection, item, root, records. Default true.',
        ),
      allowDependsOnAuth: z
        .boolean()
        .optional()
        .describe(
          'Without valid credentials, OPTIONS on a resource that needs them lists no write method (§4.3 rule 2: "can receive a shorter list"). Default false: only checked when declared.',
        ),
    })
    .optional(),
  oob: z
    .strictObject({
      listen: z
        .string()
        .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}$/, 'host:port, such as "0.0.0.0:8099" or "[::]:0"')
        .optional()
        .describe(
          "Where the harness's out-of-band listener binds, host:port (port 0: any free port). Default 127.0.0.1:0.",
        ),
      url: z
        .string()
        .url()
        .optional()
        .describe(
          'The base URL the target reaches that listener by (when the target runs on another host). Default: http://<listen host>:<bound port>; without it, scenarios needing the listener are skipped for a target that is not on loopback.',
        ),
    })
    .optional()
    .describe(
      'Out-of-band listener: scenarios about external entities (server-side requests) pass its URL to the target and fail when it is contacted.',
    ),
  protected: z
    .array(
      z.strictObject({
        path: PathTemplate,
        ownerOnly: z.boolean().optional().describe('Only {user} may read it.'),
      }),
    )
    .optional(),
  auth: AuthSchema.optional(),
});

export type ProfileData = z.infer<typeof ProfileSchema>;
export type { OptionsResource } from './resolve-parts.js';

/** A profile with every default filled. */
export interface ResolvedProfile {
  file: string;
  /** `instances`: the instances of a cluster behind the target, in the profile's order (empty: one server). */
  target: {
    http?: string;
    https?: string;
    insecure: boolean;
    origins?: string[];
    instances: Array<{ http?: string; https?: string }>;
  };
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
    /** Meaning-preserving normalizations of article text the target applies (`[]`: stored exactly). */
    textNormalization: TextNormalization[];
    replaceStatus: number[];
    bounds: ArticleBounds;
    maxBodyBytes?: number;
  };
  /** `implemented`: OPTIONS is implemented on the collection and the items; `on`: every resource it is implemented on. */
  options: { implemented: boolean; on: OptionsResource[]; allowDependsOnAuth: boolean };
  /** The out-of-band listener: where it binds, and the URL the target reaches it by (when set). */
  oob: { host: string; port: number; url?: string };
  protected: Array<{ path: string; ownerOnly: boolean }>;
  auth: ResolvedAuth;
  /**
   * The keys the profile file gives, as dotted paths (`auth.schemes`, `articles.bounds.priceScale`, `protected`):
   * an open point whose key is absent is silent, and the harness learns the target's choice before it judges
   * (harness/src/learn/). A list counts as one key.
   */
  declared: ReadonlySet<string>;
}

/**
 * The per-user protected path the scenarios read a user's records at: the first protected path with `{user}`, an
 * owner-only one first. Undefined when the profile has none.
 */
export function recordsPathOf(profile: Pick<ResolvedProfile, 'protected'>): string | undefined {
  const perUser = profile.protected.filter((r) => r.path.includes('{user}'));
  return (perUser.find((r) => r.ownerOnly) ?? perUser[0])?.path;
}

/** A validated profile with every default filled in (`file` names it in messages and reports). */
export function resolveProfile(data: ProfileData, file: string): ResolvedProfile {
  const a = data.articles ?? {};
  const resolved: ResolvedProfile = {
    file,
    target: {
      ...stripUndefined({ http: data.target?.http, https: data.target?.https, origins: data.target?.origins }),
      insecure: data.target?.insecure ?? false,
      instances: (data.target?.instances ?? []).map((i) => stripUndefined({ http: i.http, https: i.https })),
    },
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
      textNormalization: a.textNormalization ?? [...TEXT_NORMALIZATIONS_LENIENT],
      replaceStatus: a.replaceStatus ?? [200, 204],
      bounds: { ...DEFAULT_BOUNDS, ...stripUndefined({ ...a.bounds }) },
      ...(a.maxBodyBytes !== undefined ? { maxBodyBytes: a.maxBodyBytes } : {}),
    },
    options: {
      ...resolveOptions(data.options?.implemented ?? true),
      allowDependsOnAuth: data.options?.allowDependsOnAuth ?? false,
    },
    oob: resolveOob(data.oob),
    protected:
      data.protected === undefined
        ? DEFAULT_PROTECTED.map((p) => ({ ...p }))
        : data.protected.map((p) => ({ path: p.path, ownerOnly: p.ownerOnly ?? false })),
    auth: resolveAuth(data.auth ?? {}, data.users?.[0]?.name),
    declared: new Set(declaredKeys(data)),
  };
  finishOAuth2(resolved);
  return resolved;
}
