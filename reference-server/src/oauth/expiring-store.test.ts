import { describe, expect, it } from 'vitest';
import { ExpiringStore } from './expiring-store.js';

describe('ExpiringStore', () => {
  it('forgets an entry when the clock reaches its expiry', () => {
    const store = new ExpiringStore<string>(10);
    store.add('a', 'A', 1000, 0);
    expect(store.get('a', 999)).toBe('A');
    expect(store.get('a', 1000)).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it('when full, refuses with the seconds until the first live entry expires, and accepts again after', () => {
    const store = new ExpiringStore<number>(2);
    expect(store.add('a', 1, 5000, 0)).toEqual({ kind: 'stored' });
    expect(store.add('b', 2, 9000, 0)).toEqual({ kind: 'stored' });
    expect(store.add('c', 3, 9000, 1000)).toEqual({ kind: 'full', retryAfterSeconds: 4 });
    store.delete('a');
    expect(store.add('c', 3, 9000, 1000)).toEqual({ kind: 'stored' });
    expect(store.add('d', 4, 9000, 1000)).toEqual({ kind: 'full', retryAfterSeconds: 8 });
    expect(store.add('d', 4, 9500, 9000)).toEqual({ kind: 'stored' });
  });

  it('deletions do not grow the queue without bound', () => {
    const store = new ExpiringStore<number>(10);
    for (let i = 0; i < 5000; i++) {
      store.add(`k${i}`, i, 1e9, 0);
      store.delete(`k${i}`);
    }
    store.add('kept', 1, 1e9, 0);
    expect(store.size()).toBe(1);
    expect((store as unknown as { queue: { length: number } }).queue.length).toBeLessThanOrEqual(1025);
  });

  it('entries stored without expiry stay', () => {
    const store = new ExpiringStore<number>(1);
    store.add('a', 1, Infinity, 0);
    expect(store.get('a', Number.MAX_SAFE_INTEGER)).toBe(1);
    expect(store.add('b', 2, 10, 0)).toEqual({ kind: 'full', retryAfterSeconds: 1 });
    expect(store.live(0)).toEqual([['a', 1]]);
  });

  it('an entry stored again under its key lives until its new expiry, not the old one', () => {
    const store = new ExpiringStore<string>(10);
    store.add('a', 'first', 1000, 0);
    store.add('a', 'second', 5000, 500);
    expect(store.get('a', 2000)).toBe('second');
    expect(store.get('a', 5000)).toBeUndefined();
  });

  it('the expiry of an entry deleted before it passes is swept without trace', () => {
    const store = new ExpiringStore<string>(10);
    store.add('gone', 'G', 1000, 0);
    store.add('kept', 'K', 9000, 0);
    expect(store.delete('gone')).toBe(true);
    expect(store.live(2000)).toEqual([['kept', 'K']]);
    expect(store.size()).toBe(1);
  });
});
