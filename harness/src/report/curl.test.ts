/**
 * The curl builder: each command is run by bash with `curl` replaced by a function that prints its arguments, so the
 * quoting is checked by the shell itself, not by reading the text.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../runner/redact.js';
import { redactExchange } from '../runner/transcript.js';
import type { Exchange } from '../runner/types.js';
import { curlCommand, placeholderName, shellQuote } from './curl.js';

/** The arguments bash passes to `curl` when it runs `command`, with these environment variables set. */
function argsOf(command: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return out.split('\0').slice(0, -1);
}

const request = (over: Partial<Exchange['request']>): Exchange['request'] => ({
  method: 'GET',
  url: 'http://127.0.0.1:8080/articles',
  headers: {},
  ...over,
});

describe('shellQuote', () => {
  it.each([
    ['plain', 'abc'],
    ['single quote', "it's"],
    ['double quote', 'say "hi"'],
    ['dollar and backtick', '$HOME `id` $(id) ${x}'],
    ['backslash', 'a\\b\\n'],
    ['newline and tab', 'line 1\nline 2\tend\r\n'],
    ['control characters', '\u0001\u001f\u007fx'],
    ['non-ASCII', 'Élan — 価格 €'],
    ['quote next to newline', "'\n'"],
    ['empty', ''],
  ])('%s survives bash', (_name, text) => {
    expect(argsOf(`curl ${shellQuote(text)}`)).toEqual([text]);
  });
});

