import { crc32 } from 'node:zlib';
import type { Article } from '../records.js';
import { ReferenceServerError } from '../errors.js';

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
export class JournalCorruptError extends ReferenceServerError {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super('REF_JOURNAL_CORRUPT', `journal line ${line}: ${reason}`);
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

/** Result of reading a whole journal. */
export interface DecodedJournal {
  changes: StateChange[];
  /** True when the text ends with an incomplete or damaged line (a write cut short by a crash): it was left out. */
  tornTail: boolean;
}

/**
 * Reads a journal incrementally, chunk by chunk (so its size is not bounded by the longest string), handing each
 * change to `onChange` in order. Only the last line may be incomplete or fail its checksum (a crash while
 * appending): {@link JournalReader.end} reports it as `tornTail`. A damaged line before the last one is corruption.
 */
export class JournalReader {
  private rest: Buffer = Buffer.alloc(0);
  private line = 0;
  private changes = 0;
  /** The number of a damaged complete line: allowed only as the very last thing in the journal. */
  private damaged: number | undefined;

  constructor(private readonly onChange: (change: StateChange) => void) {}

  /**
   * Reads the complete lines of `chunk` (with what was left of the previous one).
   * @throws {JournalCorruptError} once a damaged line turns out not to be the last.
   */
  push(chunk: Uint8Array): void {
    const data =
      this.rest.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([this.rest, chunk]);
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end !== -1; end = data.indexOf(0x0a, start)) {
      this.take(data.toString('utf8', start, end));
      start = end + 1;
    }
    this.rest = Buffer.from(data.subarray(start)); // a copy: the chunk itself is not kept
  }

  /**
   * Ends the journal.
   * @throws {JournalCorruptError} when a damaged line is followed by anything.
   */
  end(): { changes: number; tornTail: boolean } {
    if (this.damaged !== undefined && this.rest.length > 0) throw corrupt(this.damaged);
    return { changes: this.changes, tornTail: this.damaged !== undefined || this.rest.length > 0 };
  }

  private take(raw: string): void {
    this.line++;
    if (this.damaged !== undefined) throw corrupt(this.damaged);
    const change = decodeLine(raw);
    if (change === undefined) {
      this.damaged = this.line;
      return;
    }
    this.changes++;
    this.onChange(change);
  }
}

function corrupt(line: number): JournalCorruptError {
  return new JournalCorruptError(line, 'a damaged line before the end of the journal');
}

/**
 * Reads a whole journal's text (see {@link JournalReader}).
 * @throws {JournalCorruptError} for a damaged line before the last one.
 */
export function decodeJournal(text: string): DecodedJournal {
  const changes: StateChange[] = [];
  const reader = new JournalReader((change) => changes.push(change));
  reader.push(Buffer.from(text, 'utf8'));
  return { changes, tornTail: reader.end().tornTail };
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
      return {
        t: 's',
        k: change.key,
        a: summary === undefined ? [title, price, currency] : [title, price, currency, summary],
        ...(change.generated ? { g: 1 as const } : {}),
      };
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
  if (v.t === 'n')
    return isString(v.s) && typeof v.x === 'number' && Number.isFinite(v.x)
      ? { kind: 'nonce', scope: v.s, key: v.k, expiresAt: v.x }
      : undefined;
  if (v.t !== 's' || !Array.isArray(v.a) || v.a.length < 3 || v.a.length > 4 || !v.a.every(isString)) return undefined;
  const [title, price, currency, summary] = v.a as string[];
  const article = { title: title!, price: price!, currency: currency!, ...(summary === undefined ? {} : { summary }) };
  return { kind: 'article-set', key: v.k, article, generated: v.g === 1 };
}
