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
