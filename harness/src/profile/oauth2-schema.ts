/**
 * The `auth.oauth2` part of a profile: the token endpoint, the clients and the grants each takes (RFC 6749 §4), and
 * its resolution — every client listed, with the views the scenarios read filled in by oauth2-actors.ts.
 */
import { z } from 'zod';
import { PathTemplate, stripUndefined } from './fields.js';

/** The grants of RFC 6749 a client may take: §4.1, §4.3, §4.4 and §6. */
export const GrantSchema = z.enum(['authorization_code', 'password', 'client_credentials', 'refresh_token']);

/** One OAuth 2 client of `auth.oauth2.clients`. */
export const OAuth2ClientSchema = z.strictObject({
  clientId: z.string(),
  clientSecret: z.string(),
  grants: z
    .array(GrantSchema)
    .min(1)
    .optional()
    .describe("The grants it takes (RFC 6749 §4). Unset: learned from the token endpoint's answers."),
  user: z
    .string()
    .nullable()
    .optional()
    .describe(
      "client_credentials: the user its tokens act for; null: none (they open no user's owner-only records). Unset: learned.",
    ),
  ttl: z.number().positive().optional().describe('Its access token lifetime, seconds.'),
});

/** The profile's `auth.oauth2` key. Unknown keys are errors. */
export const OAuth2Schema = z
  .strictObject({
    tokenEndpoint: PathTemplate.describe('The token endpoint (RFC 6749 §3.2): every grant is asked for there.'),
    clientAuth: z
      .array(z.enum(['basic', 'form']))
      .min(1)
      .optional()
      .describe(
        'Client authentication methods the token endpoint supports (RFC 6749 §2.3.1: Basic is required, form fields optional). Default [basic].',
      ),
    clientId: z.string().optional().describe('The client (with clientSecret): the first of auth.oauth2.clients.'),
    clientSecret: z.string().optional(),
    grants: z
      .array(GrantSchema)
      .min(1)
      .optional()
      .describe("The grants clientId takes (RFC 6749 §4). Unset: learned from the token endpoint's answers."),
    user: z
      .string()
      .nullable()
      .optional()
      .describe(
        "Whose protected resources clientId's client-credentials tokens open; null: nobody's (they open no user's owner-only records). Unset: learned (the user whose records they open, or none).",
      ),
    ttl: z.number().positive().optional().describe("clientId's token lifetime, seconds."),
    revokeEndpoint: PathTemplate.optional().describe('Token revocation (RFC 7009).'),
    authorizeEndpoint: PathTemplate.optional().describe(
      "The authorization endpoint (RFC 6749 §3.1) of the authorization code grant: the resource owner approves there, the harness's way (Basic, a signed request, the page's form), and the code comes back in the redirect's Location.",
    ),
    refreshRotation: z
      .boolean()
      .optional()
      .describe(
        'A refresh replaces the refresh token and the old one is refused from then on (RFC 6749 §6: MAY). Unset: not checked.',
      ),
    pkce: z
      .boolean()
      .optional()
      .describe(
        'The target verifies PKCE (RFC 7636): a code exchanged with a wrong code_verifier is refused. Unset: not checked (the harness still sends S256).',
      ),
    redirectUri: z
      .string()
      .optional()
      .describe(
        'The redirect URI the clients registered (RFC 6749 §3.1.2), sent in authorization and token requests. Unset: none is sent.',
      ),
    otherClient: z
      .strictObject({
        clientId: z.string(),
        clientSecret: z.string(),
        user: z.string(),
        grants: z.array(GrantSchema).min(1).optional(),
      })
      .optional()
      .describe("A second client acting for another user: its tokens must not open the first user's resources."),
    clients: z
      .array(OAuth2ClientSchema)
      .min(1)
      .optional()
      .describe(
        'The clients of the target, each with the grants it takes (clientId and clientSecret, when given, are the first).',
      ),
  })
  .refine((o) => (o.clientId === undefined) === (o.clientSecret === undefined), {
    message: 'give clientId and clientSecret together',
  })
  .refine((o) => o.clientId !== undefined || o.clients !== undefined, {
    message: 'give a client: clientId and clientSecret, or clients',
  });

