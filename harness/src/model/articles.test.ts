import { describe, expect, it } from 'vitest';
import type { ArticleValue } from '../generators/article.js';
import { resolveProfile, type ProfileData } from '../profile/schema.js';
import {
  afterPost,
  canonicalOf,
  emptyState,
  expectationOf,
  idOf,
  makePaths,
  MODEL_RULES,
  pathIn,
  RULES,
  type Op,
} from './articles.js';
import { linearizations } from './linearize.js';

const profileOf = (articles: ProfileData['articles'] = {}) =>
  resolveProfile({ articles: { aliases: ['/article/{id}'], deletable: true, writeAuth: true, ...articles } }, 'test');
const A: ArticleValue = { title: 'a', price: '1.00', currency: 'eur', fields: { summary: 's' } };
const B: ArticleValue = { title: 'b', price: '2.00', currency: 'usd', fields: {} };
const slug0 = { kind: 'slug', n: 0 } as const;

describe('the article model', () => {
  const profile = profileOf();
  const paths = makePaths(profile, 'mx', 2);

  it('spells an article in each of its forms', () => {
    expect(paths.slugs).toEqual(['/articles/mx-0', '/articles/mx-1']);
    expect(idOf(paths, '/articles/mx-1')).toBe('mx-1');
    expect(pathIn(paths, '/articles/mx-1', 1)).toBe('/article/mx-1');
    expect(pathIn(paths, '/elsewhere/9', 1)).toBeUndefined();
    expect(pathIn(paths, '/elsewhere/9', 0)).toBe('/elsewhere/9');
    expect(canonicalOf(paths, '/article/x7')).toBe('/articles/x7');
    expect(canonicalOf(paths, '/articles/x7')).toBe('/articles/x7');
    expect(canonicalOf(paths, '/article/')).toBe('/article/');
  });

  it("creates with 201 and Location, then replaces with the profile's statuses, wholly", () => {
    const put = (article: ArticleValue, form = 0): Op => ({ op: 'put', target: slug0, form, article, cred: 'valid' });
    const created = expectationOf(put(A, 1), emptyState(), paths, profile)!;
    expect(created.status).toEqual([201]);
    expect(created.location).toEqual({ kind: 'put', paths: ['/article/mx-0', '/articles/mx-0'] });
    expect(created.rules).toEqual({ status: RULES.create, location: RULES.createLocation });
    const replaced = expectationOf(put(B), created.next, paths, profile)!;
    expect(replaced.status).toEqual([200, 204]);
    expect(replaced.next.articles.get('/articles/mx-0')).toEqual(B);
    // A read through the other form than the last write is charged to the alias rule.
    const readAlias = expectationOf({ op: 'get', target: slug0, form: 1 }, replaced.next, paths, profile)!;
    expect(readAlias).toMatchObject({ status: [200], article: B, rules: { article: RULES.alias } });
    const read = expectationOf({ op: 'get', target: slug0, form: 0 }, replaced.next, paths, profile)!;
    expect(read.rules.article).toBe(RULES.replaced);
  });

  it('refuses writes without valid credentials and changes nothing; a later read charges the refusal', () => {
    const refused = expectationOf(
      { op: 'put', target: slug0, form: 0, article: A, cred: 'wrong' },
      emptyState(),
      paths,
      profile,
    )!;
    expect(refused.refused).toBe(true);
    expect(refused.next.articles.size).toBe(0);
    const read = expectationOf({ op: 'get', target: slug0, form: 0 }, refused.next, paths, profile)!;
    expect(read).toMatchObject({ status: [404, 410], rules: { status: RULES.refused } });
    // Without writeAuth, a write without credentials is an ordinary write.
    const open = profileOf({ writeAuth: false });
    expect(
      expectationOf({ op: 'put', target: slug0, form: 0, article: A, cred: 'missing' }, emptyState(), paths, open)!
        .status,
    ).toEqual([201]);
  });

  it('deletes: 404 or 410 after, and a PUT there creates anew with exactly the new representation', () => {
    const put = expectationOf(
      { op: 'put', target: slug0, form: 0, article: A, cred: 'valid' },
      emptyState(),
      paths,
      profile,
    )!;
    const del = expectationOf({ op: 'delete', target: slug0, form: 1, cred: 'valid' }, put.next, paths, profile)!;
    expect(del.status).toEqual(['2xx']);
    expect(del.next.deleted.has('/articles/mx-0')).toBe(true);
    expect(expectationOf({ op: 'get', target: slug0, form: 0 }, del.next, paths, profile)).toMatchObject({
      status: [404, 410],
      rules: { status: RULES.delete },
    });
    const again = expectationOf(
      { op: 'put', target: slug0, form: 0, article: B, cred: 'valid' },
      del.next,
      paths,
      profile,
    )!;
    expect(again.status).toEqual([201]);
    expect(expectationOf({ op: 'get', target: slug0, form: 0 }, again.next, paths, profile)!.article).toEqual(B);
    // Deleting what is not there: 404, 410, or a 2xx (idempotent DELETE), the spec is silent.
    expect(
      expectationOf({ op: 'delete', target: slug0, form: 0, cred: 'valid' }, del.next, paths, profile)!.status,
    ).toEqual(['2xx', 404, 410]);
  });

  it('leaves open what the profile leaves open', () => {
    const noCreate = profileOf({ clientChosenPut: false });
    expect(
      expectationOf({ op: 'put', target: slug0, form: 0, article: A, cred: 'valid' }, emptyState(), paths, noCreate),
    ).toBeUndefined();
    expect(
      expectationOf(
        { op: 'delete', target: slug0, form: 0, cred: 'valid' },
        emptyState(),
        paths,
        profileOf({ deletable: false }),
      ),
    ).toBeUndefined();
    expect(
      expectationOf({ op: 'get', target: { kind: 'posted', n: 0 }, form: 0 }, emptyState(), paths, profile),
    ).toBeUndefined();
    expect(expectationOf({ op: 'options', target: slug0, form: 0 }, emptyState(), paths, profile)).toBeUndefined();
    expect(
      expectationOf(
        { op: 'put', target: slug0, form: 0, article: A, cred: 'valid' },
        emptyState(),
        paths,
        profileOf({ replaceStatus: [204] }),
      )!.status,
    ).toEqual([201]);
  });

  it('judges the URL POST gives: not an existing article (MUST), not a deleted one (SHOULD)', () => {
    const first = afterPost(emptyState(), '/articles/1', A);
    if (!('next' in first)) throw new Error('fresh URL refused');
    expect(first.next.posted).toEqual(['/articles/1']);
    expect(afterPost(first.next, '/articles/1', B)).toMatchObject({ rule: RULES.postNew });
    const del = expectationOf(
      { op: 'delete', target: { kind: 'posted', n: 0 }, form: 0, cred: 'valid' },
      first.next,
      paths,
      profile,
    )!;
    expect(afterPost(del.next, '/articles/1', B)).toMatchObject({ rule: RULES.postFresh });
  });

  it('lists each rule it can charge once', () => {
    expect(new Set(MODEL_RULES).size).toBe(MODEL_RULES.length);
    expect(MODEL_RULES).toContain(RULES.postFresh);
  });
});

describe('linearizations', () => {
  // A register: write(v) answers nothing, read answers the value it saw.
  const write = (v: number) => () => v;
  const read = (seen: number) => (s: number) => (s === seen ? s : undefined);

  it('finds every order that explains the answers and the final state', () => {
    expect(linearizations(0, [write(1), write(2)]).map((x) => x.order)).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(linearizations(0, [write(1), write(2)], (s) => s === 2).map((x) => x.order)).toEqual([[0, 1]]);
    expect(linearizations(0, [write(1), read(1)]).map((x) => x.order)).toEqual([[0, 1]]);
    expect(linearizations(0, [write(1), read(0)]).map((x) => x.order)).toEqual([[1, 0]]);
  });

  it('finds none when no order explains them (a lost write, a torn read)', () => {
    expect(linearizations(0, [write(1), write(2)], (s) => s === 0)).toEqual([]);
    expect(linearizations(0, [write(1), read(3)])).toEqual([]);
  });

  it('refuses more than six requests', () => {
    expect(() =>
      linearizations(
        0,
        Array.from({ length: 7 }, () => write(1)),
      ),
    ).toThrow(RangeError);
  });
});
