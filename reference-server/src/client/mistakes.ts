/**
 * The message a signed request (§5.2, docs/auth.md) must be signed over, and the common mistakes a client makes
 * building it. Finding which mistake's message the client's digest was computed over is how the judge of client
 * rules and the diagnostic refusals name the mistake, without ever showing a digest the server would accept.
 */
import { timingSafeEqual } from 'node:crypto';
import { dateText } from '../auth/date.js';
import { bodyHash, buildMessage, hashesBody, hmacDigest } from '../auth/message.js';

/** The parts of a signed request the message is built from. */
export interface SignedParts {
  /** Method token as sent. */
  method: string;
  /** Request-target as sent (path plus `?query`). */
  target: string;
  /** The date-and-nonce form's `Date` header and nonce; absent for the simple form. */
  dated?: { date: string; nonce: string };
  body: Uint8Array;
  /**
   * The server's `bodyHash` setting: PUT and POST messages end with the body hash (`true`), never do (`false`), or
   * may (`'optional'`: both messages are right).
   */
  bodyHash: boolean | 'optional';
}

/** A common mistake in building the message. */
export type MistakeId =
  | 'date-text-case-kept'
  | 'date-text-spaces-kept'
  | 'date-text-as-sent'
  | 'nonce-left-out'
  | 'date-left-out'
  | 'date-and-nonce-left-out'
  | 'date-and-nonce-swapped'
  | 'query-left-out'
  | 'verb-lowercased'
  | 'body-hash-left-out'
  | 'body-hash-added';

/** A mistake, the message it leads to, the client rule it breaks and what it means, in words. */
export interface Candidate {
  mistake: MistakeId;
  rule: string;
  message: string;
  explanation: string;
}

const MESSAGE_RULE = '5.2-client-message';
const SIMPLE_RULE = '5.2-client-simple-message';
const DATE_TEXT_RULE = '5.2-client-date-text';

/** The message the server signs for these parts (docs/auth.md): with the body hash when it may be added. */
export function expectedMessage(parts: SignedParts): string {
  return expectedMessages(parts)[0] ?? '';
}

/**
 * Every message the server accepts for these parts: one, or for a PUT or POST under the `'optional'` body hash the
 * one with it, then the one without.
 */
export function expectedMessages(parts: SignedParts): string[] {
  const base = {
    method: parts.method,
    path: parts.target,
    ...(parts.dated ? { dated: { dateText: dateText(parts.dated.date), nonce: parts.dated.nonce } } : {}),
  };
  if (!hashed(parts)) return [buildMessage(base)];
  const full = buildMessage({ ...base, bodyHash: bodyHash(parts.body) });
  return parts.bodyHash === 'optional' ? [full, buildMessage(base)] : [full];
}

/** The messages of the common mistakes that differ from every accepted one, each once. */
export function mistakeCandidates(parts: SignedParts): Candidate[] {
  if (parts.bodyHash !== 'optional' || !hashed(parts)) return candidatesOf(parts);
  // Either message is right: a mistake is one made with the body hash or without it.
  return dedupe(
    [...candidatesOf({ ...parts, bodyHash: true }), ...candidatesOf({ ...parts, bodyHash: false })].filter(
      (c) => c.mistake !== 'body-hash-left-out' && c.mistake !== 'body-hash-added',
    ),
    expectedMessages(parts),
  );
}

function dedupe(candidates: readonly Candidate[], expected: readonly string[]): Candidate[] {
  const seen = new Set(expected);
  return candidates.filter((c) => !seen.has(c.message) && seen.add(c.message));
}

