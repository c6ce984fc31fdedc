import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { articleArb } from '../generators/article.js';
import { compareArticle, decodeXmlText, normalizeDecimal, readArticleXml, serializeArticle } from './article-xml.js';

const a = { title: `A & B <c> "d" 'e' é 😀`, price: '12.50', currency: 'eur', fields: {} };

describe('article XML', () => {
  it('round-trips any generated article through its own serializer (property)', () => {
    fc.assert(
      fc.property(articleArb(['summary'], { optional: 'sometimes' }), (art) => {
        expect(compareArticle(art, serializeArticle(art), ['summary'])).toEqual([]);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('compares as data: attribute quoting, element order, numeric references, CDATA and extra elements do not matter', () => {
    const xml = `<?xml version="1.0"?>\n<article>\n  <id>9</id>\n  <price currency='eur'>0012.5</price>\n  <title>A &amp; B <![CDATA[<c>]]> &#34;d&#x22; &apos;e&apos; &#233; &#x1F600;</title>\n</article>`;
    expect(compareArticle(a, xml, [])).toEqual([]);
  });

  it('reports each difference in words', () => {
    const xml =
      '<article><title>A</title><title>B</title><price currency="EUR">12.5</price><summary>x</summary></article>';
    expect(compareArticle(a, xml, ['summary'])).toEqual([
      '<title> appears 2 times',
      `title is "A", expected ${JSON.stringify(a.title)}`,
      'currency is "EUR", expected "eur"',
      '<summary> is present ("x") but the representation sent had none',
    ]);
    expect(compareArticle(a, '<article><title>x</title><price currency="eur">13</price></article>', [])).toContain(
      'price "13" is not a decimal with a fractional part',
    );
    expect(compareArticle(a, '<item/>', [])[0]).toBe('root element is <item>, expected <article>');
  });

  it('never expands entities: a DOCTYPE is refused, undeclared entities are errors', () => {
    expect(readArticleXml('<!DOCTYPE a [<!ENTITY x "boom">]><article><title>&x;</title></article>')).toEqual({
      ok: false,
      problem: 'the document has a DOCTYPE or ENTITY declaration',
    });
    expect(() => decodeXmlText('&nbsp;')).toThrow(/undefined entity/);
    expect(readArticleXml('<article><title>x</article>').ok).toBe(false);
  });

  it('normalizes decimals by value, never through floating point', () => {
    expect(normalizeDecimal('0012.500')).toBe('12.5');
    expect(normalizeDecimal('-0.0')).toBe('0');
    expect(normalizeDecimal('12345678901234567.25')).toBe('12345678901234567.25');
    expect(normalizeDecimal('1e3')).toBeNull();
  });
});
