/**
 * The replay script, run by bash with `curl` and `conform` replaced by functions that log their arguments and answer
 * as told: what it signs, sends, captures and reuses, and how it exits, checked by the shell itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Exchange, FailedResult, ScenarioResult } from '../runner/types.js';
import { renderScript, scriptPath } from './script.js';

const dir = mkdtempSync(path.join(tmpdir(), 'conform-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Fakes: curl answers the statuses of $STATUSES in turn (a POST with a Location of its own); conform sign counts. */
const FAKES = String.raw`
n_of() { local n; n=$(cat "$LOG.$1" 2>/dev/null); n=$((${'${n:-0}'} + 1)); printf '%s' "$n" >"$LOG.$1"; printf '%s' "$n"; }
curl() {
  local o h m=GET url k
  while [ $# -gt 0 ]; do
    case $1 in -o) o=$2; shift ;; -D) h=$2; shift ;; -X) m=$2; shift ;; -w|-H|--data-binary|--cacert) shift ;; esac
    url=$1; shift
  done
  k=$(n_of curl)
  printf 'curl %s %s\n' "$m" "$url" >>"$LOG"
  printf 'ok %s' "$k" >"$o"
  if [ "$m" = POST ]; then printf 'HTTP/1.1 201 Created\r\nLocation: http://other:9/articles/fresh%s\r\n\r\n' "$k" >"$h"; else : >"$h"; fi
  set -- $STATUSES
  shift $((k - 1))
  printf '%s' "$1"
}
fake_conform() {
  local k
  k=$(n_of sign)
  shift
  printf 'sign %s\n' "$*" >>"$LOG"
  printf 'Authentication: hmac alice:90%s:digest\nDate: D%s\n' "$k" "$k"
}
export -f n_of curl fake_conform
`;

