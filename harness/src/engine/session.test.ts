import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthenticator } from '../auth/authenticator.js';
import { GENERATORS } from '../generators/registry.js';
import type { HttpClient, HttpRequest, SendResult } from '../http/client.js';
import { loadProfileSync } from '../profile/load.js';
import type { StepScenario } from '../suite/types.js';
import { openSession } from './session.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const profile = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
const base = 'http://127.0.0.1:8080';

/** A target answering 200 to everything a macrotask later, noting in `events` when a request goes and is answered. */
function fakeTarget(events: string[]): HttpClient {
  const client: HttpClient = {
    send: (r: HttpRequest) => {
      events.push(`send ${r.method}`);
      return new Promise<SendResult>((resolve) =>
        setImmediate(() => {
          events.push('answered');
          resolve({ ok: true, response: { status: 200, headers: {}, body: new Uint8Array(), durationMs: 1 } });
        }),
      );
    },
    session: () => client,
    close: () => Promise.resolve(),
  };
  return client;
}

const scenario = (id: string, requires: string[], given: StepScenario['given']): StepScenario => ({
  kind: 'steps',
  id,
  title: id,
  file: 'x.yaml',
  line: 1,
  rules: [],
  level: 'MUST',
  tags: [],
  requires,
  given,
  property: true,
  exclusive: false,
  let: [],
  steps: [],
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the generators of the scenarios a run will run', () => {
  it('are built while the credential check is out, once, and not for a scenario the profile skips', async () => {
    const events: string[] = [];
    const client = fakeTarget(events);
    const slug = vi.spyOn(GENERATORS['slug']!, 'make');
    const count = vi.spyOn(GENERATORS['count']!, 'make').mockImplementation(() => {
      events.push('built count');
      throw new Error('a generator that cannot be built');
    });
    const session = await openSession(
      { client, profile, authenticator: createAuthenticator({ profile }) },
      {
        bases: { primary: base },
        seed: 1,
        learn: false,
        prepare: [
          scenario('a', [], [{ name: 's', gen: 'slug', options: {} }]),
          scenario('b', [], [{ name: 't', gen: 'slug', options: {} }]),
          // A capability the reference profile does not have: skipped, so nothing of it is built.
          scenario('c', ['no-such-capability'], [{ name: 'u', gen: 'article', options: { optional: 'always' } }]),
          scenario('d', [], [{ name: 'n', gen: 'count', options: {} }]),
        ],
      },
    );
    expect(session.credentialsRefused).toBeUndefined();
    // One arbitrary for both scenarios that draw a slug: built once, for the profile the run judges by.
    expect(slug).toHaveBeenCalledTimes(1);
    expect(slug.mock.calls[0]![1]).toBe(session.profile);
    // The failing one was tried and left to its scenario: the session opened all the same.
    expect(count).toHaveBeenCalledTimes(1);
    // Built after the credential check's first request went and before its first answer came.
    const firstSend = events.findIndex((e) => e.startsWith('send') && e !== 'send OPTIONS');
    expect(firstSend).toBeGreaterThan(0);
    expect(events.indexOf('built count')).toBeGreaterThan(firstSend);
    expect(events.indexOf('built count')).toBeLessThan(events.indexOf('answered', firstSend));
  });
});
