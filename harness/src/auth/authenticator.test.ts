import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { checkProfileSource } from '../profile/load.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { parseYamlSource } from '../suite/yaml-source.js';
import { createAuthenticator } from './authenticator.js';

function profile(oauth1: Record<string, unknown> = {}): ResolvedProfile {
  const data = {
    users: [{ name: 'alice', password: 'p', secret: 's' }],
    auth: {
      oauth1: {
        consumerKey: 'ck',
        consumerSecret: 'cs',
        temporaryEndpoint: '/t',
        authorizeEndpoint: '/a',
        tokenEndpoint: '/k',
        ...oauth1,
      },
    },
  };
  const { profile: p, issues } = checkProfileSource(parseYamlSource('p.yaml', stringify(data)));
  if (!p) throw new Error(issues.map((i) => i.message).join('; '));
  return p;
}

const header = (p: ResolvedProfile, omitRealm = false) => {
  const applied = createAuthenticator({ profile: p }).apply(
    { method: 'GET', url: 'https://h.example/r', headers: {} },
    'oauth1',
    'alice',
    { token: 't', tokenSecret: 'ts', ...(omitRealm ? { omitRealm } : {}) },
  );
  if (!applied.ok) throw new Error(applied.reason);
  return String(applied.request.headers['authorization']);
};

describe('OAuth 1 realm (RFC 5849 §3.5.1: OPTIONAL)', () => {
  it('names no realm unless the profile declares one', () => {
    expect(header(profile())).toMatch(/^OAuth oauth_consumer_key="ck", /);
    expect(header(profile())).not.toContain('realm');
  });

  it('names the declared realm first, and none with omitRealm', () => {
    expect(header(profile({ realm: 'photos' }))).toMatch(/^OAuth realm="photos", oauth_consumer_key="ck", /);
    expect(header(profile({ realm: 'photos' }), true)).not.toContain('realm');
  });
});
