import { describe, expect, it } from 'vitest';
import { originTarget, splitTarget } from './io.js';

describe('splitTarget', () => {
  it.each([
    ['/articles/a?x=1', '/articles/a', 'x=1'],
    ['/articles/%41', '/articles/%41', ''],
    ['*', '*', ''],
    ['http://example.com/articles?y', '/articles', 'y'],
    ['http://example.com', '/', ''],
    ['/a?b?c', '/a', 'b?c'],
  ])('%s → path %s, query %s', (target, path, query) => {
    expect(splitTarget(target)).toEqual({ path, query });
  });
});

describe('originTarget', () => {
  it.each([
    ['/articles/a?x=1', '/articles/a?x=1'],
    ['/a?', '/a?'],
    ['/%41', '/%41'],
    ['*', '*'],
    ['http://example.com/articles?y', '/articles?y'],
    ['http://example.com', '/'],
    ['http://example.com?q', '/?q'],
  ])('%s → %s', (target, origin) => {
    expect(originTarget(target)).toBe(origin);
  });
});
