import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitUrl } from './client.js';

const whatwg = (url: string) => {
  const u = new URL(url);
  return { origin: u.origin, path: u.pathname + u.search };
};

describe('splitUrl', () => {
  it('gives the origin and path WHATWG URL parsing gives, for any path (property)', () => {
    const base = fc.constantFrom(
      'http://127.0.0.1:8080',
      'https://LOCALHOST:443',
      'http://example.com:80',
      'http://[::1]:3000',
      'https://h.example/api',
    );
    const piece = fc.oneof(
      fc.constantFrom(
        '/',
        '.',
        '..',
        '/./',
        '/../',
        '?',
        '#',
        '%',
        '%2F',
        '%zz',
        ' ',
        'é',
        '\\',
        '"',
        "'",
        '<',
        '{',
        '|',
        '^',
        '`',
        '\t',
        ';',
        '=',
        '&',
        '+',
        '@',
        ':',
        '~',
      ),
      fc.string({ unit: 'grapheme-ascii', maxLength: 6 }),
    );
    const path = fc.array(piece, { maxLength: 8 }).map((ps) => `/${ps.join('')}`);
    fc.assert(
      fc.property(base, path, (b, p) => {
        expect(splitUrl(b + p)).toEqual(whatwg(b + p));
      }),
      { numRuns: 2000 },
    );
  });

  it('splits the common case directly and keeps what parsing would change to the parser', () => {
    expect(splitUrl('http://127.0.0.1:8080/articles/a-1?x=1')).toEqual({
      origin: 'http://127.0.0.1:8080',
      path: '/articles/a-1?x=1',
    });
    expect(splitUrl('http://127.0.0.1:80/a/../b')).toEqual({ origin: 'http://127.0.0.1', path: '/b' });
    expect(splitUrl('http://127.0.0.1:8080/é')).toEqual({ origin: 'http://127.0.0.1:8080', path: '/%C3%A9' });
  });
});
