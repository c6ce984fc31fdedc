/** The minimal profile of the reference server (issue 23): where it is, its users, its OAuth endpoints and clients. */
import { checkProfileSource } from '../harness/src/profile/load.js';
import type { ResolvedProfile } from '../harness/src/profile/schema.js';
import { parseYamlSource } from '../harness/src/suite/yaml-source.js';
import { parse, stringify } from 'yaml';
import { VARIANTS, applyProfilePatch, type ProfilePatch, type VariantName } from '../reference-server/src/index.js';

/** The minimal profile of the reference server: no key about an open point. */
export const MINIMAL_PROFILE = `
target: { insecure: true }
users:
  - { name: alice, password: "wonder:land", secret: alice-secret-1 }
  - { name: bob, password: builder, secret: bob-secret-2 }
  - { name: carol, password: "pä:ss wörd✓", secret: carol-secret-3 }
auth:
  oauth2:
    tokenEndpoint: /oauth2/token
    revokeEndpoint: /oauth2/revoke
    authorizeEndpoint: /oauth2/authorize
    redirectUri: https://client.example/oauth2/callback
    clientId: reporting
    clientSecret: rep-secret
    otherClient: { clientId: auditing, clientSecret: "aud secret+/:2", user: bob }
  oauth1:
    consumerKey: conform-consumer
    consumerSecret: consumer-secret-1
    temporaryEndpoint: /oauth1/request_token
    authorizeEndpoint: /oauth1/authorize
    tokenEndpoint: /oauth1/access_token
    otherConsumer: { consumerKey: conform-consumer-2, consumerSecret: "consumer secret+/:2" }
`;

/**
 * The minimal profile, for a server running `variants`: a variant that drops an account or endpoint (a `null` in its
 * profile patch) drops it here too, and one that offers no signed requests drops the users' secrets; nothing else of
 * the variants' keys is taken.
 */
export function minimalProfile(variants: readonly VariantName[] = []): ResolvedProfile {
  let data = parse(MINIMAL_PROFILE) as unknown;
  for (const v of variants) data = applyProfilePatch(data, removalsOf(VARIANTS[v].profile));
  // A user of a service that offers no signed requests has no signing secret to give (VERDICTS.md §3: a secret the
  // profile gives must work, or the run stops on it).
  const signs = (v: VariantName) => {
    const schemes = (VARIANTS[v].profile as { auth?: { schemes?: readonly string[] } }).auth?.schemes;
    return schemes === undefined || schemes.some((s) => s === 'hmac' || s === 'hmac-nonce');
  };
  if (!variants.every(signs)) {
    const d = data as { users: Array<Record<string, unknown>> };
    for (const u of d.users) delete u['secret'];
  }
  const { profile, issues } = checkProfileSource(parseYamlSource('minimal-profile.yaml', stringify(data)));
  if (!profile) throw new Error(issues.map((i) => i.message).join('; '));
  return profile;
}

/** The removals (`null`s) of a profile patch, objects walked into. */
function removalsOf(patch: ProfilePatch): ProfilePatch {
  const out: Record<string, ProfilePatch[string]> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) out[k] = null;
    else if (typeof v === 'object' && !Array.isArray(v)) {
      const inner = removalsOf(v as ProfilePatch);
      if (Object.keys(inner).length > 0) out[k] = inner;
    }
  }
  return out;
}
