import { createHash, createHmac } from 'node:crypto';

/** What a signed request's message is built from (docs/auth.md). */
export interface MessageParts {
  method: string;
  /** Request-target as sent: the raw path plus `?query` when there is one. */
  path: string;
  /** `<date_text>` and `<nonce>`: present for the date-and-nonce form only. */
  dated?: { dateText: string; nonce: string };
  /** `<body_hash>`: present for PUT and POST when the body-hash extension is on. */
  bodyHash?: string;
}

/**
 * The signed message: `<VERB>+<path>`, then `+<date_text>+<nonce>` for the date-and-nonce form, then
 * `+<body_hash>` when the body hash is included.
 */
export function buildMessage(parts: MessageParts): string {
  let message = `${parts.method}+${parts.path}`;
  if (parts.dated) message += `+${parts.dated.dateText}+${parts.dated.nonce}`;
  if (parts.bodyHash !== undefined) message += `+${parts.bodyHash}`;
  return message;
}

/** HMAC-SHA256 (RFC 2104) of `data` keyed with `key`, raw bytes. */
export function hmacSha256(key: Uint8Array, data: Uint8Array): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** Standard base64 (with padding) of HMAC-SHA256 keyed with the UTF-8 secret over the UTF-8 message. */
export function hmacDigest(secret: string, message: string): string {
  // Strings go to node:crypto as UTF-8 directly: no intermediate Buffers on the hot path of every signed request.
  return createHmac('sha256', secret).update(message, 'utf8').digest('base64');
}

/** Standard base64 of SHA-256 over the exact body bytes (the hash of zero bytes for an empty body). */
export function bodyHash(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('base64');
}

/** Methods whose message carries the body hash when the extension is on. */
export function hashesBody(method: string): boolean {
  return method === 'PUT' || method === 'POST';
}
