/**
 * The ways the harness gets an OAuth 2 access token, from what the profile says (or the run learned) of its clients:
 * each grant a client takes, and who the token acts for — the client's user for client credentials (or nobody), the
 * resource owner whose password or approval obtained it for the password and authorization code grants.
 */
import type { OAuth2Actor, ResolvedAuth, ResolvedOAuth2Client } from './auth-schema.js';

/** What the actors are computed from: a resolved profile's users, protected paths and `auth`. */
export interface ActorsView {
  auth: ResolvedAuth;
  users: ReadonlyArray<{ name: string; password?: string; secret?: string }>;
  protected: ReadonlyArray<{ path: string; ownerOnly: boolean }>;
}

/** The per-user protected path (as `recordsPathOf` in schema.ts): the first with `{user}`, an owner-only one first. */
function recordsPathOf(p: Pick<ActorsView, 'protected'>): string | undefined {
  const perUser = p.protected.filter((r) => r.path.includes('{user}'));
  return (perUser.find((r) => r.ownerOnly) ?? perUser[0])?.path;
}

/** The longest token lifetime the expiry scenarios wait out, seconds. */
export const EXPIRY_WAIT_MAX = 120;

/** The grants a client takes, as far as known: before they are learned, client credentials (the one grant conform once knew). */
export function grantsOf(c: ResolvedOAuth2Client): NonNullable<ResolvedOAuth2Client['grants']> {
  return c.grants ?? ['client_credentials'];
}

/** Every way to a token, clients in profile order, each client's grants in the order it lists them. */
export function oauth2Actors(p: ActorsView): OAuth2Actor[] {
  const o = p.auth.oauth2;
  if (!o) return [];
  const records = recordsPathOf(p);
  const pathFor = (user: string | undefined, c: ResolvedOAuth2Client) =>
    user !== undefined ? records?.replace('{user}', encodeURIComponent(user)) : c.reads?.[0];
  const named = (c: ResolvedOAuth2Client, has: (u: ActorsView['users'][number]) => boolean) => {
    const own = typeof c.user === 'string' ? p.users.find((u) => u.name === c.user && has(u)) : undefined;
    return (own ?? p.users.find(has))?.name;
  };
  const out: OAuth2Actor[] = [];
  for (const c of o.clients) {
    for (const grant of grantsOf(c)) {
      let user: string | undefined;
      if (grant === 'client_credentials') user = c.user === null ? undefined : (c.user ?? p.users[0]?.name);
      else if (grant === 'password') {
        user = named(c, (u) => u.password !== undefined);
        if (user === undefined) continue;
      } else if (grant === 'authorization_code') {
        if (o.authorizeEndpoint === undefined) continue;
        user = named(c, (u) => u.password !== undefined || u.secret !== undefined);
        if (user === undefined) continue;
      } else continue;
      const path = pathFor(user, c);
      out.push({
        clientId: c.clientId,
        grant,
        ...(user !== undefined ? { user } : {}),
        ...(path !== undefined ? { path } : {}),
        ...(c.ttl !== undefined ? { ttl: c.ttl } : {}),
      });
    }
  }
  return out;
}

/**
 * Fills `auth.oauth2`'s views from its clients: `actor` (a user's token where some grant gives one, else a user-less
 * one that opens a path), `shortest` (the shortest-lived actor the expiry scenarios can wait for) and `user`.
 */
export function finishOAuth2(p: ActorsView): void {
  const o = p.auth.oauth2;
  if (!o) return;
  const actors = oauth2Actors(p);
  const actor =
    actors.find((a) => a.user !== undefined && a.path !== undefined) ??
    actors.find((a) => a.user !== undefined) ??
    actors.find((a) => a.path !== undefined);
  const waitable = actors
    .filter((a) => a.path !== undefined && a.ttl !== undefined && a.ttl <= EXPIRY_WAIT_MAX)
    .sort((a, b) => a.ttl! - b.ttl!);
  for (const k of [
    'actor',
    'shortest',
    'user',
    'clientCredentials',
    'password',
    'userless',
    'code',
    'refresh',
  ] as const)
    delete o[k];
  if (actor) o.actor = actor;
  if (waitable[0]) o.shortest = waitable[0];
  const cc = actors.find((a) => a.grant === 'client_credentials');
  const password = actors.find((a) => a.grant === 'password');
  const userless = actors.find(
    (a) => a.grant === 'client_credentials' && a.user === undefined && known(o.clients, a.clientId),
  );
  if (cc) o.clientCredentials = cc;
  if (password) o.password = password;
  if (userless) o.userless = userless;
  const code = actors.find((a) => a.grant === 'authorization_code');
  const refresh = actors.find(
    (a) =>
      a.grant !== 'client_credentials' &&
      o.clients.find((c) => c.clientId === a.clientId)?.grants?.includes('refresh_token'),
  );
  if (code) o.code = code;
  if (refresh) o.refresh = refresh;
  const other = refresh && o.clients.find((c) => c.clientId !== refresh.clientId);
  if (other) o.refreshOther = other.clientId;
  if (actor?.user !== undefined) o.user = actor.user;
  o.ttl = o.clients[0]?.ttl ?? o.ttl;
}

/** The actor that gets a token acting for `user` (client credentials of its client, else a grant the user completes). */
export function actorFor(p: ActorsView, user: string): OAuth2Actor | undefined {
  const o = p.auth.oauth2;
  if (!o) return undefined;
  const actors = oauth2Actors(p);
  const own = actors.find((a) => a.grant === 'client_credentials' && a.user === user);
  if (own) return own;
  const u = p.users.find((x) => x.name === user);
  if (!u) return undefined;
  const byPassword = actors.find((a) => a.grant === 'password');
  if (byPassword && u.password !== undefined) return { ...byPassword, user, ...pathOf(p, user) };
  const byCode = actors.find((a) => a.grant === 'authorization_code');
  if (byCode && (u.password !== undefined || u.secret !== undefined)) return { ...byCode, user, ...pathOf(p, user) };
  return undefined;
}

function pathOf(p: Pick<ActorsView, 'protected'>, user: string): { path?: string } {
  const path = recordsPathOf(p)?.replace('{user}', encodeURIComponent(user));
  return path === undefined ? {} : { path };
}

/** A client whose user is known to be nobody (declared null, or learned). */
function known(clients: readonly ResolvedOAuth2Client[], id: string): boolean {
  return clients.find((c) => c.clientId === id)?.user === null;
}
