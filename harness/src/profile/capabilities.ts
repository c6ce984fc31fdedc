/**
 * Capabilities a scenario may `require`. Each is computed from the resolved profile; a missing one skips the
 * scenario with a reason that names the profile key. `!name` requires its absence.
 */
import { oauth2Actors } from './oauth2-actors.js';
import { recordsPathOf, type ResolvedProfile } from './schema.js';

interface Capability {
  test: (p: ResolvedProfile) => boolean;
  /** The profile key a user changes to enable it (for skip reasons). */
  key: string;
}

/** What a scenario may require of the profile (`requires:`), each with the check and the reason a run gives when it skips. */
export const CAPABILITIES: Readonly<Record<string, Capability>> = {
  'articles.clientChosenPut': { test: (p) => p.articles.clientChosenPut, key: 'articles.clientChosenPut: true' },
  'articles.readable': { test: (p) => p.articles.readable, key: 'articles.readable: true' },
  'articles.deletable': { test: (p) => p.articles.deletable, key: 'articles.deletable: true' },
  'articles.writeAuth': { test: (p) => p.articles.writeAuth, key: 'articles.writeAuth: true' },
  'articles.aliases': { test: (p) => p.articles.aliases.length > 0, key: 'articles.aliases' },
  'articles.maxBodyBytes': { test: (p) => p.articles.maxBodyBytes !== undefined, key: 'articles.maxBodyBytes' },
  'articles.optionalFields': { test: (p) => p.articles.optionalFields.length > 0, key: 'articles.optionalFields' },
  options: {
    test: (p) => p.options.implemented,
    key: 'options.implemented: true (or a list with collection and item)',
  },
  'options.allowDependsOnAuth': { test: (p) => p.options.allowDependsOnAuth, key: 'options.allowDependsOnAuth: true' },
  'options.root': {
    test: (p) => p.options.on.includes('root'),
    key: 'options.implemented: true (or a list with root)',
  },
  'options.records': {
    test: (p) => p.options.on.includes('records'),
    key: 'options.implemented: true (or a list with records)',
  },
  'target.http': { test: (p) => p.target.http !== undefined, key: 'target.http' },
  'target.https': { test: (p) => p.target.https !== undefined, key: 'target.https' },
  'target.instances': {
    test: (p) => p.target.instances.length >= 2,
    key: 'target.instances (two or more instances of a cluster, each with its own base URLs)',
  },
  'users.two': { test: (p) => p.users.length >= 2, key: 'users (two or more)' },
  protected: { test: (p) => p.protected.length > 0, key: 'protected' },
  'protected.ownerOnly': { test: (p) => p.protected.some((x) => x.ownerOnly), key: 'protected[].ownerOnly' },
  'protected.records': {
    test: (p) => recordsPathOf(p) !== undefined,
    key: 'protected (a path with {user}, such as /users/{user}/financialrecords)',
  },
  'auth.basic': { test: (p) => p.auth.schemes.includes('basic'), key: 'auth.schemes: [basic]' },
  'auth.hmac': { test: (p) => p.auth.schemes.includes('hmac'), key: 'auth.schemes: [hmac]' },
  'auth.hmac-nonce': { test: (p) => p.auth.schemes.includes('hmac-nonce'), key: 'auth.schemes: [hmac-nonce]' },
  'auth.oauth2': {
    test: (p) => p.auth.schemes.includes('oauth2') && p.auth.oauth2 !== undefined,
    key: 'auth.schemes: [oauth2] and auth.oauth2',
  },
  'auth.oauth1': {
    test: (p) => p.auth.schemes.includes('oauth1') && p.auth.oauth1 !== undefined,
    key: 'auth.schemes: [oauth1] and auth.oauth1',
  },
  'auth.oauth2.basic': {
    test: (p) => p.auth.oauth2?.clientAuth.includes('basic') === true,
    key: 'auth.oauth2.clientAuth: [basic]',
  },
  'auth.oauth2.form': {
    test: (p) => p.auth.oauth2?.clientAuth.includes('form') === true,
    key: 'auth.oauth2.clientAuth: [form]',
  },
  'auth.oauth1.tokensBoundToConsumer': {
    test: (p) => p.auth.oauth1?.tokensBoundToConsumer === true,
    key: 'auth.oauth1.tokensBoundToConsumer: true',
  },
  'auth.oauth1.otherConsumer': {
    test: (p) => p.auth.oauth1?.otherConsumer !== undefined,
    key: 'auth.oauth1.otherConsumer',
  },
  'auth.oauth1.owner': {
    test: (p) =>
      p.auth.oauth1 !== undefined &&
      p.users.some((u) => u.name === p.auth.oauth1?.user && (u.password !== undefined || u.secret !== undefined)),
    key: 'a password or a secret for auth.oauth1.user (the resource owner authenticates at the authorize endpoint to approve)',
  },
  'auth.signedQuery': {
    test: (p) => p.auth.signedPathIncludesQuery,
    key: 'auth.signedPathIncludesQuery: true (the default)',
  },
  'auth.nonceMemoryWait': {
    test: (p) => p.auth.nonceMemoryWait !== undefined && p.auth.nonceMemoryWait < p.auth.window - p.auth.windowMargin,
    key: 'auth.nonceMemoryWait (seconds, below auth.window − auth.windowMargin): opt-in, the scenario waits that long',
  },
  'auth.oauth2.otherClient': {
    test: (p) => {
      const other = p.auth.oauth2?.otherClient;
      const client = p.auth.oauth2?.clients.find((c) => c.clientId === other?.clientId);
      return other !== undefined && (client?.grants ?? ['client_credentials']).includes('client_credentials');
    },
    key: 'auth.oauth2.otherClient (a client-credentials client acting for another user)',
  },
  'auth.oauth2.actor': {
    test: (p) => p.auth.oauth2?.actor?.path !== undefined,
    key: "auth.oauth2 clients whose grants give a token that opens a protected path (a user's records, or a path a user-less token opens)",
  },
  'auth.oauth2.tokenRequest': {
    test: (p) =>
      p.auth.oauth2 !== undefined &&
      oauth2Actors(p).some((a) => a.grant !== 'authorization_code' && a.path !== undefined),
    key: 'auth.oauth2 a client taking the client credentials or password grant (a token from one token request) whose token opens a protected path',
  },
  'auth.oauth2.userToken': {
    test: (p) => p.auth.oauth2?.actor?.user !== undefined,
    key: 'auth.oauth2 clients whose grants give a token acting for a user (client credentials with a user, or the password grant)',
  },
  'auth.oauth2.clientCredentials': {
    test: (p) => p.auth.oauth2?.clientCredentials !== undefined,
    key: 'auth.oauth2 a client taking the client credentials grant (grants: [client_credentials])',
  },
  'auth.oauth2.password': {
    test: (p) => p.auth.oauth2?.password !== undefined,
    key: 'auth.oauth2 a client taking the password grant (grants: [password]) and a user with a password',
  },
  'auth.oauth2.code': {
    test: (p) => p.auth.oauth2?.code !== undefined,
    key: 'auth.oauth2 a client taking the authorization code grant (grants: [authorization_code]) and auth.oauth2.authorizeEndpoint',
  },
  'auth.oauth2.pkce': { test: (p) => p.auth.oauth2?.pkce === true, key: 'auth.oauth2.pkce: true' },
  'auth.oauth2.redirectUri': { test: (p) => p.auth.oauth2?.redirectUri !== undefined, key: 'auth.oauth2.redirectUri' },
  'auth.oauth2.refresh': {
    test: (p) => p.auth.oauth2?.refresh !== undefined,
    key: 'auth.oauth2 a client taking the refresh grant beside the password or authorization code grant (grants: [password, refresh_token])',
  },
  'auth.oauth2.refreshRotation': {
    test: (p) => p.auth.oauth2?.refreshRotation === true && p.auth.oauth2.refresh !== undefined,
    key: 'auth.oauth2.refreshRotation: true (and a client taking the refresh grant)',
  },
  'auth.oauth2.refreshOther': {
    test: (p) => p.auth.oauth2?.refreshOther !== undefined,
    key: 'auth.oauth2 a second client, beside the one taking the refresh grant',
  },
  'auth.oauth2.userless': {
    test: (p) => p.auth.oauth2?.userless !== undefined,
    key: 'auth.oauth2 a client-credentials client whose tokens act for no user (user: null, or learned)',
  },
  'auth.oauth2.revoke': { test: (p) => p.auth.oauth2?.revokeEndpoint !== undefined, key: 'auth.oauth2.revokeEndpoint' },
  'auth.oauth2.ttl': {
    test: (p) => p.auth.oauth2?.shortest !== undefined,
    key: 'auth.oauth2.ttl (a client with a token lifetime of 120 s or less, so expiry can be waited for)',
  },
  'auth.bodyHash': { test: (p) => p.auth.bodyHash, key: 'auth.bodyHash: true' },
  'auth.nonceScope.user': { test: (p) => p.auth.nonceScope === 'user', key: 'auth.nonceScope: user' },
  'auth.nonceScope.global': { test: (p) => p.auth.nonceScope === 'global', key: 'auth.nonceScope: global' },
  'auth.window': {
    test: (p) => p.declared.has('auth.window'),
    key: 'auth.window (the seconds of clock difference the target accepts; §5.2 gives 10 minutes only as an illustration)',
  },
  'auth.strictDate': { test: (p) => p.auth.strictDate, key: 'auth.strictDate: true' },
  'auth.tlsOnly.basic': { test: (p) => p.auth.tlsOnly.includes('basic'), key: 'auth.tlsOnly: [basic]' },
  'auth.any': { test: (p) => p.auth.schemes.length > 0, key: 'auth.schemes' },
  oob: {
    test: () => true,
    key: 'oob (the harness runs an out-of-band listener; a target not on loopback needs oob.url)',
  },
};

export function isKnownCapability(name: string): boolean {
  return Object.hasOwn(CAPABILITIES, name.replace(/^!/, ''));
}

/** Returns why the profile cannot run a scenario needing these capabilities, or null when it can. */
export function missingCapability(requires: readonly string[], profile: ResolvedProfile): string | null {
  for (const raw of requires) {
    const negated = raw.startsWith('!');
    const cap = CAPABILITIES[raw.replace(/^!/, '')];
    if (!cap) return `unknown capability "${raw}"`;
    if (cap.test(profile) === negated) {
      return negated
        ? `profile has ${cap.key}, and this scenario is for targets without it`
        : `profile lacks ${cap.key}`;
    }
  }
  return null;
}
