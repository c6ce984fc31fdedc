/**
 * The harness's own signers for SPEC.md §5.1–5.2 as defined in docs/auth.md. Written independently of the
 * reference server and checked against specs/vectors/auth.yaml (computed with Python) before every run.
 */
import { createHash, createHmac } from 'node:crypto';

/** `Basic <base64(user:password)>`, UTF-8 (RFC 7617). */
export function basicHeader(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** Standard base64 of HMAC-SHA256(secret, message), both UTF-8. */
export function hmacDigest(secret: string, message: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(message, 'utf8')).digest('base64');
}

/** Standard base64 of SHA-256 over the exact body bytes (the hash of nothing when there is no body). */
export function bodyHash(body: string | Uint8Array | undefined): string {
  return createHash('sha256')
    .update(body === undefined ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('base64');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** The spec's Date: `<DD> <Mon> <YYYY> <hh:mm:ss>` in UTC. */
export function formatSpecDate(d: Date): string {
  return `${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** `<date_text>`: the Date value with its spaces removed, lowercased. */
export function dateText(date: string): string {
  return date.replace(/ /g, '').toLowerCase();
}

export interface SignInput {
  method: string;
  /** Request-target as sent: path plus `?query` when there is one. */
  path: string;
  /** Set for the date-and-nonce form. */
  date?: string;
  nonce?: string;
  /** Set when the body hash extension is in use (PUT and POST only). */
  bodyHash?: string;
}

/** The message the digest covers, per docs/auth.md. */
export function signedMessage(i: SignInput): string {
  const parts = [i.method, i.path];
  if (i.nonce !== undefined) parts.push(dateText(i.date ?? ''), i.nonce);
  if (i.bodyHash !== undefined) parts.push(i.bodyHash);
  return parts.join('+');
}

/** `hmac <user>:<digest>` or `hmac <user>:<nonce>:<digest>`. */
export function hmacHeader(user: string, digest: string, nonce?: string): string {
  return nonce === undefined ? `hmac ${user}:${digest}` : `hmac ${user}:${nonce}:${digest}`;
}
