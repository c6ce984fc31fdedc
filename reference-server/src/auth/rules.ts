/**
 * How the server checks Basic and hmac credentials, as settings and strategy functions the verifiers read
 * (auth/verify.ts). {@link AUTH_RULES} are the ones docs/auth.md asks for; the faults (faults/auth.ts) patch
 * copies of them once, when a server starts.
 */
import { passwordMatches } from './basic.js';
import { buildMessage, bodyHash, hashesBody } from './message.js';
import { parseHmac } from './hmac.js';
import type { HmacCredentials } from './hmac.js';
import type { UserAccount } from './users.js';
import type { PendingNonce } from './verification.js';
import { withinWindow } from './window.js';
import { dateText } from './date.js';

/** What the server knows about a signed request before choosing which messages to accept. */
export interface SignedRequest {
  method: string;
  /** The `<path>` the digest covers: the request-target as sent (or its path, see `signedTarget`). */
  target: string;
  body: Uint8Array;
  /** The `bodyHash` setting: PUT and POST signatures cover the body (always, never, or either way). */
  bodyHash: boolean | 'optional';
  dated?: { dateText: string; nonce: string };
}

/** The parts of the server a rule may look at to know its paths: the accounts and the stored article keys. */
export interface KnownPaths {
  auth: { users: ReadonlyMap<string, unknown> };
  store: { keys(): Iterable<string> };
}

/** The signed Date: `<date_text>`, and its instant when the window applies (`loose`: an instant read without checks). */
export interface SignedDate {
  text: string;
  ms?: number;
  loose?: number;
}

/** What the nonce of a date-and-nonce request is made of. */
export interface NonceInput {
  user: string;
  /** The nonce as sent. */
  sent: string;
  /** Its store key: the text, or its value under the `nonce-int64` variant. */
  key: string;
  /** The signed Date's instant (the clock's when there is none). */
  dateMs: number;
  nowMs: number;
  windowSeconds: number;
}

/** The settings and strategies of Basic and hmac verification. */
export interface AuthRules {
  /** How a credential field sent more than once is read: as all its lines (refused as repeated). */
  oneLine(lines: string[]): string | string[] | undefined;
  /** `Authorization` and `Authentication` in one request are refused (not judged by one of them). */
  oneCredential: boolean;
  /** Where a Basic credential splits the user id from the password: at the first colon (RFC 7617). */
  basicSplit: 'first' | 'last';
  /** The account a credential names, or undefined. */
  account(users: ReadonlyMap<string, UserAccount>, name: string): UserAccount | undefined;
  /** Whether a Basic password is the account's: compared as UTF-8 bytes in constant time. */
  passwordMatches(given: string, account: UserAccount | undefined, users: ReadonlyMap<string, UserAccount>): boolean;
  /** The parts of an hmac credential, or why it is malformed ({@link parseHmac}). */
  parseHmac(value: string, anyNonce: boolean): HmacCredentials | string;
  /** The signed Date of the date-and-nonce form from its header (`read` gives its instant), or why it is refused. */
  signedDate(value: string | undefined, read: (value: string) => number | undefined): SignedDate | string;
  /** Whether a signed Date lies within the window of the clock, both directions, edges included. */
  withinWindow(dateMs: number, nowMs: number, windowSeconds: number): boolean;
  /** The nonce a date-and-nonce request spends: per user, kept until `max(date, now) + window`. */
  nonce(input: NonceInput): PendingNonce | undefined;
  /** Most nonces kept per scope before the oldest is forgotten: no limit (the store's share refuses instead). */
  nonceKeep: number;
  /** The `<path>` of the signed message, from the request-target as sent: unchanged. */
  signedTarget(sent: string): string;
  /**
   * The messages whose digest is accepted: exactly one, with the body hash for PUT and POST when `bodyHash` is on;
   * for PUT and POST under `'optional'`, that one and the one without the body hash.
   */
  signedMessages(req: SignedRequest, server: KnownPaths): string[];
  /** Whether a request with this method must carry a right digest: every one. */
  digestRequired(method: string): boolean;
  /** The secrets a digest is computed with: the named user's (a dummy for an unknown user). */
  digestSecrets(account: UserAccount | undefined, users: ReadonlyMap<string, UserAccount>): string[];
  /** Whether a sent digest is the expected one; `equal` compares them (as text, or decoded under `digest-decoded`). */
  digestMatches(given: string, expected: string, equal: (given: string, expected: string) => boolean): boolean;
}

/** The secret a digest is computed with for an unknown user: the same work, no match. */
const NO_SUCH_USER = '\u0000 no such user';

/** The rules of docs/auth.md. */
export const AUTH_RULES: AuthRules = {
  oneLine: (lines) => lines,
  oneCredential: true,
  basicSplit: 'first',
  account: (users, name) => users.get(name),
  passwordMatches: (given, account) => passwordMatches(given, account),
  parseHmac: (value, anyNonce) => parseHmac(value, anyNonce),
  signedDate: (value, read) => {
    if (value === undefined) return 'the date-and-nonce form needs a Date header';
    const ms = read(value);
    return ms === undefined
      ? 'the Date must be "DD Mon YYYY hh:mm:ss" (UTC) and name a real instant'
      : { ms, text: dateText(value) };
  },
  withinWindow,
  nonce: ({ user, key, dateMs, nowMs, windowSeconds }) => ({
    scope: user,
    key,
    expiresAt: Math.max(dateMs, nowMs) + windowSeconds * 1000,
  }),
  nonceKeep: Infinity,
  signedTarget: (sent) => sent,
  signedMessages: (req) => {
    const hashed = req.bodyHash !== false && hashesBody(req.method);
    // Hashed only when the message needs it (PUT and POST): a GET pays for no SHA-256.
    const parts = { method: req.method, path: req.target, ...(req.dated ? { dated: req.dated } : {}) };
    const full = buildMessage({ ...parts, ...(hashed ? { bodyHash: bodyHash(req.body) } : {}) });
    return hashed && req.bodyHash === 'optional' ? [full, buildMessage(parts)] : [full];
  },
  digestRequired: () => true,
  digestSecrets: (account) => [account?.secret ?? NO_SUCH_USER],
  digestMatches: (given, expected, equal) => equal(given, expected),
};
