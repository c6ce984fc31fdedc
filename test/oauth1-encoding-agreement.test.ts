/**
 * The harness's OAuth 1 base string and the reference server's, each written independently, agree byte for byte on
 * any query: reserved characters, `+`, stray `%`, bytes that are not UTF-8 (`%FF`), empty pairs. Before the harness
 * had one byte-exact decoder, `?a=%FF` gave it a base string the server did not compute.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oauth1BaseString } from '../harness/src/oauth/signature.js';
import { encodeParam, signatureBaseString } from '../reference-server/src/oauth1/base-string.js';
import { parseFormBytes } from '../reference-server/src/oauth/encoding.js';

function serverBaseString(query: string): string {
  const params = parseFormBytes(Buffer.from(query, 'utf8')).map((p) => encodeParam(p.name, p.value));
  return signatureBaseString('GET', 'http://example.test/p', params);
}

describe('OAuth 1 base strings: harness and reference agree', () => {
  it.each(['a=%FF', 'a=%ff%00&b=%E9', 'a=1&&b=2', 'a', 'x=%zz&y=100%', 'q=a+b%2Bc', 'k=%C3%A9&k=%C3%A9'])(
    '%s',
    (query) => {
      expect(oauth1BaseString('GET', `http://example.test/p?${query}`, '', [])).toBe(serverBaseString(query));
    },
  );

  it('on any query made of reserved, percent and non-ASCII pieces (property)', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      '=',
      '&',
      '+',
      '%',
      '%FF',
      '%e9',
      '%41',
      '%2',
      'é',
      '~',
      '-',
      '.',
      '_',
      '!',
      '*',
      "'",
      '(',
      ')',
      '0',
      'Z',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const query = pieces.join('');
        expect(oauth1BaseString('GET', `http://example.test/p?${query}`, '', [])).toBe(serverBaseString(query));
      }),
      { seed: 5, numRuns: 3000 },
    );
  });
});
