import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';

describe('redactor', () => {
  const r = createRedactor(['s3cr3t:pw£', 'hmac-key-1'], [['alice', 's3cr3t:pw£']]);
  const basic = Buffer.from('alice:s3cr3t:pw£').toString('base64');

  it('removes secrets in every encoding', () => {
    for (const form of [
      's3cr3t:pw£',
      encodeURIComponent('s3cr3t:pw£'),
      Buffer.from('hmac-key-1').toString('base64'),
      basic,
    ]) {
      expect(r.text(`x ${form} y`)).toBe('x [redacted] y');
    }
  });

  it('masks credential headers but keeps the scheme word', () => {
    expect(r.headers({ authorization: `Basic ${basic}`, Authentication: 'hmac alice:1:abc', accept: 'x' })).toEqual({
      authorization: 'Basic [redacted]',
      Authentication: 'hmac alice:1:[redacted]',
      accept: 'x',
    });
  });

  it('shows what explains a refusal and is not secret: OAuth 1 parameters but the signature, token and verifier', () => {
    const header =
      'OAuth realm="x", oauth_consumer_key="ck", oauth_token="tok", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1", oauth_nonce="n", oauth_signature="c2ln%3D"';
    expect(r.headers({ authorization: header })).toEqual({
      authorization:
        'OAuth realm="x", oauth_consumer_key="ck", oauth_token="[redacted]", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1", oauth_nonce="n", oauth_signature="[redacted]"',
    });
    // A shown part that holds a profile secret is masked all the same.
    expect(r.headers({ authorization: 'OAuth oauth_consumer_key="hmac-key-1"' })).toEqual({
      authorization: 'OAuth oauth_consumer_key="[redacted]"',
    });
    expect(r.headers({ authentication: 'hmac hmac-key-1:abc' })).toEqual({
      authentication: 'hmac [redacted]:[redacted]',
    });
    expect(r.headers({ authorization: 'Bearer abc.def' })).toEqual({ authorization: 'Bearer [redacted]' });
  });

  it('redacts inside structured values', () => {
    expect(r.value({ a: ['hmac-key-1'] })).toEqual({ a: ['[redacted]'] });
  });
});
