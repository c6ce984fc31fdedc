import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { articleXml } from '../../testkit/index.js';
import type { Article } from '../records.js';
import { parseArticle, serializeArticle } from './article.js';
import { ILLEGAL_CHAR } from './chars.js';

function ok(xml: string): Article {
  const result = parseArticle(xml);
  if (!result.ok) throw new Error(`expected ok, got ${result.problem.code}: ${result.problem.detail}`);
  return result.article;
}

function refused(xml: string): { code: string; detail: string } {
  const result = parseArticle(xml);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.article)}`);
  return result.problem;
}

describe('parseArticle: fields', () => {
  it('reads the required fields and no summary', () => {
    expect(ok(articleXml())).toEqual({ title: 'Hello', price: '12.50', currency: 'eur' });
  });

  it('reads an optional summary, also an empty one', () => {
    expect(ok(articleXml({ summary: 'Short' })).summary).toBe('Short');
    expect(ok('<article><title>t</title><price currency="eur">1.0</price><summary/></article>').summary).toBe('');
  });

  it('keeps leading and trailing whitespace in the title', () => {
    expect(ok(articleXml({ title: '  a  b \t' })).title).toBe('  a  b \t');
  });

  it('accepts fields in any order, whitespace, comments and an XML declaration', () => {
    const xml =
      '<?xml version="1.0" encoding="utf-8"?>\n<!-- c --><article>\n  <price currency="usd">0.99</price>\n  <!-- x -->\n  <title>T</title>\n</article>\n';
    expect(ok(xml)).toEqual({ title: 'T', price: '0.99', currency: 'usd' });
  });

  it('drops a leading byte order mark', () => {
    expect(ok(`\uFEFF${articleXml()}`).title).toBe('Hello');
  });

  it('refuses a missing or duplicated field and unknown elements', () => {
    expect(refused(articleXml({}, ['title'])).detail).toMatch(/missing the required <title>/);
    expect(refused(articleXml({}, ['price'])).detail).toMatch(/missing the required <price>/);
    expect(
      refused('<article><title>a</title><title>b</title><price currency="eur">1.0</price></article>').detail,
    ).toMatch(/<title> must appear at most once/);
    expect(refused(articleXml({ summary: 'a</summary><summary>b' })).detail).toMatch(
      /<summary> must appear at most once/,
    );
    expect(refused(articleXml({ title: 'a</title><author>x</author><title>b' })).detail).toMatch(
      /unexpected element <author>/,
    );
  });

  it('refuses a wrong root, stray text, and elements inside text fields', () => {
    expect(refused('<item><title>a</title></item>').detail).toMatch(/root element must be <article>, not <item>/);
    expect(refused(`<article>oops${articleXml().slice(9)}`).detail).toMatch(/unexpected text "oops"/);
    expect(refused(articleXml({ title: 'a<b>bold</b>' })).detail).toMatch(/<title> must contain only text/);
  });

  it('refuses empty and whitespace-only titles', () => {
    expect(refused(articleXml({ title: '' })).detail).toMatch(/must not be empty or whitespace-only/);
    expect(refused(articleXml({ title: ' \n\t ' })).code).toBe('invalid-article');
  });
});

describe('parseArticle: price and currency', () => {
  it.each(['12.50', '0.0', '-0.5', '1.000', '123456789012345678901234567890.123456789012345678901'])(
    'keeps %s exactly',
    (price) => {
      expect(ok(articleXml({ price })).price).toBe(price);
    },
  );

  it.each(['12', '-3'])('refuses %s: no fractional part', (price) => {
    expect(refused(articleXml({ price })).detail).toBe(
      `price must have a fractional part, e.g. 12.50 (got "${price}")`,
    );
  });

  it.each(['12.', '.5', '1e3', '+1.0', ' 12.50', '12.50 ', '12,50', 'abc', '', '1.2.3'])('refuses %j', (price) => {
    expect(refused(articleXml({ price })).detail).toMatch(
      /^price must be a decimal number with a fractional part, e\.g\. 12\.50/,
    );
  });

  it('refuses a missing or non-lowercase currency', () => {
    expect(refused(articleXml({}, ['currency'])).detail).toMatch(/missing the required currency attribute/);
    for (const currency of ['EUR', 'Eur', 'eu', 'euro', 'e1r', '']) {
      expect(refused(articleXml({ currency })).detail).toMatch(/currency must be three lowercase letters/);
    }
  });
});

describe('parseArticle: XML text', () => {
  it('decodes the predefined entities, numeric references and CDATA', () => {
    expect(ok(articleXml({ title: '&lt;&gt;&amp;&quot;&apos;' })).title).toBe(`<>&"'`);
    expect(ok(articleXml({ title: 'Caf&#233; &#x1F600; &#X41;' }).replace('&#X41;', '&#x41;')).title).toBe('Café 😀 A');
    expect(ok(articleXml({ title: 'a<![CDATA[ <b>&amp; ]]>z' })).title).toBe('a <b>&amp; z');
    expect(ok(articleXml({ title: 'a<!-- note -->b' })).title).toBe('ab');
  });

  it('normalises raw line ends but keeps a referenced carriage return', () => {
    expect(ok(articleXml({ title: 'a\r\nb\rc' })).title).toBe('a\nb\nc');
    expect(ok(articleXml({ title: 'a&#13;b' })).title).toBe('a\rb');
  });

  it('refuses any DOCTYPE or ENTITY declaration before parsing', () => {
    const bomb = '<!DOCTYPE article [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><article><title>&b;</title></article>';
    expect(refused(bomb).code).toBe('doctype');
    expect(refused(`<!DOCTYPE article>${articleXml()}`).detail).toMatch(/DOCTYPE and ENTITY declarations are refused/);
    expect(refused(articleXml({ title: '<!ENTITY x "y">' })).code).toBe('doctype');
  });

  it('refuses entities other than the predefined five', () => {
    const problem = refused(articleXml({ title: 'a&nbsp;b' }));
    expect(problem.code).toBe('entity');
    expect(problem.detail).toMatch(/undefined entity &nbsp;/);
  });

  it.each([
    ['unclosed root', '<article><title>a</title>'],
    ['mismatched end tag', '<article><title>a</titel></article>'],
    ['two roots', `${articleXml()}<article/>`],
    ['text after the root', `${articleXml()}x`],
    ['bare ampersand', articleXml({ title: 'a & b' })],
    ['bare less-than', articleXml({ title: 'a < b' })],
    ["']]>' in text", articleXml({ title: 'a]]>b' })],
    ['duplicate attribute', '<article><title>a</title><price currency="eur" currency="usd">1.0</price></article>'],
    ['unquoted attribute', '<article><title>a</title><price currency=eur>1.0</price></article>'],
    ["'<' in an attribute", '<article><title>a</title><price currency="e<r">1.0</price></article>'],
    ['illegal control character', articleXml({ title: 'a\u0001b' })],
    ['reference to NUL', articleXml({ title: '&#0;' })],
    ['reference to a surrogate', articleXml({ title: '&#xD800;' })],
    ['malformed reference', articleXml({ title: '&#xZZ;' })],
    ["'--' in a comment", `<!-- a -- b -->${articleXml()}`],
    ['XML declaration not at the start', ` <?xml version="1.0"?>${articleXml()}`],
    ['empty document', ''],
    ['unterminated CDATA', articleXml({ title: '<![CDATA[abc' })],
  ])('refuses XML that is not well-formed: %s', (_name, xml) => {
    expect(refused(xml).code).toBe('not-well-formed');
  });

  it('names the position of a well-formedness error', () => {
    expect(refused('<article>\n<title>a</titel></article>').detail).toBe(
      'XML is not well-formed at line 2, column 9: end tag </titel> does not match <title>',
    );
  });

  it('refuses a non-UTF-8 encoding declaration', () => {
    expect(refused(`<?xml version="1.0" encoding="ISO-8859-1"?>${articleXml()}`).code).toBe('encoding');
  });
});

