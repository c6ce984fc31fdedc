/**
 * Percent-encoding and `application/x-www-form-urlencoded` decoding as OAuth uses them: RFC 5849 §3.6 (every byte
 * but the RFC 3986 unreserved characters as `%XX`, uppercase hex, over UTF-8) and the form decoding of RFC 5849
 * §3.4.1.3.1 and RFC 6749 Appendix B. Everything works on bytes, so no input is lost, valid UTF-8 or not.
 */

const HEX = Array.from({ length: 256 }, (_, b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`);
const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;
const SPACE = 0x20;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** One name/value pair as bytes, decoded from its wire form. */
export interface BytePair {
  name: Buffer;
  value: Buffer;
}

function unreserved(b: number): boolean {
  return (
    (b >= 0x30 && b <= 0x39) ||
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x61 && b <= 0x7a) ||
    b === 0x2d ||
    b === 0x2e ||
    b === 0x5f ||
    b === 0x7e
  );
}

/**
 * The bytes of text taken from a request line or header: Latin-1 when every code unit fits a byte (how node:http
 * hands over raw octets), else UTF-8 (text built in tests).
 */
export function wireBytes(text: string): Buffer {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return Buffer.from(text, 'utf8');
  return Buffer.from(text, 'latin1');
}

/** RFC 5849 §3.6 percent-encoding of the UTF-8 bytes of `input` (or of the bytes themselves). */
export function percentEncode(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  let out = '';
  for (const b of bytes) out += unreserved(b) ? String.fromCharCode(b) : (HEX[b] as string);
  return out;
}

function hexValue(b: number | undefined): number {
  if (b === undefined) return -1;
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

/**
 * Percent-decodes bytes: `%XX` (either case) becomes its byte, a `%` not followed by two hex digits stays as it
 * is, and `+` becomes a space when `plusAsSpace` (form encoding; not in the OAuth `Authorization` header).
 */
export function percentDecode(input: Uint8Array, plusAsSpace: boolean): Buffer {
  const out = Buffer.alloc(input.byteLength);
  let n = 0;
  for (let i = 0; i < input.byteLength; i++) {
    const b = input[i] as number;
    if (b === PERCENT) {
      const hi = hexValue(input[i + 1]);
      const lo = hexValue(input[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out[n++] = hi * 16 + lo;
        i += 2;
        continue;
      }
    }
    out[n++] = plusAsSpace && b === PLUS ? SPACE : b;
  }
  return out.subarray(0, n);
}

/**
 * Splits `application/x-www-form-urlencoded` bytes into decoded pairs, in order, duplicates kept: `&` separates
 * pairs (empty ones are skipped), the first `=` separates name and value (a pair without `=` has an empty value),
 * `+` is a space and `%XX` a byte.
 */
export function parseFormBytes(input: Uint8Array): BytePair[] {
  const pairs: BytePair[] = [];
  let start = 0;
  for (let i = 0; i <= input.byteLength; i++) {
    if (i < input.byteLength && input[i] !== AMPERSAND) continue;
    if (i > start) {
      const part = input.subarray(start, i);
      const eq = part.indexOf(EQUALS);
      const name = eq < 0 ? part : part.subarray(0, eq);
      const value = eq < 0 ? new Uint8Array() : part.subarray(eq + 1);
      pairs.push({ name: percentDecode(name, true), value: percentDecode(value, true) });
    }
    start = i + 1;
  }
  return pairs;
}

/** Strict UTF-8 decoding; undefined for bytes that are not UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Form-decodes one component (`+` is a space, `%XX` a byte) as UTF-8 text; undefined when it is not UTF-8. */
export function formDecode(component: string): string | undefined {
  return utf8Text(percentDecode(wireBytes(component), true));
}

/** Form pairs as UTF-8 text, in order; undefined when any name or value is not UTF-8. */
export function parseFormText(input: Uint8Array): Array<[string, string]> | undefined {
  const out: Array<[string, string]> = [];
  for (const pair of parseFormBytes(input)) {
    const name = utf8Text(pair.name);
    const value = utf8Text(pair.value);
    if (name === undefined || value === undefined) return undefined;
    out.push([name, value]);
  }
  return out;
}

/** An `application/x-www-form-urlencoded` body of text pairs, each name and value encoded per RFC 5849 §3.6. */
export function formBody(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`).join('&');
}

/** True when a Content-Type names `application/x-www-form-urlencoded` (any case, parameters allowed). */
export function isFormContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}
