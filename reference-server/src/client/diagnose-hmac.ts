/**
 * The diagnostic of a refused `Authentication: hmac …` request (`conform serve --diagnose`): the exact message the
 * server signed, and the common mistake (client/mistakes.ts) whose message the client's digest was computed over,
 * found with the user's own secret here on the server. Never a secret, never a digest.
 */
import { decodedEqual } from '../auth/compare.js';
import { dateText } from '../auth/date.js';
import { parseHmac } from '../auth/hmac.js';
import type { RequestRecord } from '../records.js';
import { headerValue } from '../request.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { expectedMessages, explainDigest } from './mistakes.js';

/** What a diagnostic adds to a refusal's problem+json body. */
export interface Diagnostic {
  scheme: 'hmac' | 'oauth1';
  /** The exact message (hmac) or signature base string (OAuth 1) the server signed for this request. */
  signed?: string;
  /** For the date-and-nonce form: the `<date_text>` the server derived from the Date header. */
  dateText?: string;
  /** Whether the client's digest or signature is the one the server computed (then another check refused it). */
  digestMatches?: boolean;
  /** The common mistake the client's digest was computed with. */
  mistake?: string;
  /** In words: the mistake, or why no message could be rebuilt. */
  explanation: string;
}

/** The diagnostic of an hmac request, or undefined when it carries none. */
export function diagnoseHmac(req: RequestRecord, state: ServerState, deps: HandlerDeps): Diagnostic | undefined {
  const header = headerValue(req, 'authentication');
  const misplaced = headerValue(req, 'authorization');
  if (header === undefined && misplaced !== undefined && /^\s*hmac\b/i.test(misplaced))
    return {
      scheme: 'hmac',
      mistake: 'hmac-in-authorization',
      explanation:
        'hmac credentials go in the Authentication header (Authentication: hmac <user>:…), not in Authorization',
    };
  if (header === undefined || !/^\s*hmac\b/i.test(header)) return undefined;
  const parsed = parseHmac(header);
  if (typeof parsed === 'string') return { scheme: 'hmac', explanation: parsed };
  const account = state.auth.users.get(parsed.user);
  if (account === undefined)
    return { scheme: 'hmac', explanation: `no user ${JSON.stringify(parsed.user)}: no message can be rebuilt` };
  const sent = req.target ?? (req.query === '' ? req.path : `${req.path}?${req.query}`);
  const target = deps.variants.has('path-without-query') ? sent.replace(/\?.*$/s, '') : sent;
  const date = headerValue(req, 'date');
  if (parsed.nonce !== undefined && date === undefined) {
    return {
      scheme: 'hmac',
      explanation:
        'the Date header is missing: the date-and-nonce form signs <HTTP_verb>+<path>+<date_text>+<nonce>, <date_text> made from the Date sent',
    };
  }
  const parts = {
    method: req.method,
    target,
    body: req.body,
    bodyHash: state.auth.bodyHash,
    ...(parsed.nonce === undefined || date === undefined ? {} : { dated: { date, nonce: parsed.nonce } }),
  };
  const [signed = '', ...others] = expectedMessages(parts);
  const base = {
    scheme: 'hmac' as const,
    signed,
    ...(parts.dated === undefined ? {} : { dateText: dateText(parts.dated.date) }),
  };
  const equal = deps.variants.has('digest-decoded') ? decodedEqual : undefined;
  const finding = explainDigest(parts, account.secret, parsed.digest, equal);
  if (finding.kind === 'right')
    return {
      ...base,
      digestMatches: true,
      explanation: 'the digest is right: the request was refused for another reason',
    };
  if (finding.kind === 'mistake')
    return {
      ...base,
      digestMatches: false,
      mistake: finding.candidate.mistake,
      explanation: finding.candidate.explanation,
    };
  return {
    ...base,
    digestMatches: false,
    explanation: `no common mistake explains the digest: check the shared secret, and that the message is exactly the one above${others.length > 0 ? ' (or the same without its body hash: both are accepted)' : ''}, UTF-8, base64 of HMAC-SHA256`,
  };
}
