import { NAME, isXmlSpace } from './chars.js';

/** Why a document was refused: a DTD, an unknown entity, an unsupported encoding, or not well-formed. */
export type XmlFaultCode = 'doctype' | 'entity' | 'encoding' | 'not-well-formed' | 'limits';

/** Thrown inside the reader only; {@link readXml} turns it into a result. */
export class XmlFault extends Error {
  constructor(
    readonly code: XmlFaultCode,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'XmlFault';
  }
}

/** Position-tracking scanner with the lexical pieces of XML that need no state beyond the position. */
export class Cursor {
  protected pos = 0;

  constructor(protected readonly s: string) {}

  protected fail(message: string, code: XmlFaultCode = 'not-well-formed'): never {
    const before = this.s.slice(0, this.pos).split('\n');
    const where = `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
    const what = code === 'not-well-formed' ? 'XML is not well-formed' : 'XML refused';
    throw new XmlFault(code, `${what} at ${where}: ${message}`);
  }

  protected at(token: string): boolean {
    return this.s.startsWith(token, this.pos);
  }

  protected expect(token: string, context: string): void {
    if (!this.at(token)) this.fail(`expected '${token}' ${context}`);
    this.pos += token.length;
  }

  protected space(): boolean {
    const from = this.pos;
    while (isXmlSpace(this.s[this.pos])) this.pos++;
    return this.pos > from;
  }

  protected name(context: string): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.s);
    if (!m) this.fail(`expected a name ${context}`);
    this.pos += m[0].length;
    return m[0];
  }

  protected comment(): void {
    const end = this.s.indexOf('--', this.pos + 4);
    if (end < 0) this.fail('unterminated comment');
    this.pos = end;
    if (this.s[end + 2] !== '>') this.fail("'--' is not allowed inside a comment");
    this.pos = end + 3;
  }

  protected pi(): void {
    this.pos += 2;
    const target = this.name('after <?');
    if (target.toLowerCase() === 'xml') this.fail('the XML declaration is only allowed at the very start');
    const end = this.s.indexOf('?>', this.pos);
    if (end < 0) this.fail('unterminated processing instruction');
    if (end > this.pos && !this.space()) this.fail('expected whitespace after the processing instruction target');
    this.pos = end + 2;
  }

  protected cdata(): string {
    const start = this.pos + '<![CDATA['.length;
    const end = this.s.indexOf(']]>', start);
    if (end < 0) this.fail('unterminated CDATA section');
    this.pos = end + 3;
    return this.s.slice(start, end);
  }

  protected charData(): string {
    let end = this.pos;
    while (end < this.s.length && this.s[end] !== '<' && this.s[end] !== '&') end++;
    const chunk = this.s.slice(this.pos, end);
    const bad = chunk.indexOf(']]>');
    if (bad >= 0) {
      this.pos += bad;
      this.fail("']]>' is not allowed in text");
    }
    this.pos = end;
    return chunk;
  }
}
