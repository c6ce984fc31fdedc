import { NAME, isXmlSpace } from './chars.js';

/** Bounds for the simulated `expand-entities` defect: it must never be a real expansion bomb. */
export const ENTITY_LIMITS = { maxEntities: 64, maxValueLength: 1024, maxExpandedChars: 65536 } as const;

/** Result of reading a DOCTYPE: where it ends and the internal general entities it declares. */
export type DoctypeResult =
  { ok: true; end: number; entities: Map<string, string> } | { ok: false; pos: number; message: string };

/**
 * Reads `<!DOCTYPE name [ ... ]>` starting at `pos`, keeping only internal general entities with literal values.
 * Used only by the `expand-entities` fault. External identifiers and parameter entities are refused.
 */
export function readDoctype(s: string, start: number): DoctypeResult {
  let pos = start + '<!DOCTYPE'.length;
  const entities = new Map<string, string>();
  const fail = (message: string): DoctypeResult => ({ ok: false, pos, message });
  const space = (): boolean => {
    const from = pos;
    while (isXmlSpace(s[pos])) pos++;
    return pos > from;
  };
  const name = (): string | undefined => {
    NAME.lastIndex = pos;
    const m = NAME.exec(s);
    if (m) pos += m[0].length;
    return m?.[0];
  };
  if (!space() || name() === undefined) return fail('expected a name after <!DOCTYPE');
  space();
  if (s.startsWith('SYSTEM', pos) || s.startsWith('PUBLIC', pos)) return fail('external DTDs are not supported');
  if (s[pos] === '[') {
    pos++;
    for (;;) {
      space();
      if (s[pos] === ']') break;
      if (pos >= s.length) return fail('unterminated DOCTYPE internal subset');
      if (s.startsWith('<!--', pos)) {
        const end = s.indexOf('-->', pos + 4);
        if (end < 0) return fail('unterminated comment in DOCTYPE');
        pos = end + 3;
      } else if (s.startsWith('<!ENTITY', pos)) {
        pos += '<!ENTITY'.length;
        if (!space()) return fail('expected whitespace after <!ENTITY');
        if (s[pos] === '%') return fail('parameter entities are not supported');
        const entity = name();
        if (entity === undefined || !space()) return fail('expected an entity name');
        const quote = s[pos];
        if (quote !== '"' && quote !== "'") return fail('only internal entities with a quoted value are supported');
        const end = s.indexOf(quote, pos + 1);
        if (end < 0) return fail('unterminated entity value');
        const value = s.slice(pos + 1, end);
        if (value.length > ENTITY_LIMITS.maxValueLength) return fail('entity value too long');
        pos = end + 1;
        space();
        if (s[pos] !== '>') return fail("expected '>' after the entity value");
        pos++;
        if (entities.size >= ENTITY_LIMITS.maxEntities) return fail('too many entities');
        if (!entities.has(entity)) entities.set(entity, value);
      } else if (s.startsWith('<!', pos) || s.startsWith('<?', pos)) {
        const end = s.indexOf('>', pos);
        if (end < 0) return fail('unterminated declaration in DOCTYPE');
        pos = end + 1;
      } else {
        return fail('unexpected content in DOCTYPE internal subset');
      }
    }
    pos++;
    space();
  }
  if (s[pos] !== '>') return fail("expected '>' to close the DOCTYPE");
  return { ok: true, end: pos + 1, entities };
}
