/** The parts of an `Authentication: hmac …` header value. */
export interface HmacCredentials {
  user: string;
  /** Present for the date-and-nonce form: 1–20 ASCII digits, kept as text. */
  nonce?: string;
  digest: string;
}

const HMAC = /^hmac +(\S+)$/i;
const NONCE = /^[0-9]{1,20}$/;

/**
 * Parses `hmac <user>:<digest>` (simple form) or `hmac <user>:<nonce>:<digest>` (date-and-nonce form). The scheme
 * word is matched in any case; the rest is case-sensitive. Returns a reason string when the value is malformed.
 * With `anyNonce` the nonce is not checked here (the `nonce-int64` variant checks it as a number).
 */
export function parseHmac(value: string, anyNonce = false): HmacCredentials | string {
  const rest = HMAC.exec(value.trim())?.[1];
  if (rest === undefined)
    return 'the Authentication header must be "hmac <user>:<digest>" or "hmac <user>:<nonce>:<digest>"';
  const parts = rest.split(':');
  if (parts.some((p) => p === '') || parts.length < 2 || parts.length > 3) {
    return 'the hmac credentials must be <user>:<digest> or <user>:<nonce>:<digest>';
  }
  const [user = '', second = '', third] = parts;
  if (third === undefined) return { user, digest: second };
  if (!anyNonce && !NONCE.test(second)) return 'the nonce must be 1-20 ASCII digits';
  return { user, nonce: second, digest: third };
}

/** The largest signed 64-bit integer. */
export const INT64_MAX = 9223372036854775807n;
const INT64_NONCE = /^(?:0|[1-9][0-9]{0,18})$/;

/**
 * A nonce read as a signed 64-bit integer (the `nonce-int64` variant): its value, or undefined for anything but
 * decimal digits without a leading zero up to {@link INT64_MAX}.
 */
export function int64Nonce(nonce: string): bigint | undefined {
  if (!INT64_NONCE.test(nonce)) return undefined;
  const value = BigInt(nonce);
  return value <= INT64_MAX ? value : undefined;
}
