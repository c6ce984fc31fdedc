/**
 * Signed requests (SPEC.md §5.2, as docs/auth.md defines them) for the alternative server, written independently of
 * harness/ and reference-server/. Its choices differ from the reference server's wherever the spec leaves room:
 * the credentials travel in `X-Authentication`, the message never carries a body hash, the window is 300 s, and a
 * nonce is used once for all users together (one global store), not once per user.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const AUTH_HEADER = 'x-authentication';
export const CHALLENGE = 'hmac realm="alt", charset="UTF-8"';

/** What a request's credentials amount to. `none`: it carries no credentials header at all. */
export type AuthOutcome =
  { kind: 'none' } | { kind: 'ok'; user: string } | { kind: 'bad'; why: string } | { kind: 'busy'; retryAfter: number };

// ---------------------------------------------------------------------------------------------------------------
// The Date of the nonce form: `DD Mon YYYY hh:mm:ss` (a one-digit day too), UTC, a real calendar instant.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DATE_SHAPE = new RegExp(`^(\\d{1,2}) (${MONTHS.join('|')}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2})$`);

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/** The instant (ms since the epoch) a spec Date names, or undefined when it is not of the shape or impossible. */
export function parseSpecDate(text: string): number | undefined {
  const m = DATE_SHAPE.exec(text);
  if (!m) return undefined;
  const [day, month, year, h, min, s] = [
    Number(m[1]),
    MONTHS.indexOf(m[2]!),
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
  ];
  const days = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]!;
  if (day < 1 || day > days || h > 23 || min > 59 || s > 59) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(year, month, day); // setUTCFullYear keeps years below 100 as they are (Date.UTC would add 1900)
  d.setUTCHours(h, min, s, 0);
  return d.getTime();
}

/** `<date_text>`: the Date value with every space removed, lowercased. */
export const dateText = (date: string) => date.replaceAll(' ', '').toLowerCase();

// ---------------------------------------------------------------------------------------------------------------
// The nonce store: one for all users. Each entry lives until `max(date, now) + window`; expired entries are swept
// (at most once a second, and whenever the store is full), so memory is bounded by request rate × window, and a
// hard cap makes the server refuse new signed requests (503) rather than forget a nonce early.

export class NonceStore {
  private readonly entries = new Map<string, number>();
  private nextSweep = 0;
  private earliest = Infinity;

  constructor(private readonly cap: number) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * Check and store in one synchronous step: true when the nonce was free (it is now taken until `expiresAt`),
   * false when it is taken, or the number of seconds to wait when the store is full.
   */
  claim(nonce: string, expiresAt: number, now: number): boolean | number {
    if (now >= this.nextSweep || this.entries.size >= this.cap) this.sweep(now);
    const held = this.entries.get(nonce);
    if (held !== undefined && held > now) return false;
    if (held === undefined && this.entries.size >= this.cap)
      return Math.max(1, Math.ceil((this.earliest - now) / 1000));
    this.entries.set(nonce, expiresAt);
    this.earliest = Math.min(this.earliest, expiresAt);
    return true;
  }

  private sweep(now: number): void {
    let earliest = Infinity;
    for (const [nonce, expiresAt] of this.entries) {
      if (expiresAt <= now) this.entries.delete(nonce);
      else earliest = Math.min(earliest, expiresAt);
    }
    this.earliest = earliest;
    this.nextSweep = now + 1000;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Verification

export interface VerifierOptions {
  /** User name → shared secret. */
  users: ReadonlyMap<string, string>;
  /** Accepted clock difference, seconds, either way. */
  window: number;
  /** The server clock, ms. */
  now: () => number;
  /** Most nonces held at once. */
  nonceCap: number;
}

export interface Verifier {
  /** Judges a request's credentials; a valid nonce-form request takes its nonce (whatever the method). */
  verify(method: string, target: string, headers: IncomingHttpHeaders): AuthOutcome;
  readonly nonces: NonceStore;
}

const NONCE = /^[0-9]{1,20}$/;
/** Used for unknown users so that they cost the same HMAC as known ones. */
const NO_SECRET = 'no such user: this key opens nothing';

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createVerifier(options: VerifierOptions): Verifier {
  const nonces = new NonceStore(options.nonceCap);
  const windowMs = options.window * 1000;

  const verify: Verifier['verify'] = (method, target, headers) => {
    const raw = headers[AUTH_HEADER];
    if (raw === undefined) return { kind: 'none' };
    if (typeof raw !== 'string') return { kind: 'bad', why: 'send one X-Authentication header' };
    const sp = /^(\S+) +(\S.*)$/.exec(raw);
    if (!sp || sp[1]!.toLowerCase() !== 'hmac')
      return { kind: 'bad', why: 'X-Authentication must be "hmac <user>:[<nonce>:]<digest>"' };
    const parts = sp[2]!.split(':');
    if (parts.length !== 2 && parts.length !== 3)
      return { kind: 'bad', why: 'X-Authentication must be "hmac <user>:[<nonce>:]<digest>"' };
    const user = parts[0]!;
    const digest = parts[parts.length - 1]!;
    const nonce = parts.length === 3 ? parts[1]! : undefined;

    let message = `${method}+${target}`;
    let date: number | undefined;
    if (nonce !== undefined) {
      if (!NONCE.test(nonce)) return { kind: 'bad', why: 'the nonce must be 1 to 20 digits' };
      const sent = headers['date'];
      if (sent === undefined) return { kind: 'bad', why: 'a signed request with a nonce needs a Date header' };
      date = parseSpecDate(sent);
      if (date === undefined)
        return { kind: 'bad', why: 'the Date must read "DD Mon YYYY hh:mm:ss" (UTC) and name a real instant' };
      if (Math.abs(date - options.now()) > windowMs)
        return { kind: 'bad', why: `the Date is more than ${options.window} s away from the server's clock` };
      message += `+${dateText(sent)}+${nonce}`;
    }
    const secret = options.users.get(user);
    const expected = createHmac('sha256', secret ?? NO_SECRET)
      .update(message, 'utf8')
      .digest('base64');
    if (!sameText(expected, digest) || secret === undefined)
      return { kind: 'bad', why: 'the credentials are not valid' };
    if (nonce === undefined) return { kind: 'ok', user };

    const now = options.now();
    const claimed = nonces.claim(nonce, Math.max(date!, now) + windowMs, now);
    if (claimed === false) return { kind: 'bad', why: 'this nonce has been used already' };
    if (claimed !== true) return { kind: 'busy', retryAfter: claimed };
    return { kind: 'ok', user };
  };

  return { verify, nonces };
}
