/** The `json` check: members of a JSON body by dotted path, present or absent, of a type, equal or matching. */
import type { ExpectData } from '../suite/schema.js';

export function checkJson(
  body: string,
  exp: NonNullable<ExpectData['json']>,
  render: (template: string) => unknown,
): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    // A body that is not JSON holds no member: it satisfies checks that only require absence.
    return Object.values(exp).some((c) => c.present !== false) ? ['the body is not JSON'] : [];
  }
  const out: string[] = [];
  for (const [p, c] of Object.entries(exp)) {
    let v: unknown = doc;
    for (const seg of p.split('.'))
      v =
        v !== null && typeof v === 'object' && Object.hasOwn(v, seg) ? (v as Record<string, unknown>)[seg] : undefined;
    const kind = Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
    if (c.present === false) {
      if (v !== undefined) out.push(`JSON ${p} must be absent`);
      continue;
    }
    if (v === undefined) {
      out.push(`JSON ${p} is missing`);
      continue;
    }
    if (c.type !== undefined && kind !== c.type) out.push(`JSON ${p} is a ${kind}, expected a ${c.type}`);
    if (c.equals !== undefined) {
      const want = typeof c.equals === 'string' ? render(c.equals) : c.equals;
      if (v !== want && String(v) !== String(want))
        out.push(`JSON ${p} is ${JSON.stringify(v)}, expected ${JSON.stringify(want)}`);
    }
    if (c.matches !== undefined && !new RegExp(c.matches).test(String(v)))
      out.push(`JSON ${p} ${JSON.stringify(v)} does not match /${c.matches}/`);
  }
  return out;
}
