import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfileSync } from '../profile/load.js';
import { loadRulesSync, loadSuiteSync } from '../suite/load.js';
import { estimatedCost, waitsForClock } from './order.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const suite = loadSuiteSync([path.join(root, 'specs')], loadRulesSync(path.join(root, 'specs', 'rules.yaml')));
const profile = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
const byId = (id: string) => suite.scenarios.find((s) => s.id === id)!;

describe('what the start order knows of a scenario', () => {
  it('the clock waiters come first, the longest wait first, as far as the profile tells', () => {
    const expired = waitsForClock(byId('auth/oauth2-expired-rejected'), profile);
    expect(expired).toBe(1 + profile.auth.oauth2!.ttl! + 1.5);
    expect(waitsForClock(byId('auth/nonce-remembered-for-the-run'), profile)).toBe(1);
    expect(waitsForClock(byId('articles/put-create-roundtrip'), profile)).toBe(0);
  });

  it('the costliest are the model, the long property runs and the long lists', () => {
    const cost = (id: string) => estimatedCost(byId(id), 50, profile);
    expect(cost('articles/model-sequences')).toBeGreaterThan(cost('options/allow-handled'));
    expect(cost('auth/nonce-replay-after-many')).toBe(302);
    expect(cost('articles/put-create-roundtrip')).toBe(100);
    expect(cost('auth/hmac-nonce-accepted')).toBeLessThan(10);
  });
});
