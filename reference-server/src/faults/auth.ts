/**
 * Faults of Basic and hmac verification (docs/auth.md): wrong comparisons, windows, nonce keys and signed messages,
 * each a patch of the auth rules (auth/rules.ts) made once at start; and the one whose order of steps is wrong,
 * `nonce-stored-before-verify`, through the `digestChecked` hook.
 */
import { bytesEqual, textEqual } from '../auth/compare.js';
import { dateText } from '../auth/date.js';
import type { KnownPaths, SignedRequest } from '../auth/rules.js';
import type { FaultGroup } from './define.js';

const DAY_MS = 86_400_000;
/** Under `date-window-narrow`, the part of the configured window actually accepted. */
const NARROW = 0.1;
/** How long the `nonce-forgotten-early` fault keeps a nonce. */
const FORGOTTEN_EARLY_MS = 2000;
/** Nonces kept per user under the `nonce-store-small` fault. */
const SMALL_STORE = 100;
/** Every method the `digest-ignores-verb` fault tries. */
const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
/** The body bytes the `body-hash-prefix` fault hashes. */
const PREFIX_BYTES = 64;
/** Shortest digest prefix the `digest-prefix` fault accepts. */
const MIN_PREFIX = 8;
const WRITES = new Set(['PUT', 'POST', 'DELETE', 'PATCH']);

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** Every path the server knows: `/`, `/articles`, each user's records, each stored article (both path forms). */
function knownPaths(server: KnownPaths): string[] {
  const paths = ['/', '/articles'];
  for (const name of server.auth.users.keys()) paths.push(`/users/${name}/financialrecords`);
  for (const key of server.store.keys()) {
    if (key.includes('/')) paths.push(`/${key}`);
    else paths.push(`/articles/${key}`, `/article/${key}`);
  }
  return paths;
}

/** Messages made from each variation of a request, each message once. */
function eachOf(
  prev: (req: SignedRequest, server: KnownPaths) => string[],
  variations: SignedRequest[],
  server: KnownPaths,
): string[] {
  return unique(variations.flatMap((req) => prev(req, server)));
}

