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
 */
export function parseHmac(value: string): HmacCredentials | string {
  const rest = HMAC.exec(value.trim())?.[1];
  if (rest === undefined) return 'the Authentication header must be "hmac <user>:<digest>" or "hmac <user>:<nonce>:<digest>"';
  const parts = rest.split(':');
  if (parts.some((p) => p === '') || parts.length < 2 || parts.length > 3) {
    return 'the hmac credentials must be <user>:<digest> or <user>:<nonce>:<digest>';
  }
  const [user = '', second = '', third] = parts;
  if (third === undefined) return { user, digest: second };
  if (!NONCE.test(second)) return 'the nonce must be 1-20 ASCII digits';
  return { user, nonce: second, digest: third };
}
