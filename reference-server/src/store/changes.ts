import { crc32 } from 'node:zlib';
import type { Article } from '../types.js';

/**
 * One durable change of the server state, as the journal keeps it: an article stored or deleted, or a nonce
 * remembered until an instant. Everything else (OAuth tokens, sessions under a fault) lives in memory only.
 */
export type StateChange =
  | { kind: 'article-set'; key: string; article: Article; generated: boolean }
  | { kind: 'article-delete'; key: string }
  | { kind: 'nonce'; scope: string; key: string; expiresAt: number };

/** Receives each change as it is applied in memory. */
export type ChangeListener = (change: StateChange) => void;

/** Why a journal cannot be read. */
export class JournalCorruptError extends Error {
  readonly code = 'JOURNAL_CORRUPT';
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`journal line ${line}: ${reason}`);
    this.name = 'JournalCorruptError';
  }
}

/**
 * One journal line: the CRC-32 of the JSON (8 hex digits), a space, the JSON, a newline. The checksum tells a
 * torn last write (a crash in the middle of an append) from a complete line.
 */
export function encodeChange(change: StateChange): string {
  const json = JSON.stringify(compact(change));
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** Result of {@link decodeJournal}. */
export interface DecodedJournal {
  changes: StateChange[];
  /** Bytes of the text that hold complete, valid lines; a torn tail after them is to be cut off. */
  validLength: number;
  /** True when the text ends with an incomplete or damaged line (a write cut short by a crash). */
  tornTail: boolean;
}

/**
 * Reads a journal's text. Only the last line may be incomplete or fail its checksum (a crash while appending):
 * it is reported as `tornTail` and left out. A damaged line before the last one is corruption, not a crash.
 * @throws {JournalCorruptError} for a damaged line before the last one.
 */
export function decodeJournal(text: string): DecodedJournal {
  const changes: StateChange[] = [];
  let start = 0;
  let line = 0;
  while (start < text.length) {
    line++;
    const end = text.indexOf('\n', start);
    const change = end === -1 ? undefined : decodeLine(text.slice(start, end));
    if (change === undefined) {
      // A crash while appending can only damage the last line; damage anywhere before it is corruption.
      if (end !== -1 && end !== text.length - 1) throw new JournalCorruptError(line, 'a damaged line before the end of the journal');
      return { changes, validLength: Buffer.byteLength(text.slice(0, start)), tornTail: true };
    }
    changes.push(change);
    start = end + 1;
  }
  return { changes, validLength: Buffer.byteLength(text), tornTail: false };
}

function decodeLine(raw: string): StateChange | undefined {
  const match = /^([0-9a-f]{8}) (.*)$/s.exec(raw);
  if (match === null) return undefined;
  const [, sum, json] = match as unknown as [string, string, string];
  if (crc32(json).toString(16).padStart(8, '0') !== sum) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  return expand(value);
}

type Compact =
  | { t: 's'; k: string; a: [string, string, string, string?]; g?: 1 }
  | { t: 'd'; k: string }
  | { t: 'n'; s: string; k: string; x: number };

function compact(change: StateChange): Compact {
  switch (change.kind) {
    case 'article-set': {
      const { title, price, currency, summary } = change.article;
      return { t: 's', k: change.key, a: summary === undefined ? [title, price, currency] : [title, price, currency, summary], ...(change.generated ? { g: 1 as const } : {}) };
    }
    case 'article-delete':
      return { t: 'd', k: change.key };
    case 'nonce':
      return { t: 'n', s: change.scope, k: change.key, x: change.expiresAt };
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';

function expand(value: unknown): StateChange | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!isString(v.k)) return undefined;
  if (v.t === 'd') return { kind: 'article-delete', key: v.k };
  if (v.t === 'n') return isString(v.s) && typeof v.x === 'number' && Number.isFinite(v.x) ? { kind: 'nonce', scope: v.s, key: v.k, expiresAt: v.x } : undefined;
  if (v.t !== 's' || !Array.isArray(v.a) || v.a.length < 3 || v.a.length > 4 || !v.a.every(isString)) return undefined;
  const [title, price, currency, summary] = v.a as string[];
  const article = { title: title!, price: price!, currency: currency!, ...(summary === undefined ? {} : { summary }) };
  return { kind: 'article-set', key: v.k, article, generated: v.g === 1 };
}
