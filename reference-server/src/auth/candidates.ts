import type { FaultName } from '../faults.js';
import type { ServerState } from '../types.js';
import type { VariantName } from '../variants.js';
import { bytesEqual, textEqual } from './compare.js';
import { bodyHash, buildMessage, hashesBody } from './message.js';
import type { MessageParts } from './message.js';

/** Every method the `digest-ignores-verb` fault tries. */
const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const PREFIX_BYTES = 64;
const MIN_PREFIX = 8;

/** What the server knows about a signed request before choosing which messages to accept. */
export interface SignedRequest {
  method: string;
  target: string;
  body: Uint8Array;
  dated?: { dateText: string; nonce: string };
}

/**
 * The messages whose digest the server accepts for a request: exactly one on a correct server (with the body
 * hash for PUT and POST when `bodyHash` is on). The faults `digest-ignores-path`, `digest-ignores-verb`,
 * `body-hash-optional`, `body-hash-prefix` and `nonce-unbound` add or change messages.
 */
export function acceptedMessages(req: SignedRequest, state: ServerState, faults: ReadonlySet<FaultName>): string[] {
  const methods = faults.has('digest-ignores-verb') ? unique([req.method, ...VERBS]) : [req.method];
  const paths = faults.has('digest-ignores-path') ? unique([req.target, ...knownPaths(state)]) : [req.target];
  const body = faults.has('body-hash-prefix') ? req.body.subarray(0, PREFIX_BYTES) : req.body;
  let memo: string | undefined;
  // Hashed only when some candidate message needs it (PUT and POST): a GET pays for no SHA-256.
  const hashOf = () => (memo ??= bodyHash(body));
  const messages: string[] = [];
  for (const method of methods) {
    for (const path of paths) {
      const parts: MessageParts = { method, path, ...(req.dated ? { dated: req.dated } : {}) };
      const hashed = state.auth.bodyHash && hashesBody(method);
      const hash = hashed ? hashOf() : '';
      messages.push(buildMessage(hashed ? { ...parts, bodyHash: hash } : parts));
      if (hashed && faults.has('body-hash-optional')) messages.push(buildMessage(parts));
      if (req.dated && faults.has('nonce-unbound')) messages.push(buildMessage({ method, path, ...(hashed ? { bodyHash: hash } : {}) }));
    }
  }
  return messages;
}

/** Standard base64, padding optional (the `digest-decoded` variant's reading of a sent digest). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Compares a sent digest with an expected one in constant time: as text, or under the `digest-decoded` variant as
 * the bytes it decodes to (standard base64, padding optional; anything else is refused). The faults
 * `digest-case-insensitive` and `digest-prefix` (a prefix of at least 8 characters) loosen it.
 */
export function digestMatches(given: string, expected: string, faults: ReadonlySet<FaultName>, variants: ReadonlySet<VariantName> = new Set()): boolean {
  let match = variants.has('digest-decoded') ? decodedEqual(given, expected) : textEqual(given, expected);
  if (faults.has('digest-case-insensitive')) match = textEqual(given.toLowerCase(), expected.toLowerCase()) || match;
  if (faults.has('digest-prefix') && given.length >= MIN_PREFIX) match = textEqual(given, expected.slice(0, given.length)) || match;
  return match;
}

function decodedEqual(given: string, expected: string): boolean {
  const well = BASE64.test(given) && given.replace(/=+$/, '').length % 4 !== 1;
  const sent = well ? Buffer.from(given, 'base64') : Buffer.alloc(0);
  return bytesEqual(sent, Buffer.from(expected, 'base64')) && well;
}

/** Every path the server knows: `/`, `/articles`, each user's records, each stored article (both path forms). */
function knownPaths(state: ServerState): string[] {
  const paths = ['/', '/articles'];
  for (const name of state.auth.users.keys()) paths.push(`/users/${name}/financialrecords`);
  for (const key of state.store.keys()) {
    if (key.includes('/')) paths.push(`/${key}`);
    else paths.push(`/articles/${key}`, `/article/${key}`);
  }
  return paths;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
