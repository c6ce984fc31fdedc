import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { declaredLength, originTarget, splitTarget } from './io.js';

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

describe('declaredLength', () => {
  const withLength = (value: string | undefined): IncomingMessage =>
    ({ headers: value === undefined ? {} : { 'content-length': value } }) as IncomingMessage;

  it.each([
    ['0', 0],
    ['12', 12],
    ['0065536', 65536],
  ])('%s is a length', (value, length) => {
    expect(declaredLength(withLength(value))).toBe(length);
  });

  it.each([undefined, '', '12abc', 'abc12', ' 12', '12 ', '-1', '1.5', '1e3'])('%j is not a length', (value) => {
    expect(declaredLength(withLength(value))).toBeUndefined();
  });
});
