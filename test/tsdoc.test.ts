/**
 * Every export of the package's entry points (`package.json` exports) carries a doc comment: it is what an editor
 * shows a user of the API, and the only reference of the programmatic surface.
 */
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const ENTRIES = ['harness/src/index.ts', 'harness/src/vitest/index.ts', 'cli/src/api/reference-server.ts'].map((f) =>
  path.join(ROOT, f),
);

describe('the API documents itself', () => {
  it('every export of every entry point has a doc comment', () => {
    const program = ts.createProgram(ENTRIES, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const undocumented: string[] = [];
    let exports = 0;
    for (const entry of ENTRIES) {
      const source = program.getSourceFile(entry);
      const module = source && checker.getSymbolAtLocation(source);
      if (!module) throw new Error(`cannot read ${entry}`);
      for (const symbol of checker.getExportsOfModule(module)) {
        exports++;
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        if (target.getDocumentationComment(checker).length === 0)
          undocumented.push(`${path.relative(ROOT, entry)}: ${symbol.name}`);
      }
    }
    expect(exports).toBeGreaterThan(50);
    expect(undocumented).toEqual([]);
  });
});
