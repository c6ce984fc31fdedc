/**
 * The harness's XML reader for the documents targets answer with: saxes (a strict XML 1.0 well-formedness checker,
 * the one jsdom uses) drives a small tree builder. Whatever saxes finds not well-formed is refused — `--` inside a
 * comment, `]]>` in text, characters XML forbids, an XML declaration that is not first, undeclared entities,
 * duplicate attributes — and on top of that a document type declaration is refused (never expanded: the harness
 * reads untrusted input) and nesting is bounded. The judge must be at least as strict as the judged, so this reader
 * is kept independent of the reference server's own (reference-server/src/xml/reader.ts).
 */
import { SaxesParser } from 'saxes';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside this element (text, references and CDATA, decoded). */
  text: string;
}

export type XmlReadResult = { ok: true; root: XmlElement } | { ok: false; problem: string };

class XmlError extends Error {}

/** Reads one document; `maxDepth` bounds element nesting. Never throws for bad input: the problem is in the result. */
export function readXml(text: string, maxDepth = 64): XmlReadResult {
  const parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let problem: string | undefined;
  const fail = (message: string): never => {
    throw new XmlError(`${message} (line ${parser.line}, column ${parser.column})`);
  };
  parser.on('error', (err) => {
    // saxes prefixes "line:column: "; keep one location format.
    throw new XmlError(err.message.replace(/^(\d+):(\d+): (.*?)\.?$/s, '$3 (line $1, column $2)'));
  });
  parser.on('doctype', () => fail('a document type declaration (DTD) is refused'));
  parser.on('opentag', (tag) => {
    if (stack.length >= maxDepth) fail(`nesting deeper than ${maxDepth}`);
    const el: XmlElement = { name: tag.name, attributes: { ...tag.attributes }, children: [], text: '' };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  const addText = (t: string) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).close();
    if (!root) fail('no root element');
  } catch (err) {
    if (!(err instanceof XmlError)) throw err;
    problem = err.message;
  }
  return problem === undefined && root ? { ok: true, root } : { ok: false, problem: problem ?? 'no root element' };
}
