import { timingSafeEqual } from 'node:crypto';

/**
 * Constant-time equality of two byte strings with `crypto.timingSafeEqual`. Buffers of different lengths are a
 * rejection, but the comparison still runs (the expected value against itself) so the content is never inspected
 * with an early exit.
 */
export function bytesEqual(given: Uint8Array, expected: Uint8Array): boolean {
  if (given.byteLength !== expected.byteLength) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(given, expected);
}

/** {@link bytesEqual} over the UTF-8 bytes of two strings. */
export function textEqual(given: string, expected: string): boolean {
  return bytesEqual(Buffer.from(given, 'utf8'), Buffer.from(expected, 'utf8'));
}

/** Standard base64, padding optional (the `digest-decoded` variant's reading of a sent digest). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A sent digest compared with the expected one as the bytes each decodes to, in constant time: the sent one is
 * standard base64, padding optional; anything else is refused (the `digest-decoded` variant).
 */
export function decodedEqual(given: string, expected: string): boolean {
  const well = BASE64.test(given) && given.replace(/=+$/, '').length % 4 !== 1;
  const sent = well ? Buffer.from(given, 'base64') : Buffer.alloc(0);
  return bytesEqual(sent, Buffer.from(expected, 'base64')) && well;
}
