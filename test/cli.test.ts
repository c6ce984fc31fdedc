/** The outside surface of CONTRACT.md: commands, options and exit codes, run in-process through main(). */
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { main } from '../cli/src/main.js';
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../cli/src/commands/run.js';
import { parseRunArgs } from '../cli/src/commands/run-options.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { basesFor } from '../harness/src/runner/bases.js';
import { runCli, type CliResult } from './cli-helpers.js';
import { test } from './fixtures.js';
import { REFERENCE_PROFILE, ROOT } from './helpers.js';

/** The working directory of every command in this file. */
let dir: string;
test.beforeAll(({ fileTempDir }) => {
  dir = fileTempDir;
});

const cli = (...argv: string[]): Promise<CliResult> => runCli(dir, argv);

describe('conform CLI', () => {
  it('prints help and version', async () => {
    expect((await cli('--help')).out).toMatch(/Usage: conform <command>/);
    expect((await cli('run', '--help')).out).toMatch(/--target URL/);
    expect((await cli('--version')).out).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits 2 on usage errors', async () => {
    expect((await cli('frobnicate')).code).toBe(2);
    const r = await cli('run', '--bogus');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bogus/);
    expect((await cli('run', '--runs', 'many')).err).toMatch(/--runs expects an integer/);
    expect((await cli('run', '--embedded', '--fault', 'no-such-fault')).code).toBe(2);
  });

  it('a target without a profile is refused, naming --profile and conform init; so is a run with nothing to run against', async () => {
    const r = await cli('run', '--target', 'http://127.0.0.1:1', '--report-dir', 'never');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--target needs --profile FILE/);
    expect(r.err).toMatch(/conform init --target URL/);
    const bare = await cli('run');
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/nothing to run against: pass --target URL with --profile FILE, or --embedded/);
  });

  it('--target: one per scheme, both may be given; two of one scheme are refused', async () => {
    const twice = await cli(
      'run',
      '--target',
      'http://a.test',
      '--target',
      'http://b.test',
      '--profile',
      REFERENCE_PROFILE,
    );
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/--target given twice for http:\/\/ \(http:\/\/a\.test, http:\/\/b\.test\)/);
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: dir };
    const options = parseRunArgs(
      ['--target', 'https://s.test', '--target', 'http://p.test', '--profile', REFERENCE_PROFILE],
      io,
    );
    if (options === 'help') throw new Error('unexpected help');
    expect(basesFor(options.targets, loadProfileSync(REFERENCE_PROFILE))).toEqual({
      primary: 'https://s.test',
      plain: 'http://p.test',
      tls: 'https://s.test',
    });
    expect(replayCommand(options, io, 'x')).toContain('--target https://s.test --target http://p.test --profile');
  });

  it('a report directory that cannot be written is exit 2 before anything is sent to the target', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
    try {
      await writeFile(path.join(dir, 'a-file'), 'x');
      for (const reportDir of ['a-file', path.join('a-file', 'below'), '/proc/conform-cannot-exist']) {
        const r = await cli(
          'run',
          '--target',
          `http://127.0.0.1:${port}`,
          '--profile',
          REFERENCE_PROFILE,
          '--report-dir',
          reportDir,
        );
        expect(r.code, reportDir).toBe(2);
        expect(r.err).toMatch(/--report-dir .*: cannot write reports there/);
      }
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a profile reads its secrets from ${NAME} environment variables; an unset one is exit 2 at its line', async () => {
    const text = (await readFile(REFERENCE_PROFILE, 'utf8')).replace(
      'password: "wonder:land"',
      'password: "${ALICE_PASSWORD}"',
    );
    expect(text).toContain('${ALICE_PASSWORD}');
    await writeFile(path.join(dir, 'env-profile.yaml'), text);
    const args = [
      'run',
      '--embedded',
      '--profile',
      'env-profile.yaml',
      '--filter',
      'auth/basic-accepted',
      '--runs',
      '2',
    ];
    const unset = await cli(...args, '--report-dir', 'env-unset');
    expect(unset.code).toBe(2);
    expect(unset.err).toMatch(/env-profile\.yaml:\d+:\d+: .*the environment variable ALICE_PASSWORD is not set/);
    const set = await runCli(dir, [...args, '--report-dir', 'env-set'], { ALICE_PASSWORD: 'wonder:land' });
    expect(set.code, set.out + set.err).toBe(0);
    expect(set.out).toMatch(/1 passed, 0 failed/);
    expect(await readFile(path.join(dir, 'env-set', 'report.json'), 'utf8')).not.toContain('wonder:land');
    // conform lint checks the file without the secrets: the reference is left as written.
    const lint = await cli('lint', 'env-profile.yaml');
    expect(lint.code, lint.out + lint.err).toBe(0);
  });

  it('--profile - reads the profile from standard input (its ${NAME} references too)', async () => {
    const text = (await readFile(REFERENCE_PROFILE, 'utf8')).replace('password: "wonder:land"', 'password: "${PW}"');
    const run = (profile: string) => {
      let out = '';
      return main(
        [
          'run',
          '--embedded',
          '--profile',
          '-',
          '--filter',
          'auth/basic-accepted',
          '--runs',
          '2',
          '--report-dir',
          'stdin',
        ],
        {
          stdout: { write: (s: string) => (out += s) },
          stderr: { write: (s: string) => (out += s) },
          env: { PW: 'wonder:land' },
          cwd: dir,
          stdin: () => Promise.resolve(profile),
        },
      ).then((code) => ({ code, out }));
    };
    const ok = await run(text);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toMatch(/1 passed, 0 failed/);
    const bad = await run('users: [{ nam: alice }]\n');
    expect(bad.code).toBe(2);
    expect(bad.out).toMatch(/<stdin>:1:\d+: unknown key "nam" \(did you mean "name"\?\)/);
  });

  it('--rerun-failed report.json runs only what failed or errored there, with its seed', async () => {
    const first = await cli(
      'run',
      '--embedded',
      '--fault',
      'put-merge',
      '--filter',
      'articles/put',
      '--runs',
      '3',
      '--report-dir',
      'rerun-a',
    );
    expect(first.code, first.err).toBe(1);
    const before = JSON.parse(await readFile(path.join(dir, 'rerun-a', 'report.json'), 'utf8'));
    const failed = before.scenarios
      .filter((x: { status: string }) => x.status === 'failed')
      .map((x: { id: string }) => x.id);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(before.scenarios.length);
    const again = await cli(
      'run',
      '--embedded',
      '--fault',
      'put-merge',
      '--rerun-failed',
      'rerun-a/report.json',
      '--report-dir',
      'rerun-b',
    );
    expect(again.code).toBe(1);
    expect(again.err).toContain(
      `Rerunning the ${failed.length} failed or errored scenarios of rerun-a/report.json (seed ${before.seed})`,
    );
    const after = JSON.parse(await readFile(path.join(dir, 'rerun-b', 'report.json'), 'utf8'));
    expect(after.scenarios.map((x: { id: string }) => x.id).sort()).toEqual([...failed].sort());
    expect(after.seed).toBe(before.seed);
    expect(after.options.only.sort()).toEqual([...failed].sort());
    // Fixed: the rerun of the same scenarios passes; a clean report has nothing to rerun.
    const fixed = await cli('run', '--embedded', '--rerun-failed', 'rerun-a/report.json', '--report-dir', 'rerun-c');
    expect(fixed.code, fixed.out).toBe(0);
    expect(
      (await cli('run', '--embedded', '--rerun-failed', 'rerun-c/report.json', '--report-dir', 'rerun-d')).err,
    ).toMatch(/nothing to rerun/);
    expect((await cli('run', '--embedded', '--rerun-failed', 'nope.json')).code).toBe(2);
  });

  it('--exclude and --level narrow the selection, and report.json records them; a typo gets "did you mean"', async () => {
    const r = await cli(
      'run',
      '--embedded',
      '--filter',
      'articles/post',
      '--exclude',
      'twice',
      '--level',
      'must',
      '--runs',
      '2',
      '--report-dir',
      'narrowed',
    );
    expect(r.code, r.out + r.err).toBe(0);
    const report = JSON.parse(await readFile(path.join(dir, 'narrowed', 'report.json'), 'utf8')) as {
      scenarios: Array<{ id: string; level: string }>;
      options: { exclude?: string[]; levels?: string[] };
    };
    expect(report.scenarios.length).toBeGreaterThan(0);
    expect(
      report.scenarios.filter((x) => !x.id.includes('articles/post') || x.id.includes('twice') || x.level !== 'MUST'),
    ).toEqual([]);
    expect(report.options).toMatchObject({ exclude: ['twice'], levels: ['MUST'] });
    // The rules only unselected scenarios check are "not selected", not "uncovered"; each status has its reason.
    const rules = (
      JSON.parse(await readFile(path.join(dir, 'narrowed', 'report.json'), 'utf8')) as {
        rules: Array<{ status: string; reason?: string; selected?: false }>;
      }
    ).rules;
    expect(rules.every((x) => typeof x.reason === 'string' && x.reason.length > 0)).toBe(true);
    const unselected = rules.filter((x) => x.selected === false);
    expect(unselected.length).toBeGreaterThan(10);
    expect(unselected.every((x) => x.status === 'uncovered' && /^not selected: /.test(x.reason ?? ''))).toBe(true);
    expect(r.out).toMatch(new RegExp(`; ${unselected.length} not selected`));
    expect((await cli('run', '--embedded', '--level', 'HIGH')).err).toMatch(
      /--level expects MUST, SHOULD or MAY, got "HIGH"/,
    );
    const typo = await cli('run', '--embedded', '--fitler', 'x');
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/Unknown option '--fitler' \(did you mean --filter\?\)/);
    expect((await cli('run', '--embedded', '--frobnicate')).err).not.toMatch(/did you mean/);
  });

  it('--json puts the verdict, counts and report paths on stdout and the console on stderr; FORCE_COLOR colours it', async () => {
    const r = await runCli(
      dir,
      ['run', '--embedded', '--filter', 'articles/post-create', '--runs', '2', '--json', '--report-dir', 'json'],
      {
        FORCE_COLOR: '1',
      },
    );
    expect(r.code, r.err).toBe(0);
    const summary = JSON.parse(r.out) as {
      verdict: string;
      exitCode: number;
      scenarios: { passed: number };
      reports: string[];
    };
    expect(summary).toMatchObject({ verdict: 'PASS', exitCode: 0, scenarios: { passed: 1 } });
    expect(summary.reports).toContain(path.join('json', 'report.json'));
    expect(r.err).toContain('\u001b[');
    expect(r.err.replace(/\u001b\[\d+m/g, '')).toMatch(/Scenarios: 1 passed/);
    const plain = await runCli(
      dir,
      ['run', '--embedded', '--filter', 'articles/post-create', '--runs', '2', '--report-dir', 'json'],
      {
        FORCE_COLOR: '0',
      },
    );
    expect(plain.out).not.toContain('\u001b[');
  });

  it('conform help <command> is <command> --help; a mistyped command gets "did you mean"', async () => {
    const help = await cli('help', 'run');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: conform run \[options\]/);
    const typo = await cli('rnu');
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/unknown command "rnu" \(did you mean "run"\?\)/);
  });

  it('lints the bundled specs and profile clean', async () => {
    const r = await cli('lint');
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });

  it('lint prints file:line:col for each problem and exits 2', async () => {
    const scen = path.join(dir, 'bad.yaml');
    await writeFile(
      scen,
      'version: 1\nscenarios:\n  - id: a/b\n    title: t\n    rules: [nope]\n    steps:\n      - request: { method: GET, path: / }\n',
    );
    const scen2 = path.join(dir, 'bad2.yaml');
    await writeFile(
      scen2,
      'version: 1\nscenarios:\n  - id: a/c\n    title: t\n    rules: [4.3-allow-format]\n    steps:\n      - request: { method: GET, path: / }\n        expext: {}\n',
    );
    const prof = path.join(dir, 'bad.profile.yaml');
    await writeFile(prof, 'articles:\n  readable: yes please\n');
    const r = await cli('lint', scen, scen2, prof);
    expect(r.code).toBe(2);
    expect(r.out).toContain('bad.yaml:5:13: unknown rule "nope"');
    expect(r.out).toContain('bad2.yaml:8:9: unknown key "expext"');
    expect(r.out).toMatch(/bad\.profile\.yaml:2:13: articles\.readable: expected boolean/);
  });

  it('run with an invalid profile exits 2 naming file:line:col', async () => {
    const prof = path.join(dir, 'p.yaml');
    await writeFile(prof, 'target:\n  http: http://127.0.0.1:1\n  colour: blue\n');
    const r = await cli('run', '--profile', prof);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/p\.yaml:3:3: unknown key "colour"/);
  });

  it('a run that selects no scenario is exit 2, never a pass', async () => {
    const r = await cli('run', '--embedded', '--filter', 'no-scenario-has-this');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no scenario selected/);
  });

  it('an unreachable target is exit 3', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await cli(
      'run',
      '--target',
      `http://127.0.0.1:${port}`,
      '--profile',
      REFERENCE_PROFILE,
      '--report-dir',
      'r3',
      '--runs',
      '2',
    );
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/unreachable/i);
    // One line for the scenarios it could not run, not a block for each of them.
    expect(r.out).toMatch(/\d+ scenarios not run: the target is unreachable/);
    expect(r.out.split('\n').length).toBeLessThan(40);
    const report = JSON.parse(await readFile(path.join(dir, 'r3', 'report.json'), 'utf8')) as {
      unreachable?: string;
      summary: { errored: number };
    };
    expect(report.unreachable).toMatch(/refused/);
  });

  it('runs the suite against the embedded reference server: exit 0 and report.json with failed: 0', async () => {
    const r = await cli('run', '--embedded', '--runs', '5', '--seed', '3', '--report-dir', 'ok');
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toMatch(/Scenarios: \d+ passed, 0 failed/);
    const report = JSON.parse(await readFile(path.join(dir, 'ok', 'report.json'), 'utf8')) as Record<
      string,
      unknown
    > & { summary: Record<string, number>; seed: number };
    expect(report.summary['failed']).toBe(0);
    expect(report.seed).toBe(3);
    for (const key of ['tool', 'target', 'seed', 'startedAt', 'durationMs', 'summary', 'scenarios', 'rules'])
      expect(report).toHaveProperty(key);
  });

  it('a MUST failure is exit 1; a SHOULD failure alone is exit 0 unless --strict', async () => {
    expect(
      (
        await cli(
          'run',
          '--embedded',
          '--fault',
          'post-200',
          '--filter',
          'articles/post-create',
          '--runs',
          '5',
          '--report-dir',
          'f1',
        )
      ).code,
    ).toBe(1);
    const should = [
      'run',
      '--embedded',
      '--fault',
      'unlisted-method-200',
      '--filter',
      'methods/',
      '--runs',
      '5',
      '--report-dir',
      'f2',
    ];
    const warn = await cli(...should);
    expect(warn.code).toBe(0);
    expect(warn.out).toMatch(/⚠ methods\/unlisted-rejected/);
    expect((await cli(...should, '--strict')).code).toBe(1);
  });

  it('rules prints every rule with its covering scenarios', async () => {
    const r = await cli('rules');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/4\.2-post-201-location[\s\S]*covered by: articles\/post-create/);
    const json = JSON.parse((await cli('rules', '--json')).out) as Array<{ id: string; scenarios: string[] }>;
    expect(json.find((x) => x.id === 'rfc9110-405-allow')?.scenarios).toContain('methods/405-carries-allow');
  });

  it("rules prints each rule's level with the words it rests on; --uncovered and --json keep working", async () => {
    const r = await cli('rules');
    expect(r.out).toMatch(
      /MAY {4}5\.2-nonce-date-required\n.*\n\s+MAY because: “When the `Date` is outside a window around the server's clock, the server may ignore the message as a probable replay\.”/,
    );
    expect(r.out).toMatch(/SHOULD because \(RFC 7617 §4\): “Because Basic authentication/);
    expect(r.out).toMatch(/5-tls-only \[binds the deployment\]/);
    const json = JSON.parse((await cli('rules', '--json')).out) as Array<{ id: string; quote: string }>;
    expect(json.every((x) => x.quote.length > 0)).toBe(true);
    const uncovered = await cli('rules', '--uncovered');
    expect(uncovered.code).toBe(0);
    expect(uncovered.out).not.toMatch(/covered by:/);
    expect((await cli('rules', '--help')).out).toMatch(/quoted words/);
  });

  it('serve --list-faults names the fault modes', async () => {
    const r = await cli('serve', '--list-faults');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^post-200\s+POST create answers 200/m);
  });

  it('serve --data: starts on a directory (creating it), refuses a damaged journal or a file in its place with exit 2', async () => {
    const data = path.join(dir, 'data', 'nested');
    const ok = await cli(
      'serve',
      '--port',
      '0',
      '--https-port',
      'off',
      '--quiet',
      '--data',
      data,
      '--nonce-capacity',
      '10',
      '--request-timeout',
      '2000',
    );
    expect([ok.code, ok.out]).toEqual([
      0,
      expect.stringMatching(/^conform reference server listening on http:\/\/127\.0\.0\.1:\d+\n$/),
    ]);
    const line = '00000000 {"t":"d","k":"a"}\n';
    await writeFile(path.join(data, 'journal.log'), line + line);
    const damaged = await cli('serve', '--port', '0', '--https-port', 'off', '--data', data);
    expect([damaged.code, damaged.err]).toEqual([
      2,
      expect.stringMatching(/^conform serve: .*journal\.log: journal line 1: a damaged line/),
    ]);
    await writeFile(path.join(dir, 'plain-file'), 'x');
    const file = await cli('serve', '--port', '0', '--https-port', 'off', '--data', path.join(dir, 'plain-file'));
    expect([file.code, file.err]).toEqual([2, expect.stringMatching(/^conform serve: .*plain-file/)]);
    expect((await cli('serve', '--nonce-capacity', '0')).code).toBe(2);
    expect((await cli('serve', '--help')).out).toMatch(/--data DIR[\s\S]*--keep-alive-timeout MS/);
  });

  it('sign prints exactly the headers of the known-answer vectors', async () => {
    const nonce = await cli(
      'sign',
      '--scheme',
      'hmac-nonce',
      '--user',
      'alice',
      '--secret',
      'alice-secret-1',
      '--method',
      'GET',
      '--path',
      '/users/alice/financialrecords',
      '--date',
      '22 Nov 2026 10:00:00',
      '--nonce',
      '1',
    );
    expect(nonce.code).toBe(0);
    const vectors = await readFile(path.join(ROOT, 'specs', 'vectors', 'auth.yaml'), 'utf8');
    const header =
      /message: "GET\+\/users\/alice\/financialrecords\+22nov202610:00:00\+1"\n\s+digest: "[^"]+"\n\s+header: "([^"]+)"/.exec(
        vectors,
      )?.[1];
    expect(nonce.out).toBe(`Authentication: ${header}\nDate: 22 Nov 2026 10:00:00\n`);
    const basic = await cli('sign', '--scheme', 'basic', '--user', 'Aladdin', '--password', 'open sesame');
    expect(basic.out).toBe('Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\n');
    const body = await cli(
      'sign',
      '--scheme',
      'hmac',
      '--user',
      'alice',
      '--secret',
      'alice-secret-1',
      '--method',
      'PUT',
      '--path',
      '/articles/a1',
      '--body-hash',
      '--body',
      '<article><title>Ünïcode</title><price currency="usd">1.0</price></article>',
      '--curl',
      'http://127.0.0.1:8080',
    );
    const bodyVector = /name: "PUT with a body, simple form"[\s\S]*?header: "([^"]+)"/.exec(vectors)?.[1];
    expect(body.out.split('\n')[0]).toBe(`Authentication: ${bodyVector}`);
    expect(body.out).toMatch(
      /^curl -i -X PUT -H 'Authentication: hmac alice:[^']+' --data-binary '<article>.*' 'http:\/\/127\.0\.0\.1:8080\/articles\/a1'$/m,
    );
    expect((await cli('sign', '--scheme', 'hmac')).code).toBe(2);
  });

  it('sign takes the secret or password from CONFORM_<USER>_SECRET / _PASSWORD when none is given', async () => {
    const args = ['sign', '--scheme', 'hmac', '--user', 'carol-d', '--method', 'GET', '--path', '/r'];
    const given = await cli(...args, '--secret', 's3cret');
    const fromEnv = await runCli(dir, args, { CONFORM_CAROL_D_SECRET: 's3cret' });
    expect([fromEnv.code, fromEnv.out]).toEqual([0, given.out]);
    const basic = await runCli(dir, ['sign', '--scheme', 'basic', '--user', 'Aladdin'], {
      CONFORM_ALADDIN_PASSWORD: 'open sesame',
    });
    expect(basic.out).toBe('Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\n');
    const missing = await runCli(dir, args);
    expect([missing.code, missing.err]).toEqual([
      2,
      expect.stringContaining('CONFORM_CAROL_D_SECRET in the environment'),
    ]);
  });

  it('refuses to judge anything when its own signers fail the known-answer vectors (exit 4)', async () => {
    const good = await readFile(path.join(ROOT, 'specs', 'vectors', 'auth.yaml'), 'utf8');
    const bad = path.join(dir, 'bad-vectors.yaml');
    await writeFile(
      bad,
      good.replace('header: "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="', 'header: "Basic QWxhZGRpbjpvcGVuIHNlc2FtZR=="'),
    );
    const r = await cli('run', '--embedded', '--vectors', bad, '--report-dir', 'never');
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/fail the known-answer vectors[\s\S]*RFC 7617 §2 example/);
  });
});
