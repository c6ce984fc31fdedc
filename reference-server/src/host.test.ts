import { describe, expect, it } from 'vitest';
import { hostProblem } from './host.js';
import type { RequestRecord } from './records.js';

const withHost = (host: string | string[] | undefined): RequestRecord =>
  ({
    method: 'GET',
    path: '/',
    query: '',
    headers: host === undefined ? {} : { host },
    body: new Uint8Array(),
    secure: false,
  }) as unknown as RequestRecord;

describe('hostProblem (RFC 9112 §3.2, RFC 3986 §3.2.2)', () => {
  it.each([
    'example.com',
    'example.com:8080',
    'example.com:',
    '127.0.0.1:80',
    '[::1]',
    '[::1]:8443',
    '[2001:db8::7]:1',
    '[v1.fe:80]',
    'a%41b.example',
    "sub-delims!$&'()*+,;=.example",
    '',
  ])('takes %j', (host) => {
    expect(hostProblem(withHost(host))).toBeUndefined();
  });

  it('takes a request without Host (node refuses an HTTP/1.1 one itself) and a single field given as a list', () => {
    expect(hostProblem(withHost(undefined))).toBeUndefined();
    expect(hostProblem(withHost(['example.com']))).toBeUndefined();
  });

  it('refuses more than one Host field line, saying how many', () => {
    expect(hostProblem(withHost(['a.example', 'b.example']))).toBe(
      'the request has 2 Host header fields; RFC 9112 §3.2 allows one',
    );
    expect(hostProblem(withHost(['a', 'a', 'a']))).toMatch(/^the request has 3 Host header fields/);
  });

  it.each([
    'exa mple.com',
    'example.com:80a',
    'example.com:-1',
    'a:b:c',
    'user@example.com',
    'example.com/path',
    'a%zz',
    'a%4',
    '[::1',
    '[::1]x',
    '[::1]:8x',
    '[zz::1]',
    '[127.0.0.1]',
    '[vz.a]',
    '[v1.]',
    'ex[ample',
    '::1',
  ])('refuses %j, naming the value and the rule', (host) => {
    expect(hostProblem(withHost(host))).toBe(
      `Host ${JSON.stringify(host)} is not a valid uri-host [ ":" port ] (RFC 9112 §3.2, RFC 3986 §3.2.2)`,
    );
  });
});
