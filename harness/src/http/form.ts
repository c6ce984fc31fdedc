/** application/x-www-form-urlencoded, decoded (RFC 6749 §2.3.1 and RFC 5849 §3.4.1.3 rely on it); encoding is http/percent.ts. */
import { percentDecode } from './percent.js';

/**
 * Form text as pairs of bytes, in order, duplicates kept, empty parts (`a=1&&b=2`) skipped as the WHATWG
 * urlencoded parser does: byte-exact, for OAuth 1 base strings.
 */
export function formPairBytes(text: string): Array<[Uint8Array, Uint8Array]> {
  return text
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const i = part.indexOf('=');
      return i < 0
        ? [percentDecode(part, true), new Uint8Array()]
        : [percentDecode(part.slice(0, i), true), percentDecode(part.slice(i + 1), true)];
    });
}

/** Form text as pairs of text (bytes that are not UTF-8 become U+FFFD), in order, duplicates kept. */
export function formPairs(text: string): Array<[string, string]> {
  const utf8 = (b: Uint8Array) => Buffer.from(b).toString('utf8');
  return formPairBytes(text).map(([k, v]) => [utf8(k), utf8(v)]);
}

/** The first value of a field, or undefined. */
export function formField(text: string, name: string): string | undefined {
  return formPairs(text.trim()).find(([k]) => k === name)?.[1];
}
