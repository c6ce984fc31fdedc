import { describe, expect, it } from 'vitest';
import { Tx, emptySnapshot, type Write } from './tx.js';

const article = (id: string, op: 'add' | 'remove'): Write => ({
  key: `article:${id}`,
  value: op === 'add' ? `<article ${id}>` : null,
  index: { key: 'articles', kind: 'set', op, member: id },
});

describe('Tx.plan: a capacity for every index that grows, none for one that does not', () => {
  it('an index that gains members is bounded by its limit, for the number it gains', () => {
    const tx = new Tx(emptySnapshot(), 0);
    tx.write(article('a', 'add'), 10);
    tx.write(article('b', 'add'), 10);
    expect(tx.plan().capacities).toEqual([{ index: 'articles', kind: 'set', limit: 10, delta: 2 }]);
  });

  it('an index that only loses members, or gains as many as it loses, needs no capacity', () => {
    const shrinks = new Tx(emptySnapshot(), 0);
    shrinks.write(article('a', 'remove'), 10);
    expect(shrinks.plan().capacities).toEqual([]);
    const even = new Tx(emptySnapshot(), 0);
    even.write(article('a', 'add'), 10);
    even.write(article('b', 'remove'), 10);
    expect(even.plan().capacities).toEqual([]);
  });

  it('keeps the growing indexes among others', () => {
    const tx = new Tx(emptySnapshot(), 5);
    tx.write(article('a', 'remove'), 10);
    tx.write(
      { key: 'token:t', value: 'x', pxMs: 1000, index: { key: 'tokens', kind: 'zset', op: 'add', member: 't' } },
      3,
    );
    expect(tx.plan()).toMatchObject({ nowMs: 5, capacities: [{ index: 'tokens', kind: 'zset', limit: 3, delta: 1 }] });
  });
});
