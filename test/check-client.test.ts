/**
 * `conform check-client` end to end (issue 28): real clients — a Node script (correct, and one making five classic
 * mistakes), curl with openssl, Python requests / requests-oauthlib when installed — run against the bundled
 * reference server; every violation is found and named with its rule id, correct clients get a clean report, and no
 * secret reaches a report or the console in any encoding.
 */
import { execFileSync } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { main } from '../cli/src/main.js';
import { ClientReportSchema, type ClientReport } from '../harness/src/report/client/schema.js';
import { runCli, type CliResult } from './cli-helpers.js';
import { it } from './fixtures.js';
import { ROOT } from './helpers.js';

const NODE_CLIENT = path.join(ROOT, 'test', 'clients', 'node-client.mjs');
const CURL_CLIENT = path.join(ROOT, 'test', 'clients', 'curl-client.sh');
const CURL_OAUTH2 = path.join(ROOT, 'test', 'clients', 'curl-oauth2.sh');
const OAUTH1_CLIENT = path.join(ROOT, 'test', 'clients', 'oauth1-client.mjs');
const OAUTH1_LIBRARY = path.join(ROOT, 'test', 'clients', 'oauth1-library-client.mjs');
const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
const SECRETS = ['wonder:land', 'alice-secret-1', 'rep-secret', 'consumer-secret-1', 'builder', 'bob-secret-2'];

async function check(dir: string, ...argv: string[]): Promise<CliResult & { report: ClientReport }> {
  const result = await runCli(dir, ['check-client', '--report-dir', 'out', ...argv], ENV);
  const report = ClientReportSchema.parse(
    JSON.parse(await readFile(path.join(dir, 'out', 'client-report.json'), 'utf8')),
  );
  return { ...result, report };
}

const statusOf = (report: ClientReport, id: string) => report.rules.find((r) => r.id === id)?.status;

