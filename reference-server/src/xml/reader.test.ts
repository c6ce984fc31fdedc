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
