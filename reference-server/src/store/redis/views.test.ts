import { describe, expect, it } from 'vitest';
import { keyLayout } from './keys.js';
import { emptySnapshot, Tx } from './tx.js';
import { ArticleView, CredentialView, encodeArticle } from './views.js';

const keys = keyLayout('t', 1, new Set());

/** A transaction over a snapshot that holds `values` (null: read as absent). */
function txOver(values: Record<string, string | null>): Tx {
  const snapshot = emptySnapshot();
  for (const [key, value] of Object.entries(values)) snapshot.values.set(key, value);
  return new Tx(snapshot, 1000);
}

describe('ArticleView.has', () => {
  it('is true for a stored article and false for an absent one', () => {
    const article = { title: 'T', price: '1.50', currency: 'eur' };
    const view = new ArticleView(
      txOver({ [keys.article('a')]: encodeArticle(article, false), [keys.article('b')]: null }),
      keys,
      10,
    );
    expect(view.has('a')).toBe(true);
    expect(view.has('b')).toBe(false);
  });
});

describe('CredentialView', () => {
  const code = keys.credential('oauth2-code', 'c1');

  it('hands out one value per key for the pass, and writes back what was changed in it', () => {
    const tx = txOver({ [code]: JSON.stringify({ v: { used: false }, at: 5000 }) });
    const view = new CredentialView<{ used: boolean }>(tx, keys, 'oauth2-code', 10);
    const first = view.get('c1', 1000);
    first!.used = true;
    expect(view.get('c1', 1000)).toBe(first);
    view.flush(1000);
    expect(tx.plan().writes).toEqual([
      { key: code, value: JSON.stringify({ v: { used: true }, at: 5000 }), pxMs: 4000 },
    ]);
  });

  it('writes nothing back when nothing handed out was changed', () => {
    const tx = txOver({ [code]: JSON.stringify({ v: { used: false }, at: null }) });
    const view = new CredentialView<{ used: boolean }>(tx, keys, 'oauth2-code', 10);
    expect(view.get('c1', 1000)).toEqual({ used: false });
    view.flush(1000);
    expect(tx.readOnly()).toBe(true);
  });

  it('deleting a credential that is not there changes nothing', () => {
    const tx = txOver({ [keys.credential('oauth2-code', 'gone')]: null });
    const view = new CredentialView<{ used: boolean }>(tx, keys, 'oauth2-code', 10);
    expect(view.delete('gone')).toBe(false);
    expect(tx.readOnly()).toBe(true);
  });
});
