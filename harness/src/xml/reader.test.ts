import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { readXml } from './reader.js';

const ok = (s: string) => readXml(s).ok;

describe('strict XML reader', () => {
  it('reads elements, attributes, references, CDATA, comments and declarations', () => {
    const r = readXml(`\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><a x='1' y="&lt;&#65;">t&amp;<![CDATA[<&>]]><b/><c>&#x1F600;</c></a>\n`);
    expect(r.ok && r.root).toMatchObject({ name: 'a', attributes: { x: '1', y: '<A' }, text: 't&<&>', children: [{ name: 'b' }, { name: 'c', text: '😀' }] });
  });

  it('rejects what is not well-formed', () => {
    for (const bad of [
      '<a>x</b>', '<a>', '<a></a><b/>', 'x<a/>', '<a>&</a>', '<a>&nbsp;</a>', '<a>&#0;</a>', '<a x=1/>', '<a x="1" x="2"/>',
      '<a x="<"/>', '<a><!DOCTYPE x></a>', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', '', '<a><!-- x</a>', '<a b="1"c="2"/>',
    ]) expect(ok(bad), bad).toBe(false);
  });

  it('agrees with fast-xml-parser on well-formedness of mutated documents (property)', () => {
    const base = `<article><title>A &amp; B</title><price currency="eur">1.50</price><summary>x</summary></article>`;
    const mutation = fc.tuple(fc.nat(base.length), fc.nat(3), fc.constantFrom('<', '>', '&', '/', '"', "'", ' ', 'a', '=', ';', '#', '!'));
    fc.assert(
      fc.property(mutation, ([pos, len, ch]) => {
        const doc = base.slice(0, pos) + ch + base.slice(pos + len);
        const theirs = XMLValidator.validate(doc) === true;
        // fast-xml-parser accepts a few things XML forbids (bare "&", "<" in attribute values, undeclared entities);
        // where it says "not well-formed", so must we.
        if (!theirs) expect(ok(doc), doc).toBe(false);
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it('bounds nesting depth', () => {
    expect(readXml('<a>'.repeat(100) + '</a>'.repeat(100)).ok).toBe(false);
    expect(readXml('<a>'.repeat(10) + '</a>'.repeat(10)).ok).toBe(true);
  });
});
