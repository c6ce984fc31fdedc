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
  // The model's sequences run side by side in lanes the run lends (runner/spread.ts): how many were under way when
  // one failed, and how the target interleaved their `at once` groups, are the run's timing. Its verdict, runs,
  // failure and counterexample are compared; its request count, and a passing sequence's requests, are not.
  const spread = (s: RunResult['scenarios'][number]) => s.id === 'articles/model-sequences';
  return {
    summary: run.summary,
    rules: run.rules.map((r) => `${r.id} ${r.status}`),
    scenarios: run.scenarios.map((s) => ({
      id: s.id,
      status: s.status,
      runs: s.runs,
      requests: spread(s) ? undefined : s.requests - (s.credentialRequests ?? 0),
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
      sent: (spread(s) && s.status === 'passed' ? [] : s.transcript)
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
  // accepted), count nonces alone (nonce-store-small), change the shared collection (allow-method-500) or fail a
  // model sequence, which runs side by side with others in lent lanes and is then replayed and shrunk alone
  // (delete-then-put-resurrects).
  const faults = [
    'delete-then-put-resurrects',
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

  // The model scenario alone: every other lane of the run is free, so its sequences run side by side in lent lanes.
  // The failing sequence, its shrinking and the counterexample are those of one sequence after another. (A defect
  // that crosses sequences, such as post-reuses-deleted-id, where the POST of one reuses an id another freed, may
  // show in an earlier sequence when they run side by side: the same verdict, an earlier run.)
  it('the model scenario alone, its sequences in lent lanes: the counterexample of a sequential check', async () => {
    const alone = (concurrency: number) =>
      withReferenceServer({ faults: parseFaultNames(['alias-diverges-after-replace']) }, (server) =>
        runAgainst(server, { seed: 3, runs: 50, concurrency, filter: ['articles/model-sequences'] }),
      );
    const [one, many] = await Promise.all([alone(1), alone(8)]);
    const model = (r: RunResult | undefined) => r!.scenarios.find((s) => s.id === 'articles/model-sequences')!;
    expect(model(one).status).toBe('failed');
    expect(verdicts(many!)).toEqual(verdicts(one!));
    expect(model(many).counterexample?.path).toBe(model(one).counterexample?.path);
    // The lanes were lent: the sequences after the failing one were already under way, and sent their requests too.
    expect(model(many).runs).toBeLessThan(8);
    expect(model(many).lanes).toBeGreaterThan(1);
    expect(model(one).lanes).toBeUndefined();
    expect(model(many).requests).toBeGreaterThan(model(one).requests);
  });
});