describe('serializeArticle', () => {
  it('writes the declaration and the fields, escaping text', () => {
    const xml = serializeArticle({ title: `<a & "b" 'c'>`, price: '12.50', currency: 'eur', summary: 'x&y' });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><article><title>&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;</title>' +
        '<price currency="eur">12.50</price><summary>x&amp;y</summary></article>',
    );
  });

  it('writes the title raw only when asked to (title-unescaped fault)', () => {
    expect(serializeArticle({ title: 'a<b', price: '1.0', currency: 'eur' }, { titleEscape: 'none' })).toContain(
      '<title>a<b</title>',
    );
    expect(serializeArticle({ title: 'a]]>&<', price: '1.0', currency: 'eur' }, { titleEscape: 'amp-lt' })).toContain(
      '<title>a]]>&amp;&lt;</title>',
    );
  });

  it('round-trips every valid article', () => {
    const special = fc.constantFrom('&', '<', '>', '"', "'", '\r', '\n', '\t', ' ', ']]>', '&amp;', '\u0085', '\u2028');
    const anyChar = fc.integer({ min: 0x20, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));
    const unit = fc.oneof(special, anyChar).filter((s) => !ILLEGAL_CHAR.test(s));
    const xmlText = fc.string({ unit, maxLength: 40 });
    const article = fc.record(
      {
        title: xmlText.filter((s) => !/^[ \t\r\n]*$/.test(s)),
        price: fc.stringMatching(/^-?[0-9]{1,20}\.[0-9]{1,20}$/),
        currency: fc.stringMatching(/^[a-z]{3}$/),
        summary: xmlText,
      },
      { requiredKeys: ['title', 'price', 'currency'] },
    );
    fc.assert(
      fc.property(article, (a) => {
        expect(parseArticle(serializeArticle(a))).toEqual({ ok: true, article: a });
      }),
    );
  });
});