/** Every file written and everything printed, checked for each secret in clear, base64 and percent-encoded. */
async function expectNoSecret(dir: string, printed: string): Promise<void> {
  const texts = [printed];
  for (const f of await readdir(path.join(dir, 'out'))) texts.push(await readFile(path.join(dir, 'out', f), 'utf8'));
  const all = texts.join('\n');
  // Credentials issued at run time (tokens, token secrets, verifiers) show only masked.
  expect(all).not.toMatch(
    // (an OAuth header's parameter shows as oauth_token="[redacted]", quoted; in JSON the quote is escaped)
    /(access_token|oauth_token|oauth_token_secret|oauth_verifier|client_secret)=(?!(?:\\?")?\[redacted\])/,
  );
  for (const s of SECRETS) {
    for (const form of [
      s,
      encodeURIComponent(s),
      Buffer.from(s).toString('base64'),
      Buffer.from(`alice:${s}`).toString('base64'),
    ])
      expect(all, form).not.toContain(form);
  }
}

describe('conform check-client', () => {
  it('--help documents the variables and the exit codes; a command is required', async ({ tempDir }) => {
    const help = await runCli(tempDir, ['check-client', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/CONFORM_HTTPS_URL/);
    expect(help.out).toMatch(/CONFORM_CA_FILE/);
    expect(help.out).toMatch(/Exit codes: 0/);
    expect((await runCli(tempDir, ['--help'])).out).toMatch(/check-client/);
    const usage = await runCli(tempDir, ['check-client']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/after --/);
  });

  it('a command that cannot be run is exit 3', async ({ tempDir }) => {
    const r = await runCli(
      tempDir,
      ['check-client', '--report-dir', 'out', '--', path.join(tempDir, 'no-such-client')],
      ENV,
    );
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/cannot run/);
  });

  it('the wrong client: each of its five mistakes is found and named with its rule id', async ({ tempDir }) => {
    const r = await check(tempDir, '--', process.execPath, NODE_CLIENT, 'wrong');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/statuses: 200 401 401 401 401 400/);
    // The refusals told the client its mistakes (check-client diagnoses by default).
    expect(r.out).toMatch(/diagnosed: - - - date-text-case-kept nonce-left-out -/);
    const failed = Object.fromEntries(
      r.report.rules.filter((x) => x.status === 'failed').map((x) => [x.id, x.violations]),
    );
    expect(Object.keys(failed).sort()).toEqual([
      '4.1-put-complete-body',
      '5-client-tls-only',
      '5.2-client-date-text',
      '5.2-client-message',
      '5.2-nonce-change',
    ]);
    expect(failed['5.2-nonce-change']).toEqual([
      {
        request: 2,
        reason: expect.stringMatching(/already sent in request #1/) as string,
        method: 'GET',
        target: '/users/alice/financialrecords',
      },
    ]);
    expect(failed['5-client-tls-only']).toEqual([
      { request: 3, reason: 'Basic credentials sent over plain HTTP; use TLS', method: 'GET', target: '/' },
    ]);
    expect(failed['5.2-client-date-text']).toMatchObject([{ request: 4, mistake: 'date-text-case-kept' }]);
    expect(failed['4.1-put-complete-body']).toMatchObject([{ request: 6 }]);
    expect(failed['5.2-client-message']).toMatchObject([{ request: 5, mistake: 'nonce-left-out' }]);
    expect(r.report.requests.map((q) => [q.seq, q.transport, q.status])).toEqual([
      [1, 'https', 200],
      [2, 'https', 401],
      [3, 'http', 401],
      [4, 'https', 401],
      [5, 'https', 401],
      [6, 'https', 400],
    ]);
    expect(r.out).toMatch(/✗ MUST {3}5\.2-nonce-change {2}failed/);
    expect(r.out).toMatch(
      /^reports: out\/client-report\.json, out\/client-junit\.xml, out\/client-report\.md, out\/client-report\.html$/m,
    );
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('--no-diagnose: the refusals are bare, the verdicts the same', async ({ tempDir }) => {
    const r = await check(tempDir, '--no-diagnose', '--', process.execPath, NODE_CLIENT, 'wrong');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/diagnosed: - - - - - -/);
    expect(r.report.rules.filter((x) => x.status === 'failed').map((x) => x.id)).toHaveLength(5);
  });

  it('the correct Node client gets a clean report (exit 0), in every format', async ({ tempDir }) => {
    const r = await check(tempDir, '--', process.execPath, NODE_CLIENT, 'good');
    expect(r.code).toBe(0);
    expect(r.report.summary).toMatchObject({ failed: 0, requests: 6 });
    for (const id of [
      '5.2-nonce-change',
      '5.2-client-message',
      '5.2-client-date-text',
      '5.2-client-simple-message',
      '5-client-tls-only',
      '4.1-put-complete-body',
    ])
      expect(statusOf(r.report, id), id).toBe('passed');
    expect(statusOf(r.report, 'rfc5849-client-signature')).toBe('not exercised');
    const files = (await readdir(path.join(tempDir, 'out'))).sort();
    expect(files).toEqual(['client-junit.xml', 'client-report.html', 'client-report.json', 'client-report.md']);
    const xsd = await readFile(path.join(ROOT, 'test', 'fixtures', 'junit-10.xsd'), 'utf8');
    const xml = await readFile(path.join(tempDir, 'out', 'client-junit.xml'), 'utf8');
    const checked = await validateXML({
      xml: { fileName: 'j.xml', contents: xml },
      schema: { fileName: 'junit-10.xsd', contents: xsd },
    });
    expect(checked.errors.map((e) => e.rawMessage)).toEqual([]);
    expect(await readFile(path.join(tempDir, 'out', 'client-report.md'), 'utf8')).toMatch(
      /^# Client compliance: passed/,
    );
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('a correct curl + openssl client gets a clean report', async ({ tempDir }) => {
    const r = await check(tempDir, '--', CURL_CLIENT);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/curl client done/);
    expect(r.report.summary).toMatchObject({ failed: 0, requests: 3 });
    expect(statusOf(r.report, '5.2-nonce-change')).toBe('passed');
    expect(statusOf(r.report, '5-client-tls-only')).toBe('passed');
    await expectNoSecret(tempDir, r.out);
  });

  it('OAuth 2 with curl: a correct client passes the RFC 6749 and 6750 client rules', async ({ tempDir }) => {
    const r = await check(tempDir, '--', CURL_OAUTH2, 'good');
    expect(r.code).toBe(0);
    for (const id of [
      '5-client-tls-only',
      'rfc6749-client-credentials-not-in-uri',
      'rfc6749-client-one-auth-method',
      'rfc6750-client-bearer-header',
    ])
      expect(statusOf(r.report, id), id).toBe('passed');
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('OAuth 2 with curl: secrets in the URI, two methods, a token in the query and over plain HTTP are named', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--', CURL_OAUTH2, 'wrong');
    expect(r.code).toBe(1);
    const failed = Object.fromEntries(
      r.report.rules.filter((x) => x.status === 'failed').map((x) => [x.id, x.violations.map((v) => v.request)]),
    );
    expect(failed).toEqual({
      '5-client-tls-only': [5],
      'rfc6749-client-credentials-not-in-uri': [2],
      'rfc6749-client-one-auth-method': [3],
      'rfc6750-client-bearer-header': [4],
    });
    const json = await readFile(path.join(tempDir, 'out', 'client-report.json'), 'utf8');
    expect(json).toMatch(/access_token=\[redacted\]/);
    expect(json).not.toMatch(/access_token=(?!\[redacted\])/);
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('OAuth 1 (a Node client with its own RFC 5849 signer): the three legs and a signed GET pass', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--', process.execPath, OAUTH1_CLIENT, 'good');
    expect(r.out).toMatch(/last: 200/);
    expect(r.code).toBe(0);
    expect(r.report.rules.find((x) => x.id === 'rfc5849-client-signature')).toMatchObject({
      status: 'passed',
      exercised: 3,
    });
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('OAuth 1: a signature without the query fails rfc5849-client-signature; the refusal names the mistake', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--', process.execPath, OAUTH1_CLIENT, 'wrong');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/last: 401 diagnosed: query-left-out/);
    expect(
      r.report.rules.filter((x) => x.status === 'failed').map((x) => [x.id, x.violations.map((v) => v.request)]),
    ).toEqual([['rfc5849-client-signature', [4]]]);
    // The judge recomputed the signature with the token secret the server issued, and names the same mistake.
    expect(r.report.rules.find((x) => x.id === 'rfc5849-client-signature')?.violations[0]?.mistake).toBe(
      'query-left-out',
    );
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('complete articles the reference parser does not take (an extra element, ISO-8859-1) pass 4.1-put-complete-body', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--', process.execPath, NODE_CLIENT, 'articles');
    // The reference server keeps to its own choices (§2: other fields "not shown"; UTF-8 only) and refuses both…
    expect(r.out).toMatch(/statuses: 400 400/);
    // …but the client sent complete articles: the judge reads them by §2's words.
    expect(r.code, r.out).toBe(0);
    expect(r.report.rules.find((x) => x.id === '4.1-put-complete-body')).toMatchObject({
      status: 'passed',
      exercised: 2,
    });
  });

  it('a client signing without the body hash, as §5.2 describes the message, passes by default; --body-hash required names it', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--', process.execPath, NODE_CLIENT, 'no-body-hash');
    expect(r.out).toMatch(/statuses: 201 201/);
    expect(r.code, r.out).toBe(0);
    expect(r.report.rules.find((x) => x.id === '5.2-client-message')).toMatchObject({ status: 'passed', exercised: 2 });
    const required = await check(
      tempDir,
      '--body-hash',
      'required',
      '--',
      process.execPath,
      NODE_CLIENT,
      'no-body-hash',
    );
    expect(required.out).toMatch(/statuses: 401 401/);
    expect(required.out).toMatch(/diagnosed: body-hash-left-out body-hash-left-out/);
    expect(required.code).toBe(1);
    expect(required.report.rules.find((x) => x.id === '5.2-client-message')?.violations).toMatchObject([
      { request: 1, mistake: 'body-hash-left-out' },
      { request: 2, mistake: 'body-hash-left-out' },
    ]);
    const env = await runCli(
      tempDir,
      ['check-client', '--report-dir', 'out', '--', 'sh', '-c', 'echo "hash=$CONFORM_BODY_HASH"'],
      ENV,
    );
    expect(env.out).toMatch(/^hash=optional$/m);
    const usage = await runCli(tempDir, ['check-client', '--body-hash', 'maybe', '--', 'true'], ENV);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/--body-hash takes optional, required or off/);
  });

  it('--variant starts the server with that choice and judges the client by it (window-300)', async ({ tempDir }) => {
    const r = await check(tempDir, '--variant', 'window-300', '--', process.execPath, NODE_CLIENT, 'skewed');
    expect(r.code).toBe(1);
    expect(r.report.rules.find((x) => x.id === '5.2-client-clock-sync')?.violations[0]?.reason).toMatch(
      /\(window 300 s\)$/,
    );
    const unknown = await runCli(tempDir, ['check-client', '--variant', 'nope', '--', 'true'], ENV);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown variant "nope"/);
  });

  for (const [mode, mistake, signed] of [
    [
      'wrong-host',
      'host-wrong',
      /^signed https:\/\/localhost:\d+\/users\/alice\/financialrecords, sent to 127\.0\.0\.1:\d+: /,
    ],
    [
      'wrong-port',
      'port-wrong',
      /^signed https:\/\/127\.0\.0\.1:\d+\/users\/alice\/financialrecords, sent to port \d+: /,
    ],
  ] as const)
    it(`OAuth 1: a signature over the ${mode.slice(6)} the request was not sent to is named ${mistake}`, async ({
      tempDir,
    }) => {
      const r = await check(tempDir, '--', process.execPath, OAUTH1_CLIENT, mode);
      expect(r.code).toBe(1);
      const [violation] = r.report.rules.find((x) => x.id === 'rfc5849-client-signature')?.violations ?? [];
      expect(violation).toMatchObject({ request: 4, mistake });
      expect(violation?.reason).toMatch(signed);
      await expectNoSecret(tempDir, r.out + r.err);
    });

  it('a client clock 20 minutes slow fails 5.2-client-clock-sync (the window is 600 s)', async ({ tempDir }) => {
    const r = await check(tempDir, '--', process.execPath, NODE_CLIENT, 'skewed');
    expect(r.code).toBe(1);
    const failed = r.report.rules.filter((x) => x.status === 'failed');
    expect(failed.map((x) => x.id)).toEqual(['5.2-client-clock-sync']);
    expect(failed[0]?.violations[0]?.reason).toMatch(
      /^the Date is 1[12]\d\d s behind the server's clock \(window 600 s\)$/,
    );
  });

  it("the command's output reaches the console with every secret redacted", async ({ tempDir }) => {
    const script = 'echo "$CONFORM_SECRET $CONFORM_PASSWORD $CONFORM_OAUTH2_CLIENT_SECRET"; echo "$CONFORM_USER" >&2';
    const r = await check(tempDir, '--', 'sh', '-c', script);
    expect(r.out).toMatch(/^\[redacted\] \[redacted\] \[redacted\]$/m);
    expect(r.err).toMatch(/^alice$/m);
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('OAuth 1 with a third-party library (oauth-1.0a): reserved and non-ASCII query characters, a clean report', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--', process.execPath, OAUTH1_LIBRARY);
    expect(r.out).toMatch(/library client: 200/);
    expect(r.code).toBe(0);
    expect(r.report.rules.find((x) => x.id === 'rfc5849-client-signature')).toMatchObject({
      status: 'passed',
      exercised: 3,
    });
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('OAuth 1 PLAINTEXT over TLS with oauth-1.0a (RFC 5849 §3.4.4): judged by its method, a clean report', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--', process.execPath, OAUTH1_LIBRARY, 'PLAINTEXT');
    expect(r.out, r.err).toMatch(/library client \(PLAINTEXT\): 200/);
    expect(r.code).toBe(0);
    expect(r.report.rules.find((x) => x.id === 'rfc5849-client-signature')).toMatchObject({
      status: 'passed',
      exercised: 3,
      violations: [],
    });
    await expectNoSecret(tempDir, r.out + r.err);
  });

  it('a client that exercises no MUST rule is exit 2, not a pass', async ({ tempDir }) => {
    const r = await check(tempDir, '--', process.execPath, '-e', 'process.exit(0)');
    expect(r.code).toBe(2);
    expect(r.report.summary).toMatchObject({ requests: 0, passed: 0, failed: 0 });
    expect(r.err).toMatch(/no MUST client rule was exercised \(0 request\(s\)/);
  });

  it('a client command that fails fails the check (exit 5) with its own line, unless --ignore-client-exit', async ({
    tempDir,
  }) => {
    // The correct Node client, then a failing test suite after it: every rule passes, the command does not.
    const script = '"$0" "$1" good && exit 7';
    const r = await check(tempDir, '--', 'sh', '-c', script, process.execPath, NODE_CLIENT);
    expect(r.code).toBe(5);
    expect(r.report.summary.failed).toBe(0);
    expect(r.report.exit).toEqual({ code: 7, signal: null, timedOut: false, checked: true });
    expect(r.out).toMatch(/^✗ the client command exited 7: the check fails/m);
    expect(r.out).toMatch(/client rules: failed$/m);
    expect(r.err).toMatch(/sh exited 7: the check fails \(exit 5\); --ignore-client-exit/);
    expect(await readFile(path.join(tempDir, 'out', 'client-report.md'), 'utf8')).toMatch(
      /^# Client compliance: failed/,
    );
    const junit = await readFile(path.join(tempDir, 'out', 'client-junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase name="client command"[^>]*>\s*<failure message="✗ the client command exited 7/);
    const ignored = await check(
      tempDir,
      '--ignore-client-exit',
      '--',
      'sh',
      '-c',
      script,
      process.execPath,
      NODE_CLIENT,
    );
    expect(ignored.code).toBe(0);
    expect(ignored.report.exit).toMatchObject({ code: 7, checked: false });
    expect(ignored.out).toMatch(/^· the client command exited 7: ignored \(--ignore-client-exit\)$/m);
  });

  it('a client that dies on an uncaught error or is killed by a signal: exit 5, not a pass', async ({ tempDir }) => {
    const thrown = await check(tempDir, '--', process.execPath, '-e', 'throw new Error("boom")');
    expect(thrown.code).toBe(5);
    expect(thrown.err).toMatch(/Error: boom/);
    expect(thrown.report.exit).toMatchObject({ code: 1, checked: true });
    const killed = await check(tempDir, '--', 'sh', '-c', 'kill -9 $$');
    expect(killed.code).toBe(5);
    expect(killed.report.exit).toMatchObject({ code: null, signal: 'SIGKILL', timedOut: false });
    expect(killed.err).toMatch(/sh was killed by SIGKILL/);
  });

  it('a background child holding the output does not hold the check: done when the command exits', async ({
    tempDir,
  }) => {
    // Before issue 36 this waited for the sleep and ended as a timeout (exit 3, timedOut: true, exit.code 0).
    const script = '"$0" "$1" good; sleep 60 & echo left a child';
    const r = await check(tempDir, '--timeout', '30', '--', 'sh', '-c', script, process.execPath, NODE_CLIENT);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^left a child$/m);
    expect(r.report.exit).toEqual({ code: 0, signal: null, timedOut: false, checked: true });
  });

  it('violations past --max-requests keep their method and path', async ({ tempDir }) => {
    const r = await check(tempDir, '--max-requests', '1', '--', process.execPath, NODE_CLIENT, 'wrong');
    expect(r.report.requests).toHaveLength(1);
    const tls = r.report.rules.find((x) => x.id === '5-client-tls-only');
    expect(tls?.violations).toEqual([
      {
        request: 3,
        reason: 'Basic credentials sent over plain HTTP; use TLS',
        method: 'GET',
        target: '/',
      },
    ]);
    expect(r.out).toMatch(/#3 GET \/: Basic credentials sent over plain HTTP/);
  });

  it('a client past --timeout is killed with its process group: exit 3, the report still written', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--timeout', '1', '--', process.execPath, '-e', 'setInterval(() => {}, 1000)');
    expect(r.code).toBe(3);
    expect(r.report.exit).toEqual({ code: null, signal: 'SIGKILL', timedOut: true, checked: true });
  });
});

/** A Python with these modules: the one on PATH, else Debian's (a pyenv shim first on PATH may lack them). */
function pythonWith(modules: string): string | undefined {
  return ['python3', '/usr/bin/python3'].find((exe) => {
    try {
      execFileSync(exe, ['-c', `import ${modules}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

const python = pythonWith('requests, requests_oauthlib');
const authlib = pythonWith('requests, authlib');
const BEARER_BODY = path.join(ROOT, 'test', 'clients', 'python-bearer-body.py');

/** The verdicts of a client that sends its bearer token in the body of a GET over plain HTTP (issue 36, item 1). */
function expectBodyTokenNamed(r: CliResult & { report: ClientReport }): void {
  expect(r.code, r.out + r.err).toBe(1);
  const failed = Object.fromEntries(
    r.report.rules.filter((x) => x.status === 'failed').map((x) => [x.id, x.violations]),
  );
  expect(Object.keys(failed).sort()).toEqual([
    '5-client-tls-only',
    'rfc6750-client-bearer-header',
    'rfc6750-client-body-token',
  ]);
  const get = r.report.requests.find((q) => q.method === 'GET' && q.transport === 'http');
  expect(failed['5-client-tls-only']).toEqual([
    {
      request: get?.seq,
      reason: expect.stringMatching(/^an OAuth 2 access token \(access_token in the request body/) as string,
      method: 'GET',
      target: '/users/alice/financialrecords',
    },
  ]);
  expect(failed['rfc6750-client-body-token']?.[0]?.reason).toMatch(/GET is a method whose request body/);
}

describe.skipIf(!python)(
  'Python requests / requests-oauthlib (skipped without them: apt-get install python3-requests python3-requests-oauthlib)',
  () => {
    it('a requests + requests-oauthlib client gets a clean report', async ({ tempDir }) => {
      const r = await check(tempDir, '--', python!, path.join(ROOT, 'test', 'clients', 'python-client.py'));
      expect(r.code, r.out + r.err).toBe(0);
      expect(statusOf(r.report, '5-client-tls-only')).toBe('passed');
      expect(statusOf(r.report, 'rfc5849-client-signature')).toBe('passed');
      expect(statusOf(r.report, 'rfc6750-client-bearer-header')).toBe('passed');
      expect(statusOf(r.report, 'rfc6749-client-one-auth-method')).toBe('passed');
      await expectNoSecret(tempDir, r.out + r.err);
    });

    it('requests-oauthlib with placement "body": a bearer token in the body of a GET over plain HTTP is named', async ({
      tempDir,
    }) => {
      const r = await check(tempDir, '--', python!, BEARER_BODY, 'requests-oauthlib');
      expect(r.out, r.err).toMatch(/requests-oauthlib body token over http: 401/);
      expectBodyTokenNamed(r);
      await expectNoSecret(tempDir, r.out + r.err);
    });
  },
);

describe.skipIf(!authlib)('Authlib (skipped without it: apt-get install python3-requests python3-authlib)', () => {
  for (const method of ['HMAC-SHA1', 'PLAINTEXT'])
    it(`Authlib OAuth 1 with ${method} over TLS: the three legs and a signed GET, a clean report`, async ({
      tempDir,
    }) => {
      const r = await check(
        tempDir,
        '--',
        authlib!,
        path.join(ROOT, 'test', 'clients', 'python-authlib-oauth1.py'),
        method,
      );
      expect(r.out, r.err).toMatch(new RegExp(`authlib oauth1 \\(${method}\\): 200`));
      expect(r.code).toBe(0);
      expect(r.report.rules.find((x) => x.id === 'rfc5849-client-signature')).toMatchObject({
        status: 'passed',
        exercised: 3,
      });
      await expectNoSecret(tempDir, r.out + r.err);
    });

  it('Authlib with token_placement "body": a bearer token in the body of a GET over plain HTTP is named', async ({
    tempDir,
  }) => {
    const r = await check(tempDir, '--', authlib!, BEARER_BODY, 'authlib');
    expect(r.out).toMatch(/authlib body token over http: 401/);
    expectBodyTokenNamed(r);
    await expectNoSecret(tempDir, r.out + r.err);
  });
});

describe('conform serve --client-report DIR', () => {
  it('records while it runs, and on stop judges the requests and writes the client report', async ({ tempDir }) => {
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let listening = (_url: string) => {};
    const url = new Promise<string>((resolve) => (listening = resolve));
    let out = '';
    let err = '';
    const argv = ['serve', '--port', '0', '--https-port', 'off', '--quiet', '--diagnose', '--client-report', 'out'];
    const done = main(argv, {
      stdout: {
        write: (s: string) => {
          out += s;
          const m = /listening on (http:\/\/\S+)/.exec(s);
          if (m?.[1]) listening(m[1]);
          return true;
        },
      },
      stderr: { write: (s: string) => (err += s) },
      env: {},
      cwd: tempDir,
      untilSignal: () => stopped,
    });
    const base = await Promise.race([
      url,
      done.then((code) => Promise.reject(new Error(`serve exited ${code}: ${err}`))),
    ]);
    const basic = `Basic ${Buffer.from('alice:wonder:land').toString('base64')}`;
    expect((await fetch(`${base}/users/alice/financialrecords`, { headers: { authorization: basic } })).status).toBe(
      401,
    );
    const refused = await fetch(`${base}/users/alice/financialrecords`, {
      headers: { authentication: 'hmac alice:AAAA' },
    });
    expect(((await refused.json()) as { diagnostic?: { signed?: string } }).diagnostic?.signed).toBe(
      'GET+/users/alice/financialrecords',
    );
    stop();
    expect(await done).toBe(0);
    const report = ClientReportSchema.parse(
      JSON.parse(await readFile(path.join(tempDir, 'out', 'client-report.json'), 'utf8')),
    );
    expect(report.exit).toBeUndefined();
    expect(report.command).toEqual(['conform', ...argv]);
    expect(
      report.rules.filter((r) => r.status === 'failed').map((r) => [r.id, r.violations.map((v) => v.request)]),
    ).toEqual([
      ['5.2-client-simple-message', [2]],
      ['5-client-tls-only', [1]],
    ]);
    expect(err).toMatch(/client report written to out/);
    await expectNoSecret(tempDir, out + err);
  });

  it('is refused with --instances', async ({ tempDir }) => {
    const r = await runCli(tempDir, [
      'serve',
      '--instances',
      '2',
      '--redis',
      'redis://127.0.0.1:1',
      '--client-report',
      'out',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--client-report records one instance/);
  });
});
