/** The variants `basic-only` and `oauth-only` really narrow the schemes the server accepts for resource access. */
import { describe, expect, it } from 'vitest';
import { testServer } from '../../testkit/index.js';

const RECORDS = '/users/alice/financialrecords';

describe('scheme variants', () => {
  it('default: a signed request and Basic over TLS both open the records', () => {
    const t = testServer({ signAs: null });
    expect(t.send({ method: 'GET', target: RECORDS, headers: { ...t.sign('GET', RECORDS) } }).status).toBe(200);
    expect(t.send({ method: 'GET', target: RECORDS, headers: t.basic('alice'), secure: true }).status).toBe(200);
  });

  it('basic-only: Basic over TLS opens them; a right signed request is refused, and 401s challenge with Basic on both listeners', () => {
    const t = testServer({ signAs: null, variants: ['basic-only'] });
    expect(t.send({ method: 'GET', target: RECORDS, headers: t.basic('alice'), secure: true }).status).toBe(200);
    const signed = t.send({ method: 'GET', target: RECORDS, headers: { ...t.sign('GET', RECORDS) } });
    expect(signed.status).toBe(401);
    expect(signed.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(t.send({ method: 'GET', target: RECORDS, headers: t.basic('alice') }).status).toBe(401);
    expect(
      t.send({ method: 'GET', target: RECORDS, headers: { authorization: 'Bearer abc' }, secure: true }).status,
    ).toBe(401);
  });

  it('oauth-only: Basic and signed requests are refused at resources; 401s challenge with Bearer and OAuth', () => {
    const t = testServer({ signAs: null, variants: ['oauth-only'] });
    const basic = t.send({ method: 'GET', target: RECORDS, headers: t.basic('alice'), secure: true });
    expect(basic.status).toBe(401);
    expect(basic.headers['www-authenticate']).toBe('Bearer realm="conform", OAuth realm="conform"');
    expect(t.send({ method: 'GET', target: RECORDS, headers: { ...t.sign('GET', RECORDS) } }).status).toBe(401);
  });
});
