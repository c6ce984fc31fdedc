import { describe, expect, it } from 'vitest';
import { ENTITY_LIMITS } from './doctype.js';
import { XML_LIMITS, readXml } from './reader.js';
import type { XmlElement } from './reader.js';

const expand = { expandInternalEntities: true };

function root(xml: string, options = {}): XmlElement {
  const result = readXml(xml, options);
  if (!result.ok) throw new Error(result.detail);
  return result.root;
}

describe('readXml', () => {
  it('builds a tree with merged text and attributes', () => {
    const tree = root(`<a x='1' y = "2&amp;"><b/>t<!--c-->u<![CDATA[v]]><?pi data?></a>`);
    expect(tree.name).toBe('a');
    expect([...tree.attributes]).toEqual([
      ['x', '1'],
      ['y', '2&'],
    ]);
    expect(tree.children).toEqual([{ name: 'b', attributes: new Map(), children: [] }, 'tuv']);
  });

  it('normalises whitespace in attribute values but keeps references', () => {
    expect(root('<a v="a\tb\nc&#9;d"/>').attributes.get('v')).toBe('a b c\td');
  });

  it('reads deep nesting without recursion', () => {
    const depth = 20000;
    expect(readXml(`${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`, { maxDepth: depth, maxElements: depth }).ok).toBe(
      true,
    );
  });

  it('refuses nesting deeper than its bound, and more elements than its bound, whatever the size', () => {
    const nested = (depth: number) => `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    expect(readXml(nested(XML_LIMITS.maxDepth)).ok).toBe(true);
    expect(readXml(nested(XML_LIMITS.maxDepth + 1))).toMatchObject({ ok: false, code: 'limits' });
    const wide = (n: number) => `<r>${'<a/>'.repeat(n - 1)}</r>`;
    expect(readXml(wide(XML_LIMITS.maxElements)).ok).toBe(true);
    expect(readXml(wide(XML_LIMITS.maxElements + 1))).toMatchObject({ ok: false, code: 'limits' });
    // 10 MB of nesting stops at the depth bound, long before it could build a tree of 2.5 million elements.
    const heap = process.memoryUsage().heapUsed;
    expect(readXml(nested(2_500_000))).toMatchObject({ ok: false, code: 'limits' });
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(200 * 1024 * 1024);
  });

  it('refuses a DOCTYPE unless expansion is switched on', () => {
    expect(readXml('<!DOCTYPE a><a/>')).toMatchObject({ ok: false, code: 'doctype' });
    expect(readXml('<!doctype a><a/>')).toMatchObject({ ok: false, code: 'doctype' });
  });
});

describe('readXml with internal entity expansion (expand-entities fault)', () => {
  it('expands internal general entities', () => {
    expect(root('<!DOCTYPE a [<!ENTITY x "boom"><!-- c --><!ELEMENT a ANY>]><a>&x;!</a>', expand).children).toEqual([
      'boom!',
    ]);
  });

  it('does not expand recursively', () => {
    const xml = `<!DOCTYPE a [<!ENTITY a "x"><!ENTITY b '&a;&a;'>]><a>&b;</a>`;
    expect(root(xml, expand).children).toEqual(['&a;&a;']);
  });

  it('caps the total expansion', () => {
    const value = 'x'.repeat(ENTITY_LIMITS.maxValueLength);
    const refs = '&e;'.repeat(ENTITY_LIMITS.maxExpandedChars / value.length + 1);
    expect(readXml(`<!DOCTYPE a [<!ENTITY e "${value}">]><a>${refs}</a>`, expand)).toMatchObject({
      ok: false,
      code: 'entity',
    });
  });

  it('refuses external DTDs, external and parameter entities', () => {
    expect(readXml('<!DOCTYPE a SYSTEM "http://x/"><a/>', expand)).toMatchObject({ ok: false, code: 'doctype' });
    expect(readXml('<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', expand)).toMatchObject({
      ok: false,
      code: 'doctype',
    });
    expect(readXml('<!DOCTYPE a [<!ENTITY % p "x">]><a/>', expand)).toMatchObject({ ok: false, code: 'doctype' });
  });

  it('still refuses undefined entities and a second DOCTYPE', () => {
    expect(readXml('<!DOCTYPE a [<!ENTITY x "1">]><a>&y;</a>', expand)).toMatchObject({ ok: false, code: 'entity' });
    expect(readXml('<!DOCTYPE a><!DOCTYPE a><a/>', expand)).toMatchObject({ ok: false, code: 'not-well-formed' });
  });
});

describe('readXml: what a DOCTYPE internal subset refuses, and where', () => {
  /** The refusal of `xml` with entity expansion on, given the column (line 1) where it is reported. */
  const refusal = (column: number, message: string) => ({
    ok: false,
    code: 'doctype',
    detail: `XML refused at line 1, column ${column}: ${message}`,
  });

  it('refuses an internal subset that never ends', () => {
    expect(readXml('<!DOCTYPE a [', expand)).toEqual(refusal(14, 'unterminated DOCTYPE internal subset'));
    expect(readXml('<!DOCTYPE a [<!ENTITY x "1"> ', expand)).toEqual(
      refusal(30, 'unterminated DOCTYPE internal subset'),
    );
  });

  it('skips a comment in the subset as a whole, even one holding > or starting <!-->', () => {
    expect(root('<!DOCTYPE a [<!-- x > y -->]><a/>', expand).name).toBe('a');
    expect(root('<!DOCTYPE a [<!-->--><!ENTITY e "v">]><a>&e;</a>', expand).children).toEqual(['v']);
  });

  it('refuses a comment in the subset that never ends', () => {
    expect(readXml('<!DOCTYPE a [<!-- x ]><a/>', expand)).toEqual(refusal(14, 'unterminated comment in DOCTYPE'));
  });

  it('refuses <!ENTITY not followed by whitespace', () => {
    expect(readXml('<!DOCTYPE a [<!ENTITYx "v">]><a/>', expand)).toEqual(
      refusal(22, 'expected whitespace after <!ENTITY'),
    );
  });

  it('refuses a parameter entity by name', () => {
    expect(readXml('<!DOCTYPE a [<!ENTITY % p "x">]><a/>', expand)).toEqual(
      refusal(23, 'parameter entities are not supported'),
    );
  });

  it('refuses an entity whose name is missing, not a name, or not followed by whitespace', () => {
    expect(readXml('<!DOCTYPE a [<!ENTITY 1x "v">]><a/>', expand)).toEqual(refusal(23, 'expected an entity name'));
    expect(readXml('<!DOCTYPE a [<!ENTITY x"v">]><a/>', expand)).toEqual(refusal(24, 'expected an entity name'));
  });
});

describe('readXml: what a malformed end tag or CDATA section is told', () => {
  const malformed = (column: number, message: string) => ({
    ok: false,
    code: 'not-well-formed',
    detail: `XML is not well-formed at line 1, column ${column}: ${message}`,
  });

  it('names what an end tag lacks', () => {
    expect(readXml('<a></ a>')).toEqual(malformed(6, "expected a name after '</'"));
    expect(readXml('<a></a x>')).toEqual(malformed(8, "expected '>' to end the end tag </a>"));
  });

  it('refuses a CDATA section that never ends', () => {
    expect(readXml('<a><![CDATA[x</a>')).toEqual(malformed(4, 'unterminated CDATA section'));
  });
});
