import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formPairBytes, formPairs } from './form.js';
import { formEncode, percentDecode, percentEncode, percentEncodeAll, percentEncodeBytes } from './percent.js';

describe('percent-encoding, byte-exact', () => {
  it('keeps only the unreserved characters, uppercase hex for every other UTF-8 byte', () => {
    expect(percentEncode("a-b._~ !'()*/é😀")).toBe('a-b._~%20%21%27%28%29%2A%2F%C3%A9%F0%9F%98%80');
    expect(percentEncodeAll('a~')).toBe('%61%7E');
    expect(formEncode('a b+c')).toBe('a+b%2Bc');
  });

  it('decodes to bytes: %FF (not UTF-8) survives a decode and re-encode; a stray % stays literal', () => {
    expect(percentEncodeBytes(percentDecode('%FF%fe'))).toBe('%FF%FE');
    expect(Buffer.from(percentDecode('100%+%zz%4', true)).toString('latin1')).toBe('100% %zz%4');
    expect(Buffer.from(percentDecode('a+b')).toString()).toBe('a+b');
  });

  it('round-trips any bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(Buffer.from(percentDecode(percentEncodeBytes(bytes))).equals(Buffer.from(bytes))).toBe(true);
        expect(percentEncodeBytes(bytes)).toMatch(/^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})*$/);
      }),
      { seed: 3, numRuns: 2000 },
    );
  });

  it('round-trips any text as UTF-8 (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(Buffer.from(percentDecode(percentEncode(text))).toString('utf8')).toBe(text);
        expect(Buffer.from(percentDecode(formEncode(text), true)).toString('utf8')).toBe(text);
      }),
      { seed: 4, numRuns: 2000 },
    );
  });

  it('form pairs: in order, duplicates kept, empty parts skipped, a pair without "=" has an empty value', () => {
    expect(formPairs('a=1&&b&a=%20+x')).toEqual([
      ['a', '1'],
      ['b', ''],
      ['a', '  x'],
    ]);
    expect(formPairBytes('')).toEqual([]);
  });
});
