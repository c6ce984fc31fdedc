/**
 * Issue 14: results do not depend on concurrency. The same seed gives the same verdicts, failures, counterexamples
 * and rule results one scenario at a time and at the default concurrency — on the clean reference server and on
 * faults whose scenarios shrink, race, wait or depend on the connection.
 */
import { describe, expect, it } from 'vitest';
import { RUN_OPTION_SPEC } from '../harness/src/runner/options.js';
import type { RunResult } from '../harness/src/runner/types.js';
import { parseFaultNames } from '../reference-server/src/index.js';
import { runAgainst, withReferenceServer } from './helpers.js';

/**
 * What a run says, without what legitimately varies between runs: timings, the run's own unique tag, and the
 * requests that obtained OAuth tokens — a token is obtained again when it is about to expire, so when that happens
 * (and which scenario then carries the request) is the clock's doing, not the seed's.
 */
function verdicts(run: RunResult) {
  // `uniq` values: the run's random 8-hex tag, then the scenario's position and a counter. How many requests sent at
  // once a racy target lets through (nonce-race: 3 of 16 one time, 16 the next) is the target's timing, not the
  // seed's: the count of an expectCount failure is masked, its verdict kept.
  const mask = (text: string) =>
    text
      .replace(/[0-9a-f]{8}[0-9a-z]{4,}/g, '<uniq>')
      .replace(/(answers with status \S+), got \d+ \(statuses: [^)]*\)/g, '$1, got <n> (statuses: <…>)');
  return {
    summary: run.summary,
    rules: run.rules.map((r) => `${r.id} ${r.status}`),
    scenarios: run.scenarios.map((s) => ({
      id: s.id,
      status: s.status,
      runs: s.runs,
      requests: s.requests - (s.credentialRequests ?? 0),
      ...(s.status === 'failed'
        ? {
            step: s.failure.step,
            rules: s.failure.rules,
            messages: s.failure.messages.map(mask),
            counterexample: s.counterexample
              ? {
                  values: mask(JSON.stringify(s.counterexample.values)),
                  path: s.counterexample.path,
                  shrinks: s.counterexample.shrinks,
                }
              : undefined,
          }
        : {}),
      ...(s.status === 'skipped' ? { reason: s.reason } : {}),
      ...(s.status === 'errored' ? { reason: mask(s.reason) } : {}),
      // Every request the report shows, in order, as method and path.
      sent: s.transcript
        .filter((x) => x.purpose !== 'credentials')
        .map((x) => `${x.request.method} ${mask(new URL(x.request.url).pathname)}`),
    })),
  };
}

const DEFAULT = RUN_OPTION_SPEC.concurrency.default;

describe('verdicts do not depend on concurrency', () => {
  it(`the clean reference server: --concurrency 1 and ${DEFAULT} agree scenario by scenario`, async () => {
    const [one, many] = await Promise.all(
      [1, DEFAULT].map((concurrency) =>
        withReferenceServer({}, (server) => runAgainst(server, { seed: 7, runs: 20, concurrency })),
      ),
    );
    expect(
      one!.scenarios
        .filter((s) => s.status === 'failed' || s.status === 'errored')
        .map((s) => [s.id, s.status === 'failed' ? s.failure.messages : s.reason]),
    ).toEqual([]);
    expect(verdicts(many!)).toEqual(verdicts(one!));
  });

  // Faults whose scenarios shrink a property (price-rounded, digest-prefix), race requests (nonce-race,
  // put-non-atomic), rely on one keep-alive connection (connection-remembers), wait out a token (oauth2-expired-
  // accepted), count nonces alone (nonce-store-small) or change the shared collection (allow-method-500).
  const faults = [
    'price-rounded',
    'digest-prefix',
    'nonce-race',
    'connection-remembers',
    'oauth2-expired-accepted',
    'nonce-store-small',
    'allow-method-500',
  ];
  for (const fault of faults) {
    it(`fault ${fault}: --concurrency 1 and ${DEFAULT} give the same failures and counterexamples`, async () => {
      const runs = await Promise.all(
        [1, DEFAULT].map((concurrency) =>
          withReferenceServer({ faults: parseFaultNames([fault]) }, (server) =>
            runAgainst(server, { seed: 11, runs: 20, concurrency }),
          ),
        ),
      );
      const [one, many] = runs.map((r) => verdicts(r!));
      expect(one!.summary.failed).toBeGreaterThan(0);
      expect(many).toEqual(one);
    });
  }

  // A race inside the target (two PUTs interleaved) shows in some runs and not others, at any concurrency: which
  // run fails first, and so the shrunk counterexample, is the target's timing, not the seed's. The verdicts agree.
  it(`fault put-non-atomic (a race in the target): --concurrency 1 and ${DEFAULT} give the same verdicts`, async () => {
    const runs = await Promise.all(
      [1, DEFAULT].map((concurrency) =>
        withReferenceServer({ faults: parseFaultNames(['put-non-atomic']) }, (server) =>
          runAgainst(server, { seed: 11, runs: 20, concurrency }),
        ),
      ),
    );
    // articles/model-sequences sends writes at once in some of its sequences, so whether it meets the race is the
    // target's timing too (it then fails, rightly); put-concurrent-whole races on every run and always meets it.
    const [one, many] = runs.map((r) =>
      r!.scenarios.filter((s) => s.id !== 'articles/model-sequences').map((s) => `${s.id} ${s.status}`),
    );
    expect(one).toContain('articles/put-concurrent-whole failed');
    expect(many).toEqual(one);
  });
});
