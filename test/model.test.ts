/**
 * Model scenarios (issue 15): the defects only sequences find are caught by `articles/model-sequences`, shrunk to a
 * handful of commands, shown as the requests they sent in the console and the HTML report, and replayable.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { main } from '../cli/src/main.js';
import { it } from './fixtures.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { REFERENCE_PROFILE, ROOT, runAgainst, withReferenceServer } from './helpers.js';

const ID = 'articles/model-sequences';
const SEQUENCE_FAULTS = [
  'delete-then-put-resurrects',
  'post-reuses-deleted-id',
  'alias-diverges-after-replace',
  'lost-update',
  'put-after-delete-200',
] as const;

/** The rule each fault breaks, where the model charges it. */
const CHARGED: Record<(typeof SEQUENCE_FAULTS)[number], string[]> = {
  'delete-then-put-resurrects': ['4.1-put-replaces'],
  'post-reuses-deleted-id': ['4.2-post-fresh-url'],
  'alias-diverges-after-replace': ['2-article-alias', '4.1-put-replaces'],
  'lost-update': ['4.1-put-replaces', 'rfc9110-delete'],
  'put-after-delete-200': ['rfc9110-put-create-201'],
};

describe('model scenarios against sequence-only defects', () => {
  it.concurrent.each(SEQUENCE_FAULTS)(
    '%s: caught, charged to its rule, shrunk to a handful of commands',
    async (fault) => {
      await withReferenceServer({ faults: [fault] }, async (server) => {
        const run = await runAgainst(server.url, { filter: [ID], seed: 3 });
        const r = run.scenarios.find((s) => s.id === ID)!;
        expect(r.status, r.reason).toBe('failed');
        expect(
          r.failure?.rules?.some((rule) => CHARGED[fault].includes(rule)),
          JSON.stringify(r.failure),
        ).toBe(true);
        // It counts at the strongest level it is charged to: reusing a deleted URL is a SHOULD, the rest MUST.
        expect(r.level).toBe(fault === 'post-reuses-deleted-id' ? 'SHOULD' : 'MUST');
        const commands = r.counterexample?.values['commands'] as string[];
        expect(commands.length, commands.join('\n')).toBeGreaterThanOrEqual(fault === 'lost-update' ? 1 : 2);
        expect(commands.length, commands.join('\n')).toBeLessThanOrEqual(6);
        // The transcript is the shrunk sequence's own requests.
        expect(r.transcript.length).toBeGreaterThanOrEqual(commands.length);
      });
    },
  );

  it('the clean server passes, on several seeds', async () => {
    await withReferenceServer({}, async (server) => {
      for (const seed of [1, 2, 3]) {
        const run = await runAgainst(server.url, { filter: [ID], seed });
        expect(run.scenarios[0]?.status, run.scenarios[0]?.reason).toBe('passed');
        expect(run.scenarios[0]?.requests).toBeGreaterThan(100);
      }
    });
  });

  it('the console and the HTML report show the sequence as numbered requests, and --replay reproduces it', async ({
    tempDir,
  }) => {
    let out = '';
    const io = {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (out += t) },
      env: {},
      cwd: ROOT,
    };
    const args = [
      'run',
      '--embedded',
      '--fault',
      'put-after-delete-200',
      '--filter',
      ID,
      '--seed',
      '7',
      '--report-dir',
      tempDir,
    ];
    expect(await main(args, io)).toBe(1);
    // One line per command, numbered, each with the request and its answer; the PUT after the DELETE answered 200.
    expect(out).toMatch(/counterexample \(after \d+ shrinks\), \d commands?:\n(\s+\d\. .+\n)+/);
    expect(out).toMatch(
      /\s+1\. (PUT|POST|at once: PUT) \S+ \{title "article \d+ & <co>", price \S+ \w{3}.*\}( \[[\w-]+\])? → 201/,
    );
    expect(out).toMatch(/DELETE \/articles?\/\S+( \[[\w-]+\])? → 204/);
    expect(out).toMatch(/PUT \/articles?\/\S+ \{title .*\}( \[[\w-]+\])? → 200/);
    const html = await readFile(path.join(tempDir, 'report.html'), 'utf8');
    expect(html).toMatch(/<ol class="commands" data-testid="cex-commands"><li><code>(at once: )?(PUT|POST) \/articles/);
    const report = JSON.parse(await readFile(path.join(tempDir, 'report.json'), 'utf8')) as {
      scenarios: Array<{ counterexample?: { path: string; values: { commands: string[] } } }>;
    };
    const ce = report.scenarios[0]!.counterexample!;
    expect(ce.path).toMatch(/^\d+(:\d+)*~\S+$/);
    out = '';
    expect(await main([...args, '--replay', ce.path, '--report-dir', path.join(tempDir, 'again')], io)).toBe(1);
    const again = JSON.parse(await readFile(path.join(tempDir, 'again', 'report.json'), 'utf8')) as typeof report;
    const shape = (cs: string[]) => cs.map((c) => c.replace(/\/articles?\/\S+/g, 'URL'));
    expect(shape(again.scenarios[0]!.counterexample!.values.commands)).toEqual(shape(ce.values.commands));
  });
});

describe('one broken scheme does not sink the model (issue 23, class 6)', () => {
  it('an OAuth 1 consumer whose credentials cannot be obtained leaves the sequences, with the reason; the rest is judged', async () => {
    const loaded = loadProfileSync(REFERENCE_PROFILE);
    const profile = {
      ...loaded,
      auth: { ...loaded.auth, oauth1: { ...loaded.auth.oauth1!, consumerSecret: 'not-the-consumer-secret' } },
    };
    await withReferenceServer({}, async (server) => {
      // By default the run stops before any scenario on the refused consumer (VERDICTS.md §3) …
      const stopped = await runAgainst(server, { profile, filter: [ID], seed: 4, runs: 10 });
      expect(stopped.credentialsRefused?.[0]).toMatch(/OAuth 1 credentials were refused/);
      // … and with --no-credential-check the model still judges the rest.
      const run = await runAgainst(server, { profile, filter: [ID], seed: 4, runs: 10, credentialCheck: false });
      const s = run.scenarios.find((x) => x.id === ID)!;
      expect(s.status, s.reason).toBe('passed');
      expect(s.notes?.join('\n')).toMatch(/^oauth1 left out of the sequences: obtaining OAuth 1 token credentials: /);
      expect(s.requests).toBeGreaterThan(50);
    });
  });
});
