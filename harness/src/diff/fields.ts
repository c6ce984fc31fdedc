/**
 * The compared fields of an exchange: for each, the key two observations must share to be "the same" and the value
 * a report shows. Whatever is not a field here (header order, the raw Location text, ids, extra XML elements, error
 * body texts) is never compared. Context-dependent leniency lives in `equivalences.ts`, not here. Pure.
 */
import { normalizeDecimal } from '../xml/article-xml.js';
import type { DiffField, DiffValue, Observation } from './types.js';

export interface FieldDef {
  field: DiffField;
  /** Compared only when this holds (default: always, once both sides have a response). */
  applies?: (ref: Observation, target: Observation) => boolean;
  /** Two observations are the same for this field when their keys are equal (compared as JSON). */
  key: (o: Observation) => unknown;
  /** What a report shows. */
  show: (o: Observation) => DiffValue;
}

const bothArticles = (a: Observation, b: Observation) => a.article !== undefined && b.article !== undefined;

/** A price is compared by decimal value and by whether it is written with a fractional part (§2); shown as sent. */
export function priceKey(price: string | null): string | null {
  if (price === null) return null;
  return `${normalizeDecimal(price) ?? price}|${/^\s*[+-]?\d+\.\d+\s*$/.test(price) ? 'fractional' : 'no fractional part'}`;
}

function articleField(
  name: string,
  read: (o: Observation) => string | null,
  key: (v: string | null) => unknown = (v) => v,
): FieldDef {
  return { field: `article.${name}`, applies: bothArticles, key: (o) => key(read(o)), show: (o) => read(o) };
}

/** The fixed fields, in report order. */
export const FIELDS: readonly FieldDef[] = [
  { field: 'status', key: (o) => o.status ?? null, show: (o) => o.status ?? null },
  // A set: order, spacing and repetition of the members are incidental.
  { field: 'allow', key: (o) => o.allow ?? null, show: (o) => o.allow ?? null },
  // The verdict only (absent, item shape, alias shape, other): absolute vs relative and the ids themselves are free.
  {
    field: 'location',
    key: (o) => o.location,
    show: (o) => (o.locationPath !== undefined ? `${o.location} (${o.locationPath})` : o.location),
  },
  // Scheme names, case-insensitive; realms and other auth-params are the server's.
  { field: 'www-authenticate', key: (o) => o.challenges, show: (o) => o.challenges },
  // Article or not (or empty): the formats of non-article bodies are never compared.
  { field: 'body', key: (o) => o.body, show: (o) => o.body },
  { field: 'content-type', key: (o) => o.contentType ?? null, show: (o) => o.contentType ?? null },
  articleField('title', (o) => o.article?.title ?? null),
  articleField('price', (o) => o.article?.price ?? null, priceKey),
  articleField('currency', (o) => o.article?.currency ?? null),
];

/** The fields of the optional article elements either profile declares. */
export function optionalFieldDefs(names: readonly string[]): FieldDef[] {
  return names.map((n) => articleField(n, (o) => o.article?.fields[n] ?? null));
}

/** One line describing an exchange for reports: `201` or `transport error TIMEOUT`. */
export function describeAnswer(o: Observation): string {
  return o.status !== undefined ? String(o.status) : `transport error ${o.error ?? ''}`.trim();
}
