import { describe, expect, it } from 'vitest';
import type { ResolvedProfile } from '../profile/schema.js';
import { createLedger } from './cleanup.js';

const profile = {
  articles: { item: '/articles/{id}', aliases: [], collection: '/articles' },
} as unknown as ResolvedProfile;
const base = 'http://127.0.0.1:8080';
const put = (id: string) => ({ method: 'PUT', url: `${base}/articles/${id}`, headers: {} });
const answer = (status: number) => ({ status, headers: {}, body: new Uint8Array(), durationMs: 1 });

describe('the ledger of what a run created', () => {
  it("hands out a scenario's articles once it has ended, and only those still there", () => {
    const ledger = createLedger(profile, { primary: base });
    ledger.note(put('a1'), answer(201), 1);
    ledger.note(put('a2'), answer(201), 1);
    ledger.note(put('b1'), answer(201), 2);
    ledger.note(put('refused'), answer(401), 1);
    ledger.note({ method: 'DELETE', url: `${base}/articles/a2`, headers: {} }, answer(204), 1);
    expect(ledger.takeEnded()).toBeUndefined();
    ledger.ended(1);
    expect(ledger.takeEnded()).toBe('/articles/a1');
    expect(ledger.takeEnded()).toBeUndefined();
    // Made by a scenario already ended (a request still in flight when it ended): ready at once.
    ledger.note(put('a3'), answer(201), 1);
    expect(ledger.takeEnded()).toBe('/articles/a3');
    // Taken is not gone: until it is, the end of the run would still delete it.
    expect(ledger.created()).toEqual(['/articles/a1', '/articles/b1', '/articles/a3']);
    ledger.gone('/articles/a1');
    ledger.gone('/articles/a3');
    expect(ledger.created()).toEqual(['/articles/b1']);
    // Articles of no scenario (the learning's) are never handed out early.
    ledger.note(put('x'), answer(201));
    ledger.ended(2);
    expect(ledger.takeEnded()).toBe('/articles/b1');
    expect(ledger.takeEnded()).toBeUndefined();
  });
});

describe('who made what', () => {
  it("knows each scenario's articles after it has ended (for --keep-failed), and an article made again by another", () => {
    const ledger = createLedger(profile, { primary: base });
    ledger.note(put('a1'), answer(201), 1);
    ledger.note(put('shared'), answer(201), 1);
    ledger.ended(1);
    expect(ledger.createdBy(1)).toEqual(['/articles/a1', '/articles/shared']);
    // Deleted by a scenario still running, and made again by it before the ledger handed it out: not handed out.
    ledger.note({ method: 'DELETE', url: `${base}/articles/shared`, headers: {} }, answer(204), 2);
    ledger.note(put('shared'), answer(201), 2);
    expect(ledger.takeEnded()).toBe('/articles/a1');
    expect(ledger.takeEnded()).toBeUndefined();
    expect(ledger.createdBy(2)).toEqual(['/articles/shared']);
    ledger.ended(2);
    expect(ledger.takeEnded()).toBe('/articles/shared');
  });
});
