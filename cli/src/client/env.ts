/** What `conform check-client` tells the client command: the server's URLs, the CA file, the reference credentials. */
import type { ResolvedProfile } from '../../../harness/src/profile/schema.js';

/** The environment variables a client command reads, by name (documented in `conform check-client --help`). */
export function clientEnvironment(
  profile: ResolvedProfile,
  server: { url: string; httpsUrl?: string },
  caFile: string | undefined,
  bodyHash: boolean | 'optional' = profile.auth.bodyHash,
): Record<string, string> {
  const env: Record<string, string> = { CONFORM_HTTP_URL: server.url };
  if (server.httpsUrl !== undefined) env['CONFORM_HTTPS_URL'] = server.httpsUrl;
  if (caFile !== undefined) env['CONFORM_CA_FILE'] = caFile;
  const [user, other] = profile.users;
  if (user) {
    env['CONFORM_USER'] = user.name;
    if (user.password !== undefined) env['CONFORM_PASSWORD'] = user.password;
    if (user.secret !== undefined) env['CONFORM_SECRET'] = user.secret;
  }
  if (other) {
    env['CONFORM_USER2'] = other.name;
    if (other.password !== undefined) env['CONFORM_PASSWORD2'] = other.password;
    if (other.secret !== undefined) env['CONFORM_SECRET2'] = other.secret;
  }
  env['CONFORM_WINDOW'] = String(profile.auth.window);
  // 1: PUT and POST must sign the body hash; 0: they must not; optional: either is accepted (a client reading
  // "1 means sign it" or "0 means do not" is right either way).
  env['CONFORM_BODY_HASH'] = bodyHash === 'optional' ? 'optional' : bodyHash ? '1' : '0';
  const tls = server.httpsUrl ?? server.url;
  const { oauth2, oauth1 } = profile.auth;
  if (oauth2) {
    env['CONFORM_OAUTH2_TOKEN_URL'] = tls + oauth2.tokenEndpoint;
    env['CONFORM_OAUTH2_CLIENT_ID'] = oauth2.clientId;
    env['CONFORM_OAUTH2_CLIENT_SECRET'] = oauth2.clientSecret;
    // The authorization code grant (offered under the oauth2-code-pkce-only variant).
    if (oauth2.authorizeEndpoint !== undefined) env['CONFORM_OAUTH2_AUTHORIZE_URL'] = tls + oauth2.authorizeEndpoint;
    if (oauth2.redirectUri !== undefined) env['CONFORM_OAUTH2_REDIRECT_URI'] = oauth2.redirectUri;
  }
  if (oauth1) {
    env['CONFORM_OAUTH1_CONSUMER_KEY'] = oauth1.consumerKey;
    env['CONFORM_OAUTH1_CONSUMER_SECRET'] = oauth1.consumerSecret;
    env['CONFORM_OAUTH1_REQUEST_TOKEN_URL'] = tls + oauth1.temporaryEndpoint;
    env['CONFORM_OAUTH1_AUTHORIZE_URL'] = tls + oauth1.authorizeEndpoint;
    env['CONFORM_OAUTH1_ACCESS_TOKEN_URL'] = tls + oauth1.tokenEndpoint;
  }
  return env;
}

/** Every secret of the profile, with the Basic pairs, for the redactor: never in a report or a log line. */
export function profileSecrets(profile: ResolvedProfile): {
  secrets: string[];
  pairs: Array<[string, string]>;
} {
  const secrets: string[] = [];
  const pairs: Array<[string, string]> = [];
  for (const u of profile.users) {
    if (u.password !== undefined) {
      secrets.push(u.password);
      pairs.push([u.name, u.password]);
    }
    if (u.secret !== undefined) secrets.push(u.secret);
  }
  const { oauth2, oauth1 } = profile.auth;
  if (oauth2) {
    secrets.push(oauth2.clientSecret);
    pairs.push([oauth2.clientId, oauth2.clientSecret]);
    if (oauth2.otherClient) {
      secrets.push(oauth2.otherClient.clientSecret);
      pairs.push([oauth2.otherClient.clientId, oauth2.otherClient.clientSecret]);
    }
  }
  if (oauth1) {
    secrets.push(oauth1.consumerSecret);
    if (oauth1.otherConsumer) secrets.push(oauth1.otherConsumer.consumerSecret);
  }
  return { secrets, pairs };
}
