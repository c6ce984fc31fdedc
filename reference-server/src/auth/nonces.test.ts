import { describe, expect, it } from 'vitest';
import { ExpiryQueue } from './expiry-queue.js';
import { NonceStore } from './nonces.js';

describe('ExpiryQueue', () => {
  it('pops in time order, ties in insertion order', () => {
    const q = new ExpiryQueue();
    const times = [5, 3, 9, 3, 1, 7, 7, 2, 8, 0, 4, 6];
    times.forEach((at, seq) => q.push({ at, seq, scope: '', key: String(seq) }));
    const out: Array<[number, number]> = [];
    for (let e = q.pop(); e !== undefined; e = q.pop()) out.push([e.at, e.seq]);
    const expected = times.map((at, seq) => [at, seq] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(out).toEqual(expected);
    expect(q.length).toBe(0);
  });
});

describe('NonceStore', () => {
  it('accepts each (scope, nonce) once, per scope, as text', () => {
    const s = new NonceStore(100);
    expect(s.checkAndStore('alice', '7', 1000, 0)).toEqual({ kind: 'stored' });
    expect(s.checkAndStore('alice', '7', 1000, 0)).toEqual({ kind: 'replayed' });
    expect(s.checkAndStore('alice', '007', 1000, 0)).toEqual({ kind: 'stored' });
    expect(s.checkAndStore('bob', '7', 1000, 0)).toEqual({ kind: 'stored' });
    expect(s.checkAndStore('alice', '9007199254740993', 1000, 0)).toEqual({ kind: 'stored' });
    expect(s.checkAndStore('alice', '9007199254740992', 1000, 0)).toEqual({ kind: 'stored' });
    expect(s.size()).toBe(5);
  });

  it('keeps an entry up to and including its expiry instant, then forgets it', () => {
    const s = new NonceStore(100);
    s.checkAndStore('alice', '1', 5000, 0);
    expect(s.checkAndStore('alice', '1', 9999, 5000)).toEqual({ kind: 'replayed' });
    expect(s.has('alice', '1', 5000)).toBe(true);
    expect(s.has('alice', '1', 5001)).toBe(false);
    expect(s.size()).toBe(0);
    expect(s.checkAndStore('alice', '1', 9000, 5001)).toEqual({ kind: 'stored' });
  });

  it('sweeps by expiry, not by insertion order', () => {
    const s = new NonceStore(100);
    s.checkAndStore('a', 'late', 2000, 0);
    s.checkAndStore('a', 'early', 1000, 0);
    s.sweep(1500);
    expect([s.has('a', 'late', 1500), s.has('a', 'early', 1500), s.size()]).toEqual([true, false, 1]);
  });

  it('memory stays flat once the window is full: size is bounded by rate × window', () => {
    const s = new NonceStore(1_000_000);
    const windowMs = 1000;
    let peak = 0;
    let refused = 0;
    for (let i = 0; i < 200_000; i++) {
      const now = i; // one request per millisecond
      const date = now + ((i * 7919) % 2001) - 1000; // Dates anywhere in the window, both directions
      if (s.checkAndStore(`user${i % 3}`, String(i), Math.max(date, now) + windowMs, now).kind !== 'stored') refused++;
      peak = Math.max(peak, s.size());
    }
    expect(refused).toBe(0);
    // Entries live at most 2 × window: at one per ms that is at most 2001 entries, whatever the total.
    expect(peak).toBeLessThanOrEqual(2001);
    expect(s.queued()).toBe(s.size());
    s.sweep(200_000 + 2 * windowMs + 1);
    expect([s.size(), s.queued()]).toEqual([0, 0]);
  });

  it('when full refuses new nonces with the seconds until the oldest expires, and forgets nothing early', () => {
    const s = new NonceStore(3);
    s.checkAndStore('a', '1', 10_000, 0);
    s.checkAndStore('a', '2', 4_000, 0);
    s.checkAndStore('b', '1', 20_000, 0);
    expect(s.checkAndStore('c', '1', 30_000, 1000)).toEqual({ kind: 'full', retryAfterSeconds: 4 });
    expect(s.checkAndStore('a', '1', 30_000, 1000)).toEqual({ kind: 'replayed' });
    expect(s.size()).toBe(3);
    expect(s.checkAndStore('c', '1', 30_000, 3500)).toEqual({ kind: 'full', retryAfterSeconds: 1 });
    expect(s.checkAndStore('c', '1', 30_000, 4001)).toEqual({ kind: 'stored' });
    expect(s.has('a', '1', 4001)).toBe(true);
  });

  it('keepPerScope evicts the oldest of that scope only (the nonce-store-small fault)', () => {
    const s = new NonceStore(1000);
    for (let i = 0; i < 5; i++) s.checkAndStore('a', String(i), 10_000, 0, 3);
    s.checkAndStore('b', 'x', 10_000, 0, 3);
    expect([0, 1, 2, 3, 4].map((i) => s.has('a', String(i), 0))).toEqual([false, false, true, true, true]);
    expect(s.size()).toBe(4);
    s.sweep(10_001);
    expect([s.size(), s.queued()]).toEqual([0, 0]);
  });

  it('add stores without the replay check (for the nonce-race fault)', () => {
    const s = new NonceStore(10);
    expect(s.add('a', '1', 100, 0)).toEqual({ kind: 'stored' });
    expect(s.add('a', '1', 100, 0)).toEqual({ kind: 'stored' });
    expect(s.size()).toBe(1);
  });
});
