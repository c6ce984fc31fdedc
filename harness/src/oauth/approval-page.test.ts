import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http/client.js';
import { denyingFields, formOf, verifierIn } from './approval-page.js';

const answer = (status: number, body = '', headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers,
  body: new TextEncoder().encode(body),
  durationMs: 0,
});

describe('verifierIn: the oauth_verifier an approval answer carries', () => {
  it.each([
    [
      'a redirect to the callback, in the query',
      answer(302, '', { location: 'https://client.example/cb?oauth_token=t&oauth_verifier=v%2B1' }),
      'v+1',
    ],
    ['a redirect, in the fragment', answer(303, '', { location: '/cb#oauth_verifier=abc&oauth_token=t' }), 'abc'],
    ['a form-encoded body (oob)', answer(200, 'oauth_token=t&oauth_verifier=xyz'), 'xyz'],
    ['a JSON body', answer(200, '{"oauth_token":"t","oauth_verifier":"j-1"}'), 'j-1'],
    [
      'an HTML input',
      answer(200, '<p>Done</p><input type="text" readonly name="oauth_verifier" value="h&amp;1">'),
      'h&1',
    ],
    ['a labelled value in text', answer(200, 'Your code: oauth_verifier=ABC123'), 'ABC123'],
  ])('%s', (_what, res, want) => {
    expect(verifierIn(res)).toBe(want);
  });

  it.each([
    [
      'a page that only describes the request',
      answer(200, '<form method="post"><input type="hidden" name="oauth_token" value="t"></form>'),
    ],
    ['a refusal', answer(403, 'oauth_verifier=nope')],
    [
      'a redirect with error=access_denied',
      answer(302, '', { location: 'https://client.example/cb?oauth_token=t&error=access_denied' }),
    ],
  ])('none in %s', (_what, res) => {
    expect(verifierIn(res)).toBeUndefined();
  });
});

describe('formOf: the first form of a page, as a browser submits it', () => {
  it('takes method, absolute action, hidden and text fields, checked boxes, and the first submit that does not refuse', () => {
    const html = `<html><body><form method="POST" action="/oauth1/authorize?x=1">
      <input type="hidden" name="oauth_token" value="a&amp;b">
      <input name="note" value="hi"><input type="checkbox" name="scope" value="read" checked><input type="checkbox" name="other" value="x">
      <button type="submit" name="confirm" value="no">Deny</button>
      <button type="submit" name="confirm" value="yes">Authorize</button>
      <input type="submit" name="also" value="Allow">
    </form></body></html>`;
    expect(formOf(html, 'https://h.example/oauth1/authorize?oauth_token=a')).toEqual({
      method: 'POST',
      action: 'https://h.example/oauth1/authorize?x=1',
      fields: [
        ['oauth_token', 'a&b'],
        ['note', 'hi'],
        ['scope', 'read'],
        ['confirm', 'yes'],
      ],
      approve: ['confirm', 'yes'],
      refusal: ['confirm', 'no'],
    });
  });

  it('denying submits the fields without the approving button, and the refusal in its place', () => {
    const html = `<form method="post" action="/a"><input type="hidden" name="oauth_token" value="t">
      <input type="submit" name="allow" value="Allow"><input type="submit" name="cancel" value="Cancel"></form>`;
    const page = formOf(html, 'https://h.example/a')!;
    expect(page.refusal).toEqual(['cancel', 'Cancel']);
    expect(denyingFields(page, { cancel: 'Cancel' })).toEqual([
      ['oauth_token', 't'],
      ['cancel', 'Cancel'],
    ]);
    // A page with no refusing button has none to learn; declared fields are sent all the same.
    const plain = formOf('<form><input type=hidden name=t value=1><button>OK</button></form>', 'https://h.example/a')!;
    expect(plain.refusal).toBeUndefined();
    expect(denyingFields(plain, { decision: 'deny' })).toEqual([
      ['t', '1'],
      ['decision', 'deny'],
    ]);
  });

  it('a form without method or action is a GET to the page itself; no form, nothing', () => {
    expect(formOf('<form><input type=hidden name=t value=1></form>', 'https://h.example/a')).toEqual({
      method: 'GET',
      action: 'https://h.example/a',
      fields: [['t', '1']],
    });
    expect(formOf('<p>no form</p>', 'https://h.example/a')).toBeUndefined();
  });
});
