import { dateText, formatSignedDate } from './date.js';
import { bodyHash, buildMessage, hashesBody, hmacDigest } from './message.js';

/** `Basic <base64(user ":" password)>` over UTF-8 (RFC 7617). */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** What {@link signRequest} signs. */
export interface SignInput {
  method: string;
  /** Request-target as it will be sent (path plus `?query`). */
  target: string;
  user: string;
  secret: string;
  /** Body bytes (or UTF-8 text); hashed into PUT and POST messages when `bodyHash` is true. */
  body?: Uint8Array | string;
  /** Include the body hash for PUT and POST. Default true (the reference server's default). */
  bodyHash?: boolean;
  /** Date-and-nonce form: the nonce, and the Date (an instant, or header text used verbatim). */
  nonce?: string;
  date?: Date | string;
}

/** Headers of a signed request: `authentication`, and `date` for the date-and-nonce form. */
export interface SignedHeaders {
  authentication: string;
  date?: string;
}

/** Signs a request as docs/auth.md defines (simple form without `nonce`, else the date-and-nonce form). */
export function signRequest(input: SignInput): SignedHeaders {
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : (input.body ?? new Uint8Array());
  const hash = (input.bodyHash ?? true) && hashesBody(input.method) ? bodyHash(body) : undefined;
  if (input.nonce === undefined) {
    const digest = hmacDigest(
      input.secret,
      buildMessage({ method: input.method, path: input.target, ...(hash === undefined ? {} : { bodyHash: hash }) }),
    );
    return { authentication: `hmac ${input.user}:${digest}` };
  }
  const date = typeof input.date === 'string' ? input.date : formatSignedDate(input.date ?? new Date());
  const dated = { dateText: dateText(date), nonce: input.nonce };
  const digest = hmacDigest(
    input.secret,
    buildMessage({
      method: input.method,
      path: input.target,
      dated,
      ...(hash === undefined ? {} : { bodyHash: hash }),
    }),
  );
  return { authentication: `hmac ${input.user}:${input.nonce}:${digest}`, date };
}
