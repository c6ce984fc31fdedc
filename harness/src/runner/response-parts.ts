/** Reading a response: a header's value, an `Allow` list, and the statuses an expectation accepts. */
import type { HttpResponse } from '../http/client.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A header field's value, its lines joined with `, ` (undefined when absent). */
export function headerValue(res: HttpResponse, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Parses an `Allow` value into method tokens; returns the malformed members too. */
export function parseAllow(value: string): { methods: string[]; bad: string[] } {
  const members = value
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  return { methods: members.filter((m) => TOKEN.test(m)), bad: members.filter((m) => !TOKEN.test(m)) };
}

/**
 * The sets of written specs without templates, parsed once: a scenario's spec is read for every answer of every
 * run. Lists by identity (the suite's own values), texts by value (a bounded number of them).
 */
const FIXED_LISTS = new WeakMap<object, ReadonlyArray<number | string>>();
const FIXED_TEXTS = new Map<string, ReadonlyArray<number | string>>();

/** Accepts a code, a class like `2xx`, a list, or a template rendering to those. */
export function statusSet(spec: unknown, render: (template: string) => unknown): ReadonlyArray<number | string> {
  const known =
    typeof spec === 'string' ? FIXED_TEXTS.get(spec) : Array.isArray(spec) ? FIXED_LISTS.get(spec) : undefined;
  if (known) return known;
  const set = parseStatus(spec, render);
  if (typeof spec !== 'number' && [spec].flat().every((s) => typeof s === 'number' || !String(s).includes('{{'))) {
    if (Array.isArray(spec)) FIXED_LISTS.set(spec, set);
    else if (typeof spec === 'string' && FIXED_TEXTS.size < 1024) FIXED_TEXTS.set(spec, set);
  }
  return set;
}

function parseStatus(spec: unknown, render: (template: string) => unknown): Array<number | string> {
  if (typeof spec === 'number') return [spec];
  const items = Array.isArray(spec) ? spec : [spec];
  return items.flatMap((s): Array<number | string> => {
    if (typeof s === 'number') return [s];
    const str = String(s);
    if (str.includes('{{')) return parseStatus(render(str), render);
    return /^\d{3}$/.test(str) ? [Number(str)] : [str.toLowerCase()];
  });
}

/** Whether `status` is one of `set` (codes, or classes like `2xx`). */
export function statusMatches(status: number, set: ReadonlyArray<number | string>): boolean {
  return set.some((s) => (typeof s === 'number' ? s === status : s === `${Math.floor(status / 100)}xx`));
}

/** The first line an error answer says: a problem detail, an OAuth error description, or the body's first 120 characters. */
export function said(res: HttpResponse): string | undefined {
  const body = Buffer.from(res.body.buffer, res.body.byteOffset, res.body.byteLength).toString('utf8').trim();
  if (body === '') return undefined;
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    for (const k of ['detail', 'error_description', 'message', 'title', 'error'])
      if (typeof j[k] === 'string' && j[k] !== '') return String(j[k]).slice(0, 200);
  } catch {
    // not JSON: the first line
  }
  const first = body.split('\n').find((l) => l.trim() !== '') ?? body;
  return (
    first
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || undefined
  );
}