export const AUTH_FAULTS = {
  'credential-field-first-line': { rules: { auth: () => ({ oneLine: (lines) => lines[0] }) } },
  'credential-field-last-line': { rules: { auth: () => ({ oneLine: (lines) => lines[lines.length - 1] }) } },
  'basic-beside-hmac-ignored': { rules: { auth: () => ({ oneCredential: false }) } },
  'basic-last-colon': { rules: { auth: () => ({ basicSplit: 'last' }) } },
  'basic-over-http': { rules: { tlsOnly: () => ({ basic: false }) } },
  'basic-password-prefix': {
    rules: {
      auth: (prev) => ({
        passwordMatches: (given, account, users) => {
          const a = Buffer.from(given, 'utf8');
          const prefix =
            bytesEqual(a, Buffer.from(account?.password ?? given, 'utf8').subarray(0, a.byteLength)) &&
            given !== '' &&
            account !== undefined;
          return prev.passwordMatches(given, account, users) || prefix;
        },
      }),
    },
  },
  'basic-case-insensitive': {
    rules: {
      auth: (prev) => ({
        passwordMatches: (given, account, users) => {
          const folded =
            bytesEqual(
              Buffer.from(given.toLowerCase(), 'utf8'),
              Buffer.from((account?.password ?? given).toLowerCase(), 'utf8'),
            ) && account !== undefined;
          return prev.passwordMatches(given, account, users) || folded;
        },
      }),
    },
  },
  'basic-any-user-password': {
    rules: {
      auth: (prev) => ({
        passwordMatches: (given, account, users) => {
          let match = prev.passwordMatches(given, account, users);
          if (account !== undefined)
            for (const other of users.values()) match = prev.passwordMatches(given, other, users) || match;
          return match;
        },
      }),
    },
  },
  'unknown-user-500': {
    rules: {
      auth: (prev) => ({
        account: (users, name) => {
          const account = prev.account(users, name);
          if (account === undefined) throw new Error(`no account ${name}`);
          return account;
        },
      }),
    },
  },
  'hmac-missing-parts-500': {
    rules: {
      auth: (prev) => ({
        parseHmac: (value, anyNonce) => {
          const parsed = prev.parseHmac(value, anyNonce);
          if (typeof parsed === 'string') throw new Error(`unparsed hmac credential: ${parsed}`);
          return parsed;
        },
      }),
    },
  },
  'date-ignored': { rules: { auth: () => ({ withinWindow: () => true }) } },
  'date-future-unlimited': {
    rules: { auth: () => ({ withinWindow: (dateMs, nowMs, seconds) => nowMs - dateMs <= seconds * 1000 }) },
  },
  'date-past-unlimited': {
    rules: { auth: () => ({ withinWindow: (dateMs, nowMs, seconds) => dateMs - nowMs <= seconds * 1000 }) },
  },
  'date-time-of-day': {
    rules: {
      auth: () => ({
        withinWindow: (dateMs, nowMs, seconds) => {
          let ahead = (((dateMs - nowMs) % DAY_MS) + DAY_MS) % DAY_MS;
          if (ahead > DAY_MS / 2) ahead -= DAY_MS;
          return Math.abs(ahead) <= seconds * 1000;
        },
      }),
    },
  },
  'date-window-narrow': {
    rules: {
      auth: () => ({ withinWindow: (dateMs, nowMs, seconds) => Math.abs(dateMs - nowMs) <= seconds * 1000 * NARROW }),
    },
  },
  'date-missing-ok': {
    rules: {
      auth: (prev) => ({
        signedDate: (value, read) => (value === undefined ? { text: '' } : prev.signedDate(value, read)),
      }),
    },
  },
  'date-lenient': {
    // A Date of another shape that Date.parse understands is taken as it reads it: no shape, calendar or window check.
    rules: {
      auth: (prev) => ({
        signedDate: (value, read) => {
          const date = prev.signedDate(value, read);
          if (typeof date !== 'string' || value === undefined) return date;
          const loose = Date.parse(value);
          return Number.isNaN(loose) ? date : { loose, text: dateText(value) };
        },
      }),
    },
  },
  'nonce-unchecked': { rules: { auth: () => ({ nonce: () => undefined }) } },
  'nonce-global': {
    rules: {
      auth: (prev) => ({
        nonce: (input) => {
          const n = prev.nonce(input);
          return n && { ...n, scope: '' };
        },
      }),
    },
  },
  'nonce-as-number': {
    rules: { auth: (prev) => ({ nonce: (input) => prev.nonce({ ...input, key: String(Number(input.sent)) }) }) },
  },
  'nonce-forgotten-early': {
    rules: {
      auth: (prev) => ({
        nonce: (input) => {
          const n = prev.nonce(input);
          return n && { ...n, expiresAt: input.nowMs + FORGOTTEN_EARLY_MS };
        },
      }),
    },
  },
  'nonce-store-small': { rules: { auth: () => ({ nonceKeep: SMALL_STORE }) } },
  'nonce-stored-before-verify': {
    // The nonce is spent whatever the digest: a forged request uses it up; a replayed one is refused as such.
    hooks: {
      digestChecked: (verification, nonce, nonces, nowMs) => {
        if (nonces.checkAndStore(nonce.scope, nonce.key, nonce.expiresAt, nowMs).kind === 'replayed')
          return { kind: 'invalid', reason: 'this nonce was already used by this user' };
        return verification.kind === 'valid' ? { kind: 'valid', user: verification.user } : verification;
      },
    },
  },
  'digest-ignores-path': {
    rules: {
      auth: (prev) => ({
        signedMessages: (req, server) =>
          eachOf(
            prev.signedMessages,
            unique([req.target, ...knownPaths(server)]).map((target) => ({ ...req, target })),
            server,
          ),
      }),
    },
  },
  'digest-ignores-verb': {
    rules: {
      auth: (prev) => ({
        signedMessages: (req, server) =>
          eachOf(
            prev.signedMessages,
            unique([req.method, ...VERBS]).map((method) => ({ ...req, method })),
            server,
          ),
      }),
    },
  },
  'body-hash-optional': {
    rules: {
      auth: (prev) => ({
        signedMessages: (req, server) => eachOf(prev.signedMessages, [req, { ...req, bodyHash: false }], server),
      }),
    },
  },
  'body-hash-prefix': {
    rules: {
      auth: (prev) => ({
        signedMessages: (req, server) =>
          prev.signedMessages({ ...req, body: req.body.subarray(0, PREFIX_BYTES) }, server),
      }),
    },
  },
  'nonce-unbound': {
    // The simple-form message (VERB+path, with the body hash) is accepted for a date-and-nonce request too.
    rules: {
      auth: (prev) => ({
        signedMessages: (req, server) => {
          const { dated, ...simple } = req;
          return dated === undefined
            ? prev.signedMessages(req, server)
            : eachOf(prev.signedMessages, [req, simple], server);
        },
      }),
    },
  },
  'write-digest-unchecked': { rules: { auth: () => ({ digestRequired: (method) => !WRITES.has(method) }) } },
  'digest-any-user-secret': {
    rules: {
      auth: (prev) => ({
        digestSecrets: (account, users) => [
          ...prev.digestSecrets(account, users),
          ...[...users.values()].map((other) => other.secret),
        ],
      }),
    },
  },
  'digest-ignores-query': { rules: { auth: () => ({ signedTarget: (sent) => sent.replace(/\?.*$/s, '') }) } },
  'digest-case-insensitive': {
    rules: {
      auth: (prev) => ({
        digestMatches: (given, expected, equal) => {
          const match = prev.digestMatches(given, expected, equal);
          return textEqual(given.toLowerCase(), expected.toLowerCase()) || match;
        },
      }),
    },
  },
  'digest-prefix': {
    rules: {
      auth: (prev) => ({
        digestMatches: (given, expected, equal) => {
          const match = prev.digestMatches(given, expected, equal);
          return (given.length >= MIN_PREFIX && textEqual(given, expected.slice(0, given.length))) || match;
        },
      }),
    },
  },
  'digest-base64url': {
    // The expected digest is written in unpadded base64url, so correct standard-base64 digests never match.
    rules: {
      auth: (prev) => ({
        digestMatches: (given, expected, equal) =>
          prev.digestMatches(given, Buffer.from(expected, 'base64').toString('base64url'), equal),
      }),
    },
  },
  'records-any-user': { rules: { access: () => ({ ownerOnly: () => false }) } },
  'records-owner-hmac-only': {
    rules: { access: () => ({ ownerOnly: (req) => req.headers['authentication'] !== undefined }) },
  },
} satisfies FaultGroup;
