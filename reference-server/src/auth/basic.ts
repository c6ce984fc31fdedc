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
 * UTF-8, split at the first colon (at the last one with `splitAtLastColon`). Undefined when the
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
 * the given password itself, so the timing does not tell which user ids exist).
 */
export function passwordMatches(given: string, account: UserAccount | undefined): boolean {
  const expected = account?.password ?? given;
  return bytesEqual(Buffer.from(given, 'utf8'), Buffer.from(expected, 'utf8')) && account !== undefined;
}
