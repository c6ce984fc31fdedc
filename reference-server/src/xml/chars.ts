/** Character classes from XML 1.0 (fifth edition), section 2.2 and 2.3. */

const NAME_START =
  'A-Z_a-z:\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_REST = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;

/** Sticky matcher for an XML `Name`; set `lastIndex` before `exec`. */
export const NAME = new RegExp(`[${NAME_START}][${NAME_REST}]*`, 'uy');

/** Matches the first character outside the XML `Char` production (after line-end normalisation). */
export const ILLEGAL_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** True when `cp` is a legal XML 1.0 character. */
export function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** True for the XML whitespace characters (`S`): space, tab, line feed, carriage return. */
export function isXmlSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

/** True when every character of `text` is XML whitespace (also for the empty string). */
export function isBlank(text: string): boolean {
  return /^[ \t\n\r]*$/.test(text);
}

/** Renders a code point as `U+XXXX` for error messages. */
export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}
