import { ENTITY_LIMITS, readDoctype } from './doctype.js';
import { ILLEGAL_CHAR, codePointLabel, isXmlChar, isXmlSpace } from './chars.js';
import { Cursor, XmlFault } from './cursor.js';
import type { XmlFaultCode } from './cursor.js';

export type { XmlFaultCode } from './cursor.js';

/** An element of the small document tree; text children are plain strings, adjacent text is merged. */
export interface XmlElement {
  name: string;
  attributes: ReadonlyMap<string, string>;
  children: (XmlElement | string)[];
}

/** Result of {@link readXml}. */
export type XmlReadResult = { ok: true; root: XmlElement } | { ok: false; code: XmlFaultCode; detail: string };

/** Options for {@link readXml}. */
export interface XmlReadOptions {
  /** Accept a DOCTYPE and expand its internal entities (only the `expand-entities` fault). Default: false. */
  expandInternalEntities?: boolean;
  /** Deepest element nesting accepted (the root is depth 1). Default: {@link XML_LIMITS}.maxDepth. */
  maxDepth?: number;
  /** Most elements in a document. Default: {@link XML_LIMITS}.maxElements. */
  maxElements?: number;
  /**
   * The caller decoded the bytes by the encoding the document declares: any `encoding` in the XML declaration is
   * accepted (only the judge of client rules asks). Default: false, only UTF-8 is.
   */
  decoded?: boolean;
}

/**
 * Bounds of the tree {@link readXml} builds, whatever the body cap: an article is two levels deep with three
 * elements, so these leave room for fields the spec does not show while keeping a hostile document's tree small
 * (10,000 elements are about 2 MB of heap, where 10 MB of `<a>` would be 2.5 million nodes).
 */
export const XML_LIMITS = { maxDepth: 32, maxElements: 10_000 } as const;

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const XML_DECL =
  /<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*("1\.[0-9]+"|'1\.[0-9]+')(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(?:"([A-Za-z][\w.-]*)"|'([A-Za-z][\w.-]*)'))?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\n]*\?>/y;

/**
 * Reads a complete XML 1.0 document strictly (a hand-written subset reader, no DTD processing).
 * Decodes the five predefined entities, numeric character references and CDATA; refuses any other entity
 * reference and any DOCTYPE. Line ends are normalised to `\n` as XML requires.
 */
export function readXml(input: string, options: XmlReadOptions = {}): XmlReadResult {
  const text = (input.startsWith('\uFEFF') ? input.slice(1) : input).replace(/\r\n?/g, '\n');
  if (!options.expandInternalEntities && /<!(DOCTYPE|ENTITY)/i.test(text)) {
    return {
      ok: false,
      code: 'doctype',
      detail: 'DOCTYPE and ENTITY declarations are refused; entities are never expanded',
    };
  }
  const illegal = ILLEGAL_CHAR.exec(text);
  if (illegal) {
    const label = codePointLabel(illegal[0].codePointAt(0) ?? 0);
    return { ok: false, code: 'not-well-formed', detail: `character ${label} is not allowed in XML` };
  }
  try {
    return { ok: true, root: new Reader(text, options).document() };
  } catch (err) {
    if (err instanceof XmlFault) return { ok: false, code: err.code, detail: err.detail };
    throw err;
  }
}

class Reader extends Cursor {
  private entities = new Map<string, string>();
  private expanded = 0;
  private seenDoctype = false;
  private elements = 0;
  private readonly maxDepth: number;
  private readonly maxElements: number;

  constructor(
    text: string,
    private readonly options: XmlReadOptions,
  ) {
    super(text);
    this.maxDepth = options.maxDepth ?? XML_LIMITS.maxDepth;
    this.maxElements = options.maxElements ?? XML_LIMITS.maxElements;
  }

  document(): XmlElement {
    if (this.s.startsWith('<?xml', 0) && isXmlSpace(this.s[5])) this.xmlDecl();
    this.misc(true);
    if (this.s[this.pos] !== '<' || this.s.startsWith('<!', this.pos)) this.fail('expected the root element');
    const root = this.element();
    this.misc(false);
    if (this.pos < this.s.length) this.fail('unexpected content after the root element');
    return root;
  }

  private xmlDecl(): void {
    XML_DECL.lastIndex = 0;
    const m = XML_DECL.exec(this.s);
    if (!m) this.fail('malformed XML declaration');
    const encoding = m[2] ?? m[3];
    if (encoding !== undefined && !this.options.decoded && !/^utf-?8$/i.test(encoding)) {
      throw new XmlFault('encoding', `encoding "${encoding}" is not supported; send UTF-8`);
    }
    this.pos = m[0].length;
  }

