import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { SourceIssue } from '../errors.js';
import { cachedYaml, locationKey } from './yaml-cache.js';

/** A parsed YAML file that can locate any path inside it. */
export interface YamlSource {
  file: string;
  doc: Document.Parsed;
  /** The document as plain data (`unknown` until validated). */
  value: unknown;
  /** Syntax errors, already located. */
  syntaxIssues: SourceIssue[];
  locate(path: ReadonlyArray<PropertyKey>, key?: string): { line: number; column: number };
}

/**
 * CONTRACT.md writes path templates unquoted inside flow sequences (`aliases: [/article/{id}]`), which YAML reads as
 * a flow mapping. Such items (a plain scalar starting with "/" and holding "{") are quoted before parsing, so the
 * contract's own example works; the rewrite touches only those items on single-line flow sequences.
 */
export function quotePathTemplates(text: string): string {
  return text.replace(
    /^(\s*(?:-\s+)?[\w.$-]+:\s*)\[([^\]\n#'"]*\{[^\]\n#'"]*)\](?=\s*(?:#.*)?$)/gm,
    (_m, head: string, inner: string) => {
      const items = inner.split(/,(?![^{]*\})/).map((item) => {
        const t = item.trim();
        return t.startsWith('/') && t.includes('{') ? item.replace(t, JSON.stringify(t)) : item;
      });
      return `${head}[${items.join(',')}]`;
    },
  );
}

/**
 * Parses YAML text without trusting it: aliases are bounded, duplicate keys are errors. A text the build parsed
 * already (a bundled file, unchanged: yaml-cache.ts) comes from the cache, its document parsed only if asked for.
 */
export function parseYamlSource(file: string, rawText: string): YamlSource {
  const hit = cachedYaml(rawText);
  if (!hit) return parseYamlFresh(file, rawText);
  let parsed: YamlSource | undefined;
  const full = () => (parsed ??= parseYamlFresh(file, rawText));
  return {
    file,
    get doc() {
      return full().doc;
    },
    value: hit.value,
    syntaxIssues: [],
    locate(path, key) {
      const at = key === undefined ? hit.at[locationKey(path)] : undefined;
      return at ? { line: at[0], column: at[1] } : full().locate(path, key);
    },
  };
}

/** {@link parseYamlSource} without the cache: the text parsed now. */
export function parseYamlFresh(file: string, rawText: string): YamlSource {
  const text = quotePathTemplates(rawText);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const pos = (offset: number) => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const syntaxIssues: SourceIssue[] = doc.errors.map((e) => ({
    file,
    ...pos(e.pos[0]),
    path: '',
    message: e.message.split('\n')[0] ?? e.message,
  }));
  let value: unknown = null;
  if (syntaxIssues.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      syntaxIssues.push({ file, line: 1, column: 1, path: '', message: (err as Error).message });
    }
  }
  const locate = (path: ReadonlyArray<PropertyKey>, key?: string) => {
    // Walk down as far as the path exists; a missing key is reported at its parent.
    let node: unknown = doc.contents;
    let found: YamlNode | null = (doc.contents as YamlNode | null) ?? null;
    for (const seg of path) {
      if (node === null || typeof node !== 'object' || !('get' in (node as object))) break;
      const next = (node as { get(k: unknown, keep: true): unknown }).get(
        typeof seg === 'number' ? seg : String(seg),
        true,
      );
      if (next === undefined || next === null) break;
      node = next;
      found = next as YamlNode;
    }
    if (key !== undefined && isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
      const keyNode = pair?.key as YamlNode | undefined;
      if (keyNode?.range) return pos(keyNode.range[0]);
    }
    return found?.range ? pos(found.range[0]) : { line: 1, column: 1 };
  };
  return { file, doc, value, syntaxIssues, locate };
}
