/**
 * Minimal DER (ITU-T X.690) encoders: just what a self-signed X.509 certificate needs. Every function returns the
 * complete TLV bytes.
 */

/** Tag-length-value with a definite length (short form below 128, long form above). */
export function tlv(tag: number, content: Uint8Array): Buffer {
  const length = content.byteLength;
  let head: number[];
  if (length < 0x80) head = [tag, length];
  else {
    const bytes: number[] = [];
    for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
    head = [tag, 0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from(head), content]);
}

/** SEQUENCE of already-encoded items. */
export function sequence(...items: Uint8Array[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

/** SET of already-encoded items (the caller keeps DER order; certificates here use one item per set). */
export function set(...items: Uint8Array[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

/** INTEGER from unsigned big-endian bytes (leading zeros trimmed, a 0x00 added when the top bit is set). */
export function unsignedInteger(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.byteLength - 1 && bytes[start] === 0) start++;
  const trimmed = Buffer.from(bytes.subarray(start));
  const content = (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
  return tlv(0x02, content.byteLength === 0 ? Buffer.from([0]) : content);
}

/** Small non-negative INTEGER. */
export function smallInteger(value: number): Buffer {
  return unsignedInteger(Buffer.from([value & 0xff]));
}

/** OBJECT IDENTIFIER from dotted text, e.g. `1.2.840.10045.4.3.2`. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const [first = 0, second = 0, ...rest] = arcs;
  const bytes: number[] = [40 * first + second];
  for (const arc of rest) {
    const chunk: number[] = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift(0x80 | (n & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTF8String. */
export function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, 'utf8'));
}

/** BOOLEAN. */
export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
}

/** OCTET STRING. */
export function octetString(bytes: Uint8Array): Buffer {
  return tlv(0x04, bytes);
}

/** BIT STRING with no unused bits. */
export function bitString(bytes: Uint8Array): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));
}

/** Explicitly tagged context-specific `[n]` (constructed) around one encoded item. */
export function explicit(n: number, item: Uint8Array): Buffer {
  return tlv(0xa0 | n, item);
}

/** Implicitly tagged context-specific `[n]` primitive with raw content (e.g. GeneralName dNSName [2], iPAddress [7]). */
export function implicit(n: number, content: Uint8Array): Buffer {
  return tlv(0x80 | n, content);
}

/** X.509 Time: UTCTime for 1950–2049, GeneralizedTime otherwise (RFC 5280 §4.1.2.5), whole seconds, UTC. */
export function time(at: Date): Buffer {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const rest = `${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}Z`;
  const year = at.getUTCFullYear();
  if (year >= 1950 && year < 2050) return tlv(0x17, Buffer.from(`${p(year % 100)}${rest}`, 'ascii'));
  return tlv(0x18, Buffer.from(`${p(year, 4)}${rest}`, 'ascii'));
}
