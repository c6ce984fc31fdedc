/** What `conform run --embedded` changes about the bundled reference server and its profile. */
import type { ResolvedProfile } from '../../harness/src/profile/schema.js';

/**
 * OAuth 2 token lifetime of the embedded server, seconds: the expiry scenario waits it out, so it sets the floor of
 * an embedded run's wall time. Two seconds is ample for the other scenarios, which use a token within milliseconds
 * of getting it (and the harness never caches a token that has less than two seconds left).
 */
export const EMBEDDED_TOKEN_TTL = 2;

/** The profile with the embedded server's URLs and token lifetime (`ttl`, seconds). */
export function embeddedProfile(
  profile: ResolvedProfile,
  server: { url: string; httpsUrl?: string },
  ttl = EMBEDDED_TOKEN_TTL,
): ResolvedProfile {
  const oauth2 = profile.auth.oauth2 ? { oauth2: { ...profile.auth.oauth2, ttl } } : {};
  return {
    ...profile,
    target: { ...profile.target, http: server.url, ...(server.httpsUrl ? { https: server.httpsUrl } : {}) },
    auth: { ...profile.auth, ...oauth2 },
  };
}
