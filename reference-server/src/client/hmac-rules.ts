/** The client rules of §5.2 (signed requests), judged on one recorded request at a time. */
import { parseSignedDate } from '../auth/date.js';
import { parseHmac } from '../auth/hmac.js';
import type { RecordedExchange } from '../recording.js';
import { explainDigest, type SignedParts } from './mistakes.js';
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

/** What the judge knows of the server: its users' secrets, its window and whether it asks for the body hash. */
export interface HmacContext {
  users: ReadonlyMap<string, string>;
  /** Accepted clock difference, seconds. */
  window: number;
  bodyHash: boolean;
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
  const base = { method: ex.method, target: ex.target, body: ex.body, bodyHash: ctx.bodyHash };
  if (parsed.nonce === undefined) {
    judgeDigest(ex, { ...base }, parsed.user, secret, parsed.digest, '5.2-client-simple-message', tally);
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
  const ms = parseSignedDate(date);
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
  judgeDigest(ex, parts, parsed.user, secret, parsed.digest, '5.2-client-message', tally);
}

function judgeDigest(
  ex: RecordedExchange,
  parts: SignedParts,
  user: string,
  secret: string | undefined,
  digest: string,
  rule: string,
  tally: Tally,
): void {
  if (secret === undefined) {
    tally.fail(rule, { seq: ex.seq, reason: `unknown user ${JSON.stringify(user)}` });
    return;
  }
  const finding = explainDigest(parts, secret, digest);
  if (parts.dated !== undefined && finding.kind !== 'mistake') tally.exercise('5.2-client-date-text');
  if (finding.kind === 'right') tally.exercise(rule);
  else if (finding.kind === 'mistake') {
    const { candidate } = finding;
    if (candidate.rule !== rule) tally.exercise(rule);
    tally.fail(candidate.rule, { seq: ex.seq, reason: candidate.explanation, mistake: candidate.mistake });
  } else {
    tally.fail(rule, {
      seq: ex.seq,
      reason: `the digest matches neither the message the server rebuilt nor a common mistake (wrong secret for ${user}, or another message)`,
    });
  }
}

/** A header's value, its first line when repeated. */
export function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
