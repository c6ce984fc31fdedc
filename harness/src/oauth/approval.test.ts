/** The approver against scripted authorize endpoints: approving, learning the page's refusal, and denying. */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createAuthenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import { checkProfileSource } from '../profile/load.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { parseYamlSource } from '../suite/yaml-source.js';
import { createApprover } from './approval.js';

function profile(oauth1: Record<string, unknown> = {}): ResolvedProfile {
  const data = {
    users: [{ name: 'alice', password: 'p' }],
    auth: {
      oauth1: {
        consumerKey: 'ck',
        consumerSecret: 'cs',
        temporaryEndpoint: '/t',
        authorizeEndpoint: '/authorize',
        tokenEndpoint: '/k',
        ...oauth1,
      },
    },
  };
  const { profile: p, issues } = checkProfileSource(parseYamlSource('p.yaml', stringify(data)));
  if (!p) throw new Error(issues.map((i) => i.message).join('; '));
  return p;
}

const answer = (status: number, body = '', headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers,
  body: new TextEncoder().encode(body),
  durationMs: 0,
});

const PAGE = `<form method="post" action="/authorize"><input type="hidden" name="oauth_token" value="t1">
  <button type="submit" name="confirm" value="yes">Authorize</button>
  <button type="submit" name="confirm" value="no">Deny</button></form>`;

/** An authorize endpoint with a page: the GET shows it, the POST answers with a redirect (a verifier when confirm=yes). */
function pageServer(): { client: HttpClient; sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  const client: HttpClient = {
    send: (request) => {
      sent.push(request);
      if (request.method === 'GET') return Promise.resolve({ ok: true, response: answer(200, PAGE) });
      const body = String(request.body ?? '');
      const location = body.includes('confirm=yes')
        ? 'https://client.example/cb?oauth_token=t1&oauth_verifier=v1'
        : 'https://client.example/cb?error=access_denied';
      return Promise.resolve({ ok: true, response: answer(302, '', { location }) });
    },
    session: () => client,
    close: () => Promise.resolve(),
  };
  return { client, sent };
}

const approverFor = (p: ResolvedProfile, client: HttpClient) =>
  createApprover({ client, profile: p, authenticator: createAuthenticator({ profile: p }), secret: () => {} });

describe('the owner denies', () => {
  it("learns the refusal from the page's form, and denies with it in place of the approving button", async () => {
    const { client, sent } = pageServer();
    const approver = approverFor(profile(), client);
    expect(approver.denial()).toBeUndefined();
    const approved = await approver.approve('t1', 'alice', 'https://h.example');
    expect(approved).toMatchObject({ ok: true, verifier: 'v1', way: { kind: 'form', scheme: 'basic' } });
    expect(approver.denial()).toEqual({ fields: { confirm: 'no' } });
    sent.length = 0;
    const denied = await approver.deny('t1', 'alice', 'https://h.example');
    expect(denied).toMatchObject({ ok: true });
    expect(denied.ok && denied.verifier).toBeFalsy();
    expect(denied.ok && denied.answer).toMatch(/302 to https:\/\/client\.example\/cb\?error=access_denied/);
    expect(sent.map((r) => r.body ?? '')).toEqual(['', 'oauth_token=t1&confirm=no']);
  });

  it('keeps the verifier a denial answered with', async () => {
    const { client } = pageServer();
    // Declared fields that the target does not take as a refusal: it approves, and the verifier is kept.
    const approver = approverFor(profile({ deny: { fields: { confirm: 'yes' } } }), client);
    const denied = await approver.deny('t1', 'alice', 'https://h.example');
    expect(denied).toMatchObject({ ok: true, verifier: 'v1' });
  });

  it('a GET that approves by itself is denied with the fields in its query; no way known, no denial', async () => {
    const sent: HttpRequest[] = [];
    const client: HttpClient = {
      send: (request) => {
        sent.push(request);
        return Promise.resolve({ ok: true, response: answer(200, 'oauth_token=t1&oauth_verifier=v2') });
      },
      session: () => client,
      close: () => Promise.resolve(),
    };
    expect(await approverFor(profile(), client).deny('t1', 'alice', 'https://h.example')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/auth\.oauth1\.deny/) as unknown,
    });
    const approver = approverFor(profile({ deny: { fields: { decision: 'deny' } } }), client);
    await approver.approve('t1', 'alice', 'https://h.example');
    expect(await approver.deny('t1', 'alice', 'https://h.example')).toMatchObject({ ok: true, verifier: 'v2' });
    expect(sent.at(-1)?.url).toBe('https://h.example/authorize?oauth_token=t1&decision=deny');
  });

  it('no answer is no denial', async () => {
    const client: HttpClient = {
      send: () => Promise.resolve({ ok: false, error: { code: 'CONNECTION_REFUSED', message: 'refused' } }),
      session: () => client,
      close: () => Promise.resolve(),
    };
    const denied = await approverFor(profile({ deny: { fields: { confirm: 'no' } } }), client).deny(
      't1',
      'alice',
      'https://h.example',
    );
    expect(denied).toMatchObject({ ok: false, reason: expect.stringMatching(/could not be made/) as unknown });
  });
});
