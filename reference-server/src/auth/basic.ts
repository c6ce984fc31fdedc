import type { FaultName } from '../faults.js';
import { bytesEqual } from './compare.js';
import type { UserAccount } from './users.js';

/** A user id and password decoded from a Basic credential. */
export interface BasicCredentials {
  user: string;
  password: string;
}

const BASIC = /^basic +([A-Za-z0-9+/]+={0,2})$/i;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes `Basic <base64(user ":" password)>` (RFC 7617): the scheme word in any case, canonical standard base64,
 * UTF-8, split at the first colon (at the last one under the `basic-last-colon` fault). Undefined when the
 * value is not such a credential (other scheme, bad base64, not UTF-8, no colon).
 */
export function decodeBasic(value: string, splitAtLastColon = false): BasicCredentials | undefined {
  const token = BASIC.exec(value.trim())?.[1];
  if (token === undefined || token.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(token, 'base64');
  if (bytes.toString('base64') !== token) return undefined;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  const colon = splitAtLastColon ? text.lastIndexOf(':') : text.indexOf(':');
  if (colon < 0) return undefined;
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * Checks a decoded password against the account's in constant time (a missing account is compared against
 * the given password itself, so the timing does not tell which user ids exist). The faults
 * `basic-password-prefix` and `basic-case-insensitive` loosen the comparison.
 */
export function passwordMatches(given: string, account: UserAccount | undefined, faults: ReadonlySet<FaultName>): boolean {
  const expected = account?.password ?? given;
  const candidates: Array<[string, string]> = [[given, expected]];
  if (faults.has('basic-case-insensitive')) candidates.push([given.toLowerCase(), expected.toLowerCase()]);
  let match = false;
  for (const [a, b] of candidates) match = bytesEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')) || match;
  if (faults.has('basic-password-prefix') && given !== '') {
    const a = Buffer.from(given, 'utf8');
    match = bytesEqual(a, Buffer.from(expected, 'utf8').subarray(0, a.byteLength)) || match;
  }
  return match && account !== undefined;
}
