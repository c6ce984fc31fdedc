/**
 * A small, strict XML 1.0 reader for the documents targets answer with. It builds a tree of elements with decoded
 * text, and rejects what is not well-formed: mismatched or unclosed tags, several roots, `<` or a bare `&` where
 * they are not allowed, undeclared entities, duplicate attributes. A document type declaration is refused (never
 * expanded): the harness reads untrusted input. Linear time, no recursion on input depth beyond `maxDepth`.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside this element (text, references and CDATA, decoded). */
  text: string;
}

export type XmlReadResult = { ok: true; root: XmlElement } | { ok: false; problem: string };

const NAME_START = /[A-Za-z_:\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\uD800-\uDBFF]/;
const NAME = /[A-Za-z_:\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\uD800-\uDFFF0-9.\-\u00B7\u0300-\u036F\u203F-\u2040]*/y;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class XmlError extends Error {}

function decodeRef(ref: string): string {
  if (ref.startsWith('#')) {
    const hex = ref[1] === 'x';
    const digits = ref.slice(hex ? 2 : 1);
    if (!(hex ? /^[0-9A-Fa-f]{1,6}$/ : /^[0-9]{1,7}$/).test(digits)) throw new XmlError(`bad character reference &${ref};`);
    const cp = parseInt(digits, hex ? 16 : 10);
    const legal = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
    if (!legal) throw new XmlError(`character reference &${ref}; is not a legal XML character`);
    return String.fromCodePoint(cp);
  }
  const v = PREDEFINED[ref];
  if (v === undefined) throw new XmlError(`undeclared entity &${ref};`);
  return v;
}

/** Decodes character data: references expanded, line ends normalized; `<` or a bare `&` is an error. */
function decodeText(raw: string, inAttribute: boolean): string {
  if (raw.includes('<')) throw new XmlError(inAttribute ? '"<" in an attribute value' : 'unexpected "<"');
  let s = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  if (inAttribute) s = s.replace(/[\t\n]/g, ' ');
  if (!s.includes('&')) return s;
  return s.replace(/&([^;]*);|&/g, (_m, ref: string | undefined) => {
    if (ref === undefined) throw new XmlError('"&" that does not start a reference');
    return decodeRef(ref);
  });
}

export function readXml(text: string, maxDepth = 64): XmlReadResult {
  try {
    return { ok: true, root: parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, maxDepth) };
  } catch (err) {
    if (err instanceof XmlError) return { ok: false, problem: err.message };
    throw err;
  }
}

function parse(s: string, maxDepth: number): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const where = () => {
    const before = s.slice(0, i);
    const line = before.split('\n').length;
    return ` (line ${line}, column ${i - before.lastIndexOf('\n')})`;
  };
  const fail = (msg: string): never => {
    throw new XmlError(msg + where());
  };
  const name = (): string => {
    if (!NAME_START.test(s[i] ?? '')) fail('expected a name');
    NAME.lastIndex = i + 1;
    NAME.exec(s);
    const n = s.slice(i, NAME.lastIndex);
    i = NAME.lastIndex;
    return n;
  };
  const skipSpace = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    const chunk = s.slice(i, lt < 0 ? s.length : lt);
    if (chunk) {
      const top = stack[stack.length - 1];
      if (top) {
        try {
          top.text += decodeText(chunk, false);
        } catch (err) {
          fail((err as Error).message);
        }
      } else if (chunk.trim() !== '') fail('text outside the root element');
    }
    if (lt < 0) break;
    i = lt;
    if (s.startsWith('<!--', i)) {
      const end = s.indexOf('-->', i + 4);
      if (end < 0) fail('unclosed comment');
      i = end + 3;
    } else if (s.startsWith('<![CDATA[', i)) {
      const end = s.indexOf(']]>', i + 9);
      const top = stack[stack.length - 1];
      if (end < 0) fail('unclosed CDATA section');
      if (!top) fail('CDATA outside the root element');
      top!.text += s.slice(i + 9, end).replace(/\r\n?/g, '\n');
      i = end + 3;
    } else if (s.startsWith('<!', i)) {
      fail(s.startsWith('<!DOCTYPE', i) ? 'a document type declaration (DTD) is refused' : 'unexpected "<!"');
    } else if (s.startsWith('<?', i)) {
      const end = s.indexOf('?>', i + 2);
      if (end < 0) fail('unclosed processing instruction');
      i = end + 2;
    } else if (s[i + 1] === '/') {
      i += 2;
      const n = name();
      skipSpace();
      if (s[i] !== '>') fail(`expected ">" to close </${n}`);
      i++;
      const open = stack.pop();
      if (!open || open.name !== n) fail(`closing tag </${n}> does not match ${open ? `<${open.name}>` : 'any open element'}`);
    } else {
      i++;
      const el: XmlElement = { name: name(), attributes: {}, children: [], text: '' };
      for (;;) {
        const hadSpace = /[ \t\n\r]/.test(s[i] ?? '');
        skipSpace();
        if (s[i] === '>' || s.startsWith('/>', i)) break;
        if (!hadSpace) fail('expected whitespace before an attribute');
        const an = name();
        skipSpace();
        if (s[i] !== '=') fail(`expected "=" after attribute ${an}`);
        i++;
        skipSpace();
        const q = s[i];
        if (q !== '"' && q !== "'") fail(`attribute ${an} value must be quoted`);
        const end = s.indexOf(q!, i + 1);
        if (end < 0) fail(`unclosed attribute ${an}`);
        if (Object.hasOwn(el.attributes, an)) fail(`duplicate attribute ${an}`);
        try {
          el.attributes[an] = decodeText(s.slice(i + 1, end), true);
        } catch (err) {
          fail((err as Error).message);
        }
        i = end + 1;
      }
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else if (root) fail('more than one root element');
      else root = el;
      if (s[i] === '>') {
        i++;
        if (stack.length >= maxDepth) fail(`nesting deeper than ${maxDepth}`);
        stack.push(el);
      } else i += 2;
    }
  }
  if (stack.length > 0) fail(`<${stack[stack.length - 1]!.name}> is not closed`);
  if (!root) fail('no root element');
  return root!;
}