describe('curlCommand', () => {
  it('names the exact conform sign command when the exchange says how it was signed', () => {
    const cmd = curlCommand(
      request({ method: 'PUT', url: 'http://h/articles/x', headers: { authentication: 'hmac alice:12:[redacted]' } }),
      {},
      { scheme: 'hmac-nonce', user: 'alice', header: 'Authentication', path: '/articles/x', bodyHash: true },
    );
    expect(cmd.split('\n')[0]).toBe(
      '# $CONFORM_AUTHENTICATION: CONFORM_ALICE_SECRET=… conform sign --scheme hmac-nonce --user alice --method PUT --path /articles/x --body-file FILE --body-hash --header authentication prints it (a fresh Date and nonce: give the Date line it prints too)',
    );
  });

  it('carries method, URL, headers and body, exactly as bash passes them', () => {
    const body = `<article>\n  <title>Tom's "$5" ${'`'}deal${'`'} \\ ü</title>\n</article>\n`;
    const cmd = curlCommand(
      request({
        method: 'PUT',
        url: 'http://127.0.0.1:8080/articles/x?a=1&b=$2',
        headers: { 'content-type': 'application/xml', 'x-note': "it's $HOME", 'content-length': '99' },
        body,
      }),
    );
    const args = argsOf(cmd);
    expect(args).toEqual([
      '-sS',
      '-i',
      '-X',
      'PUT',
      '-H',
      'content-type: application/xml',
      '-H',
      "x-note: it's $HOME",
      '--data-binary',
      body,
      'http://127.0.0.1:8080/articles/x?a=1&b=$2',
    ]);
  });

  it('asks for headers only on HEAD and sends no -X on a plain GET', () => {
    expect(argsOf(curlCommand(request({ method: 'HEAD' })))).toEqual(['-sS', '-i', '--head', request({}).url]);
    expect(argsOf(curlCommand(request({})))).toEqual(['-sS', '-i', request({}).url]);
  });

  it('adds -k for an insecure run and --cacert for --ca', () => {
    const args = argsOf(
      curlCommand(request({ url: 'https://localhost:8443/' }), { insecure: true, ca: 'certs/my ca.pem' }),
    );
    expect(args.slice(2, 5)).toEqual(['-k', '--cacert', 'certs/my ca.pem']);
    expect(argsOf(curlCommand(request({})))).not.toContain('-k');
  });

  it('turns credential headers into placeholders, with a comment on where to get a fresh value', () => {
    const cmd = curlCommand(
      request({
        method: 'POST',
        url: 'http://127.0.0.1:8080/users/alice/financialrecords',
        headers: { Authentication: 'hmac [redacted]', Cookie: '[redacted]', Date: 'Thu, 26 Nov 2026 10:00:00 GMT' },
      }),
    );
    expect(cmd).toMatch(
      /^# \$CONFORM_AUTHENTICATION: a signature: .*single-use nonce.*conform sign --scheme hmac-nonce/m,
    );
    expect(cmd).toContain('--method POST --path /users/alice/financialrecords');
    expect(cmd).toMatch(/^# \$CONFORM_COOKIE: /m);
    const args = argsOf(cmd, { CONFORM_AUTHENTICATION: 'hmac alice:fresh', CONFORM_COOKIE: 'sid=fresh' });
    expect(args).toContain('Authentication: hmac alice:fresh');
    expect(args).toContain('Cookie: sid=fresh');
    expect(cmd).not.toContain('[redacted]');
  });

  it('names a Basic credential and a custom signature header in the conform sign hint', () => {
    expect(curlCommand(request({ headers: { Authorization: 'Basic [redacted]' } }))).toContain(
      'conform sign --scheme basic --user NAME --profile FILE --method GET --path /articles --header Authorization',
    );
    const custom = curlCommand(request({ headers: { 'X-Authentication': 'hmac [redacted]' } }));
    expect(custom).toContain('-H \'X-Authentication: \'"$CONFORM_X_AUTHENTICATION"');
  });

  it('turns tokens masked in the URL and the body into named placeholders', () => {
    const cmd = curlCommand(
      request({
        method: 'POST',
        url: 'http://127.0.0.1:8080/records?access_token=[redacted]&x=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_secret=[redacted]&note=[redacted]',
      }),
    );
    expect(cmd).toMatch(/^# \$CONFORM_ACCESS_TOKEN: /m);
    expect(cmd).toMatch(/^# \$CONFORM_CLIENT_SECRET: /m);
    expect(cmd).toMatch(/^# \$CONFORM_NOTE: a secret or token the report redacted/m);
    expect(curlCommand(request({ url: 'http://h/r?oauth_signature=[redacted]' }))).toMatch(
      /^# \$CONFORM_OAUTH_SIGNATURE: a signature over a single-use nonce/m,
    );
    const args = argsOf(cmd, { CONFORM_ACCESS_TOKEN: 'T', CONFORM_CLIENT_SECRET: 'S', CONFORM_NOTE: 'N' });
    expect(args).toContain('http://127.0.0.1:8080/records?access_token=T&x=1');
    expect(args).toContain('grant_type=client_credentials&client_secret=S&note=N');
    const json = curlCommand(request({ method: 'POST', body: '{"access_token":"[redacted]"}' }));
    expect(argsOf(json, { CONFORM_ACCESS_TOKEN: 'T' })).toContain('{"access_token":"T"}');
  });

  it('keeps curl from adding a form Content-Type, and from reading a file for a body starting with @', () => {
    const args = argsOf(curlCommand(request({ method: 'POST', body: '@/etc/passwd' })));
    expect(args).toEqual([
      '-sS',
      '-i',
      '-X',
      'POST',
      '--data-raw',
      '@/etc/passwd',
      '-H',
      'Content-Type:',
      request({}).url,
    ]);
  });

  it('leaves out a body it cannot reproduce, and says why', () => {
    for (const [body, why] of [
      [`${'x'.repeat(4096)}… (9000 bytes)`, 'first 4096 characters'],
      ['bad \ufffd byte', 'not UTF-8'],
      ['nul \u0000 byte', 'NUL'],
    ] as const) {
      const cmd = curlCommand(request({ method: 'PUT', body }));
      expect(cmd).toMatch(new RegExp(`^# The body is left out: .*${why}`, 'm'));
      expect(cmd).not.toContain('--data');
    }
  });

  it('never holds a secret from a redacted exchange, in any encoding', () => {
    const redactor = createRedactor(['alice-secret-1', 'rep-secret'], [['alice', 'wonder:land']]);
    const basic = Buffer.from('alice:wonder:land').toString('base64');
    const x = redactExchange(
      {
        step: 1,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:8080/oauth/token?client_secret=rep-secret',
          headers: { authorization: `Basic ${basic}`, 'x-echo': 'alice-secret-1' },
          body: new TextEncoder().encode(`client_id=reporting&client_secret=rep-secret&k=${basic}`),
        },
      },
      redactor,
    );
    const cmd = curlCommand(x.request);
    for (const secret of [
      'alice-secret-1',
      'rep-secret',
      'wonder:land',
      basic,
      Buffer.from('rep-secret').toString('base64'),
    ])
      expect(cmd).not.toContain(secret);
    expect(cmd).toContain('"$CONFORM_AUTHORIZATION"');
    expect(cmd).toContain('"$CONFORM_X_ECHO"');
  });

  it('gives each line of a repeated credential field its own placeholder, and sends an empty field empty', () => {
    const cmd = curlCommand(request({ headers: { authorization: ['Basic [redacted]', '[redacted]'], 'x-empty': '' } }));
    expect(cmd).toMatch(/^# \$CONFORM_AUTHORIZATION: /m);
    expect(cmd).toMatch(/^# \$CONFORM_AUTHORIZATION_2: /m);
    const args = argsOf(cmd, { CONFORM_AUTHORIZATION: 'one', CONFORM_AUTHORIZATION_2: 'two' });
    expect(args).toEqual([
      '-sS',
      '-i',
      '-H',
      'authorization: one',
      '-H',
      'authorization: two',
      '-H',
      'x-empty;',
      request({}).url,
    ]);
  });

  it('names placeholders after the field', () => {
    expect(placeholderName('x-api-key')).toBe('CONFORM_X_API_KEY');
    expect(placeholderName('--')).toBe('CONFORM_SECRET');
  });
});
