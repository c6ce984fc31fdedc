import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARTICLE_DEFECTS, type InvalidArticle } from './invalid-article.js';
import { coverExamples, GENERATORS } from './registry.js';
import { resolveProfile } from '../profile/schema.js';

const profile = resolveProfile({}, 'test');

describe('coverExamples', () => {
  const invalid = GENERATORS['invalidArticle']!;
  const given = { name: 'bad', arb: invalid.make({}, profile), cases: invalid.cases?.({}, profile) };
  const article = { name: 'a', arb: GENERATORS['article']!.make({}, profile) };

  it('tries every defect of an invalid article, in order, before any random value', () => {
    for (const seed of [1, 7, 123456]) {
      const examples = coverExamples([article, given], seed, 50);
      expect(examples.map((e) => (e['bad'] as InvalidArticle).defect)).toEqual([...ARTICLE_DEFECTS]);
      // The other given is drawn too, a valid article each time.
      for (const e of examples) expect(e['a']).toMatchObject({ title: expect.any(String), price: expect.any(String) });
    }
  });

  it('is the same for the same seed (a replay and conform diff see the same values), and differs across seeds', () => {
    expect(coverExamples([article, given], 7, 50)).toEqual(coverExamples([article, given], 7, 50));
    expect(coverExamples([article, given], 7, 50)).not.toEqual(coverExamples([article, given], 8, 50));
  });

  it('never adds runs: at most numRuns examples, none without cases', () => {
    expect(coverExamples([article, given], 1, 3)).toHaveLength(3);
    expect(coverExamples([article], 1, 50)).toEqual([]);
    expect(coverExamples([], 1, 50)).toEqual([]);
  });

  it('each case arbitrary only yields its own case', () => {
    const cases = given.cases ?? [];
    expect(cases).toHaveLength(ARTICLE_DEFECTS.length);
    cases.forEach((arb, i) => {
      for (const v of fc.sample(arb, { seed: i, numRuns: 20 }) as InvalidArticle[])
        expect(v.defect).toBe(ARTICLE_DEFECTS[i]);
    });
  });
});
