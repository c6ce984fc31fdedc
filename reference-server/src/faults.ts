/**
 * Named defects the reference server can switch on, one behaviour each, so the harness can prove it catches them.
 * With no fault switched on the server is correct.
 */
export const FAULTS = {
  'post-200': 'POST create answers 200 instead of 201 (still with Location).',
  'post-no-location': 'POST create omits the Location header.',
  'post-location-nowhere': 'POST Location names /articles/<other id>, which does not serve the article.',
  'post-location-shape': 'POST Location is /items/<id> although the article lives at /articles/<id>.',
  'post-same-id': 'Every POST reuses one fixed id, so a second POST overwrites the first.',
  'put-create-200': 'PUT that creates answers 200 instead of 201.',
  'put-create-no-location': 'PUT that creates omits the Location header.',
  'put-merge': 'PUT on an existing article keeps optional fields the new representation leaves out.',
  'put-not-idempotent': 'PUT of a representation equal to the stored one appends " (2)" to the stored title.',
  'put-generated-405': 'PUT on an article created by POST (at a server-generated id) answers 405.',
  'title-unescaped': 'Titles are written into response XML without escaping.',
  'price-float': 'Price goes through Number() and String(), losing digits and trailing zeros.',
  'currency-uppercase': 'Currency is stored and served uppercased.',
  'options-extra-method': 'OPTIONS on article items and the collection also lists PATCH, which still answers 405.',
  'options-no-allow': 'OPTIONS answers 200 without an Allow header.',
  'options-204': 'OPTIONS answers 204 instead of 200.',
  'method-405-no-allow': '405 responses omit the Allow header.',
  'unlisted-method-200': 'A known method not in Allow answers 200 instead of 405.',
  'expand-entities': 'DTD internal entities are accepted and expanded (bounded, non-recursive).',
  'alias-separate': '/article/<id> is a different store from /articles/<id>.',
  'delete-noop': 'DELETE answers 204 but keeps the article.',
} as const satisfies Record<string, string>;

/** Name of one fault mode. */
export type FaultName = keyof typeof FAULTS;

/** All fault names, in registry order. */
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** True when `name` names a fault in {@link FAULTS}. */
export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/** Thrown by {@link parseFaultNames} for a name not in {@link FAULTS}. */
export class UnknownFaultError extends Error {
  /** Stable error code. */
  readonly code = 'REF_UNKNOWN_FAULT';
  /** The rejected name. */
  readonly fault: string;

  constructor(fault: string) {
    super(`unknown fault "${fault}"; valid faults: ${FAULT_NAMES.join(', ')}`);
    this.name = 'UnknownFaultError';
    this.fault = fault;
  }
}

/**
 * Checks fault names (e.g. from a command line), trimming blanks, skipping empty names and dropping duplicates.
 * @throws {UnknownFaultError} for the first name not in {@link FAULTS}.
 */
export function parseFaultNames(list: readonly string[]): FaultName[] {
  const out: FaultName[] = [];
  for (const raw of list) {
    const name = raw.trim();
    if (name === '') continue;
    if (!isFaultName(name)) throw new UnknownFaultError(name);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}