/** A grant of RFC 6749. */
export type Grant = z.infer<typeof GrantSchema>;

/** One OAuth 2 client with what is known of it (declared, or learned). */
export interface ResolvedOAuth2Client {
  clientId: string;
  clientSecret: string;
  /** The grants it takes; undefined until learned. */
  grants?: Grant[];
  /** client_credentials: the user its tokens act for; null: none; undefined until learned. */
  user?: string | null;
  /** Its access token lifetime, seconds. */
  ttl?: number;
  /** Learned, for a client whose tokens act for no user: the protected paths (filled) they open. */
  reads?: string[];
}

/** One way the harness gets an access token: a client, a grant, and who the token acts for. */
export interface OAuth2Actor {
  clientId: string;
  grant: 'client_credentials' | 'password' | 'authorization_code';
  /** The user the token acts for; absent: none. */
  user?: string;
  /** A protected path the token opens: the user's records, or one a user-less token was seen to open. */
  path?: string;
  ttl?: number;
}

/** `auth.oauth2` resolved: its clients, and the views the scenarios' templates read. */
export interface ResolvedOAuth2 {
  tokenEndpoint: string;
  clientAuth: Array<'basic' | 'form'>;
  revokeEndpoint?: string;
  authorizeEndpoint?: string;
  redirectUri?: string;
  pkce?: boolean;
  refreshRotation?: boolean;
  /** A client other than the refresh actor's (a refresh token must not work for it). */
  refreshOther?: string;
  /** Every client: clientId's first, then otherClient's, then the list's. */
  clients: ResolvedOAuth2Client[];
  /** The first client (clientId, or the first of clients). */
  clientId: string;
  clientSecret: string;
  /** The user of the default actor (`actor.user`). */
  user?: string;
  /** The first client's lifetime (legacy view). */
  ttl?: number;
  otherClient?: { clientId: string; clientSecret: string; user: string; grants?: Grant[] };
  /** The token the single-token scenarios use: a user's when some grant gives one, else a user-less one that opens a path. */
  actor?: OAuth2Actor;
  /** The shortest-lived actor with a lifetime of 120 s or less and a path: the expiry scenarios use it. */
  shortest?: OAuth2Actor;
  /** The first client-credentials actor (its grant sends no user's password, so it may be tried over plain HTTP). */
  clientCredentials?: OAuth2Actor;
  /** The first password-grant actor. */
  password?: OAuth2Actor;
  /** The first client-credentials actor whose tokens act for no user. */
  userless?: OAuth2Actor;
  /** The first authorization-code actor (a client taking that grant, and an authorization endpoint). */
  code?: OAuth2Actor;
  /** The first actor whose client also takes the refresh grant (its token answers carry a refresh token). */
  refresh?: OAuth2Actor;
}

/** `auth.oauth2` with its clients listed; the actors are filled in by {@link finishOAuth2} (oauth2-actors.ts). */
export function resolveOAuth2(o: z.infer<typeof OAuth2Schema>): ResolvedOAuth2 {
  const clients: ResolvedOAuth2Client[] = [];
  if (o.clientId !== undefined && o.clientSecret !== undefined)
    clients.push({
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      ...stripUndefined({ grants: o.grants, user: o.user, ttl: o.ttl }),
    });
  if (o.otherClient) clients.push({ ...o.otherClient });
  // A listed client with the id of clientId or otherClient adds what it declares to that client.
  for (const c of o.clients ?? []) {
    const same = clients.find((x) => x.clientId === c.clientId);
    if (same) Object.assign(same, stripUndefined({ ...c }));
    else clients.push({ ...c });
  }
  const first = clients[0]!;
  return {
    tokenEndpoint: o.tokenEndpoint,
    clientAuth: o.clientAuth ?? ['basic'],
    clients,
    clientId: first.clientId,
    clientSecret: first.clientSecret,
    ...stripUndefined({
      revokeEndpoint: o.revokeEndpoint,
      authorizeEndpoint: o.authorizeEndpoint,
      redirectUri: o.redirectUri,
      pkce: o.pkce,
      refreshRotation: o.refreshRotation,
      otherClient: o.otherClient,
      ttl: first.ttl,
    }),
  };
}