/** Runs `script` under the fakes; its exit code, what it printed, and the fakes' log. */
function run(script: string, statuses: string, env: Record<string, string> = {}) {
  const file = path.join(dir, `s${Math.random().toString(36).slice(2)}.sh`);
  const log = `${file}.log`;
  writeFileSync(file, script);
  let code = 0;
  let out: string;
  try {
    out = execFileSync('bash', ['--norc', '--noprofile', '-c', `${FAKES}\nbash "$0"`, file], {
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        LOG: log,
        STATUSES: statuses,
        CONFORM: 'fake_conform',
        ...env,
      },
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    code = e.status;
    out = e.stdout + e.stderr;
  }
  let logged = '';
  try {
    logged = readFileSync(log, 'utf8');
  } catch {
    // nothing was sent or signed
  }
  return { code, out, log: logged };
}

const hmac = (nonce: string) => ({ authentication: `hmac alice:${nonce}:[redacted]`, date: `D${nonce}` });
const signed = { scheme: 'hmac-nonce', user: 'alice', header: 'Authentication', bodyHash: true };

function failed(transcript: Exchange[], step: number, messages: string[]): FailedResult {
  return {
    id: 'articles/example',
    title: 'An example',
    file: 'specs/x.yaml',
    line: 1,
    rules: ['r'],
    level: 'MUST',
    tags: [],
    requests: transcript.length,
    runs: 1,
    durationMs: 1,
    transcript,
    status: 'failed',
    reason: messages[0]!,
    failure: { step, messages },
  };
}

/** POST (server-chosen id) → PUT to it → the same PUT replayed (its nonce and Date again), which fails. */
const replayed = failed(
  [
    {
      step: 1,
      stepName: 'create',
      credential: { ...signed, path: '/articles' },
      request: {
        method: 'POST',
        url: 'http://h:1/articles',
        headers: { ...hmac('1'), 'content-type': 'application/xml' },
        body: '<a/>',
      },
      response: { status: 201, headers: { location: '/articles/srv1' }, durationMs: 1 },
    },
    {
      step: 2,
      credential: { ...signed, path: '/articles/srv1' },
      request: { method: 'PUT', url: 'http://h:1/articles/srv1', headers: hmac('2'), body: "<it's $x/>" },
      response: { status: 200, headers: {}, durationMs: 1 },
    },
    {
      step: 3,
      credential: { ...signed, path: '/articles/srv1' },
      request: { method: 'PUT', url: 'http://h:1/articles/srv1', headers: hmac('2'), body: "<it's $x/>" },
      response: { status: 200, headers: {}, durationMs: 1 },
    },
  ],
  3,
  ['PUT /articles/srv1: expected status 401, got 200'],
);

describe('renderScript', () => {
  it('names its file after the scenario id, below repro/', () => {
    expect(scriptPath('articles/put-replace')).toBe('repro/articles/put-replace.sh');
    expect(scriptPath('../x y/..')).toBe('repro/__/x_y/__.sh');
  });

  it('is valid bash, and is undefined for a scenario that did not fail', () => {
    const text = renderScript(replayed)!;
    expect(() => execFileSync('bash', ['-n'], { input: text })).not.toThrow();
    expect(renderScript({ ...replayed, status: 'passed' } as unknown as ScenarioResult)).toBeUndefined();
  });

  it('signs each request afresh, takes the id the target chose from its own answer, and reuses a replayed credential', () => {
    const r = run(renderScript(replayed)!, '201 200 200', { CONFORM_ALICE_SECRET: 'x' });
    const lines = r.log.split('\n');
    // The PUT goes to the URL the replayed POST was answered with, not the run's.
    expect(lines.filter((l) => l.startsWith('curl'))).toEqual([
      'curl POST http://h:1/articles',
      'curl PUT http://h:1/articles/fresh1',
      'curl PUT http://h:1/articles/fresh1',
    ]);
    // Two signatures: the third request is the second's, replayed as the run replayed it.
    expect(lines.filter((l) => l.startsWith('sign'))).toEqual([
      expect.stringMatching(
        /^sign --scheme hmac-nonce --user alice --header Authentication --method POST --path \/articles --body-file \S+ --body-hash$/,
      ),
      expect.stringMatching(
        /^sign --scheme hmac-nonce --user alice --header Authentication --method PUT --path \/articles\/fresh1 --body-file/,
      ),
    ]);
    expect(r.out).toContain('step 3 PUT /articles/srv1 → 200, as in the run');
    expect(r.out).toContain('REPRODUCED');
    expect(r.code).toBe(1);
  });

  it('exits 0 when the failing request answers otherwise, and 2 without the secret', () => {
    const fixed = run(renderScript(replayed)!, '201 200 401', { CONFORM_ALICE_SECRET: 'x' });
    expect(fixed.out).toContain('step 3 PUT /articles/srv1 → 401; the run got 200');
    expect([fixed.code, fixed.out]).toEqual([0, expect.stringContaining('NOT REPRODUCED')]);
    const bare = run(renderScript(replayed)!, '201 200 200');
    expect([bare.code, bare.log]).toEqual([2, '']);
    expect(bare.out).toContain('set CONFORM_ALICE_SECRET (the signing secret of user alice)');
  });

  it('asks for an OAuth 2 token, and says an OAuth 1 request cannot be replayed', () => {
    const bearer = failed(
      [
        {
          step: 1,
          credential: { scheme: 'oauth2', user: 'alice' },
          request: { method: 'GET', url: 'https://h:2/r', headers: { authorization: 'Bearer [redacted]' } },
          response: { status: 403, headers: {}, durationMs: 1 },
        },
      ],
      1,
      ['GET /r: expected status 2xx, got 403'],
    );
    expect(run(renderScript(bearer)!, '403').code).toBe(2);
    const withToken = run(renderScript(bearer, { tls: { insecure: true } })!, '403', { CONFORM_ACCESS_TOKEN: 't' });
    expect([withToken.code, withToken.log]).toEqual([1, 'curl GET https://h:2/r\n']);
    const oauth1 = failed(
      [
        {
          ...bearer.transcript[0]!,
          credential: { scheme: 'oauth1', user: 'alice' },
          request: {
            method: 'GET',
            url: 'https://h:2/r',
            headers: { authorization: 'OAuth oauth_signature="[redacted]"' },
          },
        },
      ],
      1,
      ['GET /r: expected status 2xx, got 403'],
    );
    const o = run(renderScript(oauth1)!, '403');
    expect([o.code, o.log]).toEqual([2, '']);
    expect(o.out).toContain('not replayed — an OAuth 1.0a request');
  });
});
