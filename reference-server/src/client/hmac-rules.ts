/** The client rules of §5.2 (signed requests), judged on one recorded request at a time. */
import { decodedEqual, textEqual } from '../auth/compare.js';
import { parseLenientDate, parseSignedDate } from '../auth/date.js';
import { parseHmac } from '../auth/hmac.js';
import type { RecordedExchange } from '../recording.js';
import { expectedMessages, explainDigest, type SignedParts } from './mistakes.js';
import type { Tally } from './verdicts.js';

/** The §5.2 client rules this module judges. */
export const HMAC_CLIENT_RULES = [
  '5.2-client-header',
  '5.2-nonce-change',
  '4.4-date-with-nonce',
  '5.2-client-date-format',
  '5.2-client-date-text',
  '5.2-client-message',
  '5.2-client-simple-message',
  '5.2-client-clock-sync',
] as const;

/**
 * What the judge knows of the server: its users' secrets, its window, whether it asks for the body hash, and the
 * signing choices its variants make (variants.ts): the path signed without its query (`path-without-query`), the
 * month of the Date in any case (`date-month-any-case`), other date formats (`date-formats-extra`), the digest
 * compared as decoded bytes (`digest-decoded`).
 */
export interface HmacContext {
  users: ReadonlyMap<string, string>;
  variants: ReadonlySet<string>;
  /** Accepted clock difference, seconds. */
  window: number;
  /** PUT and POST sign the body hash: always, never, or either way (`'optional'`). */
  bodyHash: boolean | 'optional';
}

const HMAC = /^\s*hmac\b/i;

/** Where the judge remembers nonces across requests: `user` + newline + nonce → the first request that sent it. */
export type NonceMemory = Map<string, number>;

/** Judges the §5.2 client rules on one request that carries an `Authentication` header. */
export function judgeHmac(ex: RecordedExchange, ctx: HmacContext, nonces: NonceMemory, tally: Tally): void {
  const misplaced = first(ex.headers['authorization']);
  if (misplaced !== undefined && HMAC.test(misplaced))
    tally.fail('5.2-client-header', {
      seq: ex.seq,
      reason: 'hmac credentials sent in Authorization: the signed-request scheme uses the Authentication header',
      mistake: 'hmac-in-authorization',
    });
  const header = first(ex.headers['authentication']);
  if (header === undefined || !HMAC.test(header)) return;
  tally.exercise('5.2-client-header');
  const parsed = parseHmac(header);
  const dated = header.split(':').length > 2;
  if (typeof parsed === 'string') {
    tally.fail(dated ? '5.2-client-message' : '5.2-client-simple-message', { seq: ex.seq, reason: parsed });
    return;
  }
  const secret = ctx.users.get(parsed.user);
  const target = ctx.variants.has('path-without-query') ? ex.target.replace(/\?.*$/s, '') : ex.target;
  const base = { method: ex.method, target, body: ex.body, bodyHash: ctx.bodyHash };
  const equal = ctx.variants.has('digest-decoded') ? decodedEqual : textEqual;
  if (parsed.nonce === undefined) {
    judgeDigest(ex, { ...base }, { user: parsed.user, secret, digest: parsed.digest, equal }, SIMPLE, tally);
    return;
  }
  const key = `${parsed.user}\n${parsed.nonce}`;
  const earlier = nonces.get(key);
  if (earlier !== undefined) {
    tally.fail('5.2-nonce-change', {
      seq: ex.seq,
      reason: `nonce ${parsed.nonce} of user ${parsed.user} was already sent in request #${earlier}`,
    });
  } else {
    nonces.set(key, ex.seq);
    tally.exercise('5.2-nonce-change');
  }
  const date = first(ex.headers['date']);
  if (date === undefined) {
    tally.fail('4.4-date-with-nonce', { seq: ex.seq, reason: 'a date-and-nonce signed request without a Date header' });
    return;
  }
  tally.exercise('4.4-date-with-nonce');
  const anyCase = ctx.variants.has('date-month-any-case');
  const ms = ctx.variants.has('date-formats-extra')
    ? parseLenientDate(date, ex.at, anyCase)
    : parseSignedDate(date, anyCase);
  if (ms === undefined) {
    tally.fail('5.2-client-date-format', {
      seq: ex.seq,
      reason: `Date ${JSON.stringify(date)} is not <day> <month_abbreviation> <year> <hh:mm:ss> (e.g. 26 Nov 2026 14:05:09)`,
    });
  } else {
    tally.exercise('5.2-client-date-format');
    const skew = Math.round((ms - ex.at) / 1000);
    if (Math.abs(ms - ex.at) > ctx.window * 1000) {
      tally.fail('5.2-client-clock-sync', {
        seq: ex.seq,
        reason: `the Date is ${Math.abs(skew)} s ${skew < 0 ? 'behind' : 'ahead of'} the server's clock (window ${ctx.window} s)`,
      });
    } else tally.exercise('5.2-client-clock-sync');
  }
  const parts = { ...base, dated: { date, nonce: parsed.nonce } };
  judgeDigest(ex, parts, { user: parsed.user, secret, digest: parsed.digest, equal }, MESSAGE, tally);
}

const SIMPLE = '5.2-client-simple-message';
const MESSAGE = '5.2-client-message';

/** The credential a digest is checked with: who signed, their secret, the digest sent, how digests compare. */
interface DigestCheck {
  user: string;
  secret: string | undefined;
  digest: string;
  equal: (given: string, expected: string) => boolean;
}

function judgeDigest(ex: RecordedExchange, parts: SignedParts, check: DigestCheck, rule: string, tally: Tally): void {
  const { user, secret, digest } = check;
  if (secret === undefined) {
    tally.fail(rule, { seq: ex.seq, reason: `unknown user ${JSON.stringify(user)}` });
    return;
  }
  const finding = explainDigest(parts, secret, digest, check.equal);
  if (parts.dated !== undefined && finding.kind !== 'mistake') tally.exercise('5.2-client-date-text');
  if (finding.kind === 'right') tally.exercise(rule);
  else if (finding.kind === 'mistake') {
    const { candidate } = finding;
    if (candidate.rule !== rule) tally.exercise(rule);
    tally.fail(candidate.rule, { seq: ex.seq, reason: candidate.explanation, mistake: candidate.mistake });
  } else {
    const [signed = '', ...others] = expectedMessages(parts);
    tally.fail(rule, {
      seq: ex.seq,
      reason: `the digest matches neither the message the server rebuilt (below${others.length > 0 ? ', or the same without its body hash' : ''}) nor a common mistake: check ${user}'s shared secret, and that the message is exactly this one, UTF-8, base64 of HMAC-SHA256`,
      signed,
    });
  }
}

/** A header's value, its first line when repeated. */
export function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