function candidatesOf(parts: SignedParts): Candidate[] {
  const hash = hashed(parts) ? bodyHash(parts.body) : undefined;
  const tail = hash === undefined ? '' : `+${hash}`;
  const out: Candidate[] = [];
  const add = (mistake: MistakeId, rule: string, message: string, explanation: string) => {
    out.push({ mistake, rule, message, explanation });
  };
  const { method, target, dated } = parts;
  const rule = dated ? MESSAGE_RULE : SIMPLE_RULE;
  const rest = dated ? `+${dateText(dated.date)}+${dated.nonce}` : '';
  if (dated) {
    const { date, nonce } = dated;
    const text = dateText(date);
    add(
      'date-text-case-kept',
      DATE_TEXT_RULE,
      `${method}+${target}+${date.replaceAll(' ', '')}+${nonce}${tail}`,
      `the date text keeps the case of the Date header: lowercase it (${text}, not ${date.replaceAll(' ', '')})`,
    );
    add(
      'date-text-spaces-kept',
      DATE_TEXT_RULE,
      `${method}+${target}+${date.toLowerCase()}+${nonce}${tail}`,
      'the date text keeps the spaces of the Date header: remove every space',
    );
    add(
      'date-text-as-sent',
      DATE_TEXT_RULE,
      `${method}+${target}+${date}+${nonce}${tail}`,
      'the date text is the Date header as sent: remove its spaces and lowercase it',
    );
    add(
      'nonce-left-out',
      MESSAGE_RULE,
      `${method}+${target}+${text}${tail}`,
      'the message leaves out the nonce: sign <HTTP_verb>+<path>+<date_text>+<nonce>',
    );
    add(
      'date-left-out',
      MESSAGE_RULE,
      `${method}+${target}+${nonce}${tail}`,
      'the message leaves out the date text: sign <HTTP_verb>+<path>+<date_text>+<nonce>',
    );
    add(
      'date-and-nonce-left-out',
      MESSAGE_RULE,
      `${method}+${target}${tail}`,
      'the message is the simple form <HTTP_verb>+<path>: with a nonce, sign <HTTP_verb>+<path>+<date_text>+<nonce>',
    );
    add(
      'date-and-nonce-swapped',
      MESSAGE_RULE,
      `${method}+${target}+${nonce}+${text}${tail}`,
      'the nonce comes before the date text: sign <HTTP_verb>+<path>+<date_text>+<nonce>',
    );
  }
  const question = target.indexOf('?');
  if (question >= 0) {
    add(
      'query-left-out',
      rule,
      `${method}+${target.slice(0, question)}${rest}${tail}`,
      'the signed path leaves out the query: <path> is the request-target as sent, with its ?query',
    );
  }
  if (method !== method.toLowerCase()) {
    add(
      'verb-lowercased',
      rule,
      `${method.toLowerCase()}+${target}${rest}${tail}`,
      'the verb is lowercased in the message: sign it as sent (GET, not get)',
    );
  }
  if (hash !== undefined) {
    add(
      'body-hash-left-out',
      rule,
      `${method}+${target}${rest}`,
      'the message leaves out the body hash: PUT and POST sign +<base64 SHA-256 of the body> at the end (docs/auth.md)',
    );
  } else if (parts.body.length > 0 || hashesBody(method)) {
    add(
      'body-hash-added',
      rule,
      `${method}+${target}${rest}+${bodyHash(parts.body)}`,
      'the message adds a body hash this request does not take: only PUT and POST sign one, when the server asks for it',
    );
  }
  return dedupe(out, expectedMessages(parts));
}

/** What a client's digest says: right, one of the common mistakes, or none the server can name. */
export type DigestFinding = { kind: 'right' } | { kind: 'mistake'; candidate: Candidate } | { kind: 'unexplained' };

/**
 * Compares the client's digest with each accepted message's, then with each mistake's (constant-time compares: as
 * text, or as `equal` says, e.g. decoded under the `digest-decoded` variant).
 */
export function explainDigest(
  parts: SignedParts,
  secret: string,
  digest: string,
  equal: (given: string, expected: string) => boolean = same,
): DigestFinding {
  for (const message of expectedMessages(parts))
    if (equal(digest, hmacDigest(secret, message))) return { kind: 'right' };
  for (const candidate of mistakeCandidates(parts))
    if (equal(digest, hmacDigest(secret, candidate.message))) return { kind: 'mistake', candidate };
  return { kind: 'unexplained' };
}

function hashed(parts: SignedParts): boolean {
  return parts.bodyHash !== false && hashesBody(parts.method);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
