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
      Authentication: 'hmac [redacted]',
      accept: 'x',
    });
  });

  it('redacts inside structured values', () => {
    expect(r.value({ a: ['hmac-key-1'] })).toEqual({ a: ['[redacted]'] });
  });
});
