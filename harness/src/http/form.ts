/** application/x-www-form-urlencoded, both ways (RFC 6749 §2.3.1 and RFC 5849 §3.4.1.3 rely on it). */

/** Encodes a field: spaces as "+", everything but unreserved characters percent-encoded (uppercase hex). */
export function formEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Decodes form text into pairs, in order, duplicates kept. */
export function formPairs(text: string): Array<[string, string]> {
  if (text === '') return [];
  return text.split('&').map((part) => {
    const i = part.indexOf('=');
    return i < 0 ? [decode(part), ''] : [decode(part.slice(0, i)), decode(part.slice(i + 1))];
  });
}

/** The first value of a field, or undefined. */
export function formField(text: string, name: string): string | undefined {
  return formPairs(text.trim()).find(([k]) => k === name)?.[1];
}
