/**
 * Percent-encoding (RFC 3986 §2.1), byte-exact: the harness's one encoder and decoder, used for query strings, form
 * bodies (RFC 6749 §2.3.1), OAuth 1 base strings (RFC 5849 §3.6) and path templates. Text is encoded as its UTF-8
 * bytes; decoding yields bytes, so `%FF` (not UTF-8) survives a decode and re-encode unchanged — what an OAuth 1
 * base string needs. (The reference server keeps its own, reference-server/src/oauth/encoding.ts.)
 */

const HEX = '0123456789ABCDEF';

/** RFC 3986 §2.3 unreserved: ALPHA, DIGIT, "-", ".", "_", "~". */
function unreserved(b: number): boolean {
  return (
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x61 && b <= 0x7a) ||
    (b >= 0x30 && b <= 0x39) ||
    b === 0x2d ||
    b === 0x2e ||
    b === 0x5f ||
    b === 0x7e
  );
}

/** Every byte but the unreserved ones as `%XX` (uppercase hex); `all` encodes the unreserved ones too. */
export function percentEncodeBytes(bytes: Uint8Array, all = false): string {
  let out = '';
  for (const b of bytes) out += !all && unreserved(b) ? String.fromCharCode(b) : `%${HEX[b >> 4]}${HEX[b & 15]}`;
  return out;
}

/** The UTF-8 bytes of `text`, unreserved characters kept, every other byte `%XX` (RFC 3986, RFC 5849 §3.6). */
export function percentEncode(text: string): string {
  // Most values (slugs, ids, nonces) are unreserved already: nothing to encode, no bytes to walk.
  return ALL_UNRESERVED.test(text) ? text : percentEncodeBytes(Buffer.from(text, 'utf8'));
}

const ALL_UNRESERVED = /^[A-Za-z0-9\-._~]*$/;

/** Every UTF-8 byte of `text` as `%XX`, unreserved ones included (a client that encodes everything). */
export function percentEncodeAll(text: string): string {
  return percentEncodeBytes(Buffer.from(text, 'utf8'), true);
}

/** A form field (application/x-www-form-urlencoded as RFC 6749 §2.3.1 uses it): {@link percentEncode}, spaces as "+". */
export function formEncode(text: string): string {
  return percentEncode(text).replace(/%20/g, '+');
}

const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;

/**
 * The bytes `text` stands for: `%XX` decoded, "+" as a space when `plusAsSpace` (form bodies and queries), anything
 * else as its UTF-8 bytes. A "%" not followed by two hex digits stays a literal "%".
 */
export function percentDecode(text: string, plusAsSpace = false): Uint8Array {
  const src = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === 0x25 && i + 2 < src.length) {
      const hi = hexValue(src[i + 1]!);
      const lo = hexValue(src[i + 2]!);
      if (hi >= 0 && lo >= 0) {
        out[n++] = (hi << 4) | lo;
        i += 2;
        continue;
      }
    }
    out[n++] = plusAsSpace && c === 0x2b ? 0x20 : c;
  }
  return out.subarray(0, n);
}
