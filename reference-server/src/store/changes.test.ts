import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JournalCorruptError, JournalReader, decodeJournal, encodeChange } from './changes.js';
import type { StateChange } from './changes.js';

const text = fc.string({ unit: 'binary', maxLength: 40 });
const change: fc.Arbitrary<StateChange> = fc.oneof(
  fc.record({
    kind: fc.constant('article-set' as const),
    key: text,
    article: fc.record(
      { title: text, price: text, currency: text, summary: text },
      { requiredKeys: ['title', 'price', 'currency'] },
    ),
    generated: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('article-delete' as const), key: text }),
  fc.record({
    kind: fc.constant('nonce' as const),
    scope: text,
    key: text,
    expiresAt: fc.integer({ min: 0, max: 2 ** 48 }),
  }),
);

describe('journal lines', () => {
  it('decode what they encode, whatever the text (newlines, quotes, any UTF-16 code unit)', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 20 }), (changes) => {
        const journal = changes.map(encodeChange).join('');
        const decoded = decodeJournal(journal);
        expect(decoded.tornTail).toBe(false);
        expect(decoded.changes).toEqual(JSON.parse(JSON.stringify(changes)));
      }),
    );
  });

  it('keep every complete line when the last one was cut off at any byte (a crash while appending)', () => {
    const lines = [
      encodeChange({ kind: 'nonce', scope: 'alice', key: '42', expiresAt: 1_700_000_000_000 }),
      encodeChange({
        kind: 'article-set',
        key: 'k',
        article: { title: 'Grüße', price: '1.50', currency: 'eur' },
        generated: false,
      }),
    ];
    const last = encodeChange({ kind: 'article-delete', key: 'k' });
    for (let cut = 0; cut < last.length; cut++) {
      const decoded = decodeJournal(lines.join('') + last.slice(0, cut));
      expect(decoded.changes).toHaveLength(2);
      expect(decoded.tornTail).toBe(cut > 0);
    }
  });

  it('treat a damaged line before valid ones as corruption, naming the line', () => {
    const good = encodeChange({ kind: 'article-delete', key: 'a' });
    const damaged = good.replace('"a"', '"b"');
    expect(() => decodeJournal(good + damaged + good)).toThrow(JournalCorruptError);
    expect(() => decodeJournal(good + damaged + good)).toThrow(/line 2/);
    expect(decodeJournal(good + damaged)).toMatchObject({ tornTail: true, changes: [{ key: 'a' }] });
    expect(decodeJournal(good + '\0\0\0\0')).toMatchObject({ tornTail: true });
    expect(() => decodeJournal(good + damaged + 'partial')).toThrow(/line 2/);
  });

  it('read the same in chunks of any size as whole (lines split across chunks, multi-byte characters split)', () => {
    const journal = Buffer.from(
      [
        encodeChange({
          kind: 'article-set',
          key: 'ü',
          article: { title: 'Grüße ✓ 𝄞', price: '1.50', currency: 'eur', summary: 'x\ny' },
          generated: true,
        }),
        encodeChange({ kind: 'nonce', scope: 'alice', key: '1', expiresAt: 5 }),
        encodeChange({ kind: 'article-delete', key: 'ü' }),
      ].join(''),
    );
    const whole = decodeJournal(journal.toString('utf8'));
    for (let size = 1; size <= 17; size++) {
      const changes: StateChange[] = [];
      const reader = new JournalReader((c) => changes.push(c));
      for (let at = 0; at < journal.length; at += size) reader.push(journal.subarray(at, at + size));
      expect([changes, reader.end().tornTail]).toEqual([whole.changes, false]);
    }
  });
});