  private misc(prolog: boolean): void {
    for (;;) {
      this.space();
      if (this.at('<!--')) this.comment();
      else if (this.at('<?')) this.pi();
      else if (prolog && !this.seenDoctype && this.options.expandInternalEntities && this.at('<!DOCTYPE'))
        this.doctype();
      else return;
    }
  }

  private doctype(): void {
    const result = readDoctype(this.s, this.pos);
    if (!result.ok) {
      this.pos = result.pos;
      this.fail(result.message, 'doctype');
    }
    this.entities = result.entities;
    this.seenDoctype = true;
    this.pos = result.end;
  }

  private reference(): string {
    this.pos++;
    if (this.s[this.pos] === '#') {
      const hex = this.s[this.pos + 1] === 'x';
      const digits = hex ? /[0-9A-Fa-f]+/y : /[0-9]+/y;
      digits.lastIndex = this.pos + (hex ? 2 : 1);
      const m = digits.exec(this.s);
      if (!m) this.fail('malformed character reference');
      this.pos = digits.lastIndex;
      this.expect(';', 'to end the character reference');
      const cp = m[0].length > 8 ? -1 : Number.parseInt(m[0], hex ? 16 : 10);
      if (!isXmlChar(cp)) this.fail(`character reference &#${hex ? 'x' : ''}${m[0]}; is not a legal XML character`);
      return String.fromCodePoint(cp);
    }
    const name = this.name("after '&'");
    this.expect(';', `to end the entity reference &${name}`);
    const known = PREDEFINED[name] ?? this.entities.get(name);
    if (known === undefined) {
      this.fail(
        `undefined entity &${name}; (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)`,
        'entity',
      );
    }
    if (!Object.hasOwn(PREDEFINED, name)) {
      this.expanded += known.length;
      if (this.expanded > ENTITY_LIMITS.maxExpandedChars) this.fail('entity expansion limit exceeded', 'entity');
    }
    return known;
  }

  private startTag(): { element: XmlElement; empty: boolean } {
    if (++this.elements > this.maxElements) this.fail(`more than ${this.maxElements} elements`, 'limits');
    this.pos++;
    const name = this.name("after '<'");
    const attributes = new Map<string, string>();
    for (;;) {
      const spaced = this.space();
      if (this.at('/>') || this.at('>')) {
        const empty = this.at('/>');
        this.pos += empty ? 2 : 1;
        return { element: { name, attributes, children: [] }, empty };
      }
      if (!spaced) this.fail(`expected whitespace, '>' or '/>' in the start tag of <${name}>`);
      const attr = this.name(`for an attribute of <${name}>`);
      this.space();
      this.expect('=', `after attribute ${attr}`);
      this.space();
      if (attributes.has(attr)) this.fail(`duplicate attribute ${attr} on <${name}>`);
      attributes.set(attr, this.attributeValue(attr));
    }
  }

  private attributeValue(attr: string): string {
    const quote = this.s[this.pos];
    if (quote !== '"' && quote !== "'") this.fail(`attribute ${attr} needs a quoted value`);
    this.pos++;
    let value = '';
    for (;;) {
      const ch = this.s[this.pos];
      if (ch === undefined) this.fail(`unterminated value of attribute ${attr}`);
      if (ch === quote) break;
      if (ch === '<') this.fail(`'<' is not allowed in the value of attribute ${attr}`);
      if (ch === '&') value += this.reference();
      else {
        value += isXmlSpace(ch) ? ' ' : ch;
        this.pos++;
      }
    }
    this.pos++;
    return value;
  }

  private element(): XmlElement {
    const first = this.startTag();
    if (first.empty) return first.element;
    const stack = [first.element];
    let text = '';
    const flush = (into: XmlElement): void => {
      if (text === '') return;
      const last = into.children.at(-1);
      if (typeof last === 'string') into.children[into.children.length - 1] = last + text;
      else into.children.push(text);
      text = '';
    };
    for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
      if (this.pos >= this.s.length) this.fail(`element <${top.name}> is not closed`);
      if (this.at('</')) {
        flush(top);
        const start = this.pos;
        this.pos += 2;
        const name = this.name("after '</'");
        this.space();
        this.expect('>', `to end the end tag </${name}>`);
        if (name !== top.name) {
          this.pos = start;
          this.fail(`end tag </${name}> does not match <${top.name}>`);
        }
        stack.pop();
      } else if (this.at('<!--')) this.comment();
      else if (this.at('<![CDATA[')) text += this.cdata();
      else if (this.at('<?')) this.pi();
      else if (this.at('<!')) this.fail('markup declarations are not allowed in content');
      else if (this.at('<')) {
        flush(top);
        const child = this.startTag();
        top.children.push(child.element);
        if (!child.empty && stack.push(child.element) > this.maxDepth)
          this.fail(`elements nested deeper than ${this.maxDepth} levels`, 'limits');
      } else if (this.at('&')) text += this.reference();
      else text += this.charData();
    }
    return first.element;
  }
}
