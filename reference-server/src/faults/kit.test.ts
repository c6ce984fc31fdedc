/** The fault kit, and where the faults reach into the correct code: through their seams only. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../rules.js';
import { CORRECT_IO } from './define.js';
import { faultKit } from './index.js';
import { CLUSTER_FAULTS, FAULT_NAMES } from './registry.js';

const SRC = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The correct code: every source file of src/ outside faults/, tests and testkits left out. */
function correctSources(): Array<[string, string]> {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        !file.includes('testkit') &&
        !file.startsWith(`faults${path.sep}`),
    )
    .map((file) => [file, readFileSync(path.join(SRC, file), 'utf8')]);
}

describe('faultKit', () => {
  it('with no fault gives the correct server: the correct rules and IO, no rewrite, no hooks', () => {
    const kit = faultKit([]);
    expect(kit.deps).toEqual({ rules: RULES });
    expect(kit.io).toEqual(CORRECT_IO);
  });

  it.each(FAULT_NAMES.filter((name) => !(CLUSTER_FAULTS as readonly string[]).includes(name)))(
    '%s changes something',
    (name) => {
      const { deps, io } = faultKit([name]);
      const handlers = deps.rules !== RULES || deps.rewrite !== undefined || deps.hooks !== undefined;
      const shell =
        !io.waitsForDisk ||
        io.remembersConnections ||
        io.readCap(1) !== 1 ||
        !io.journaled({ kind: 'nonce', scope: 'a', key: '1', expiresAt: 0 });
      expect(handlers || shell).toBe(true);
    },
  );

  it('makes each fault afresh for each server: one server remembers nothing of another', () => {
    expect(faultKit(['session-cookie']).deps.hooks).not.toBe(faultKit(['session-cookie']).deps.hooks);
  });
});

describe('the correct code', () => {
  it('never asks whether a fault is on', () => {
    const asking = correctSources().filter(([, text]) => text.includes('faults.has('));
    expect(asking.map(([file]) => file)).toEqual([]);
  });

  it('steps aside for the faults at eight places at most: the named hooks and the rewrite of answers', () => {
    const seams = correctSources().flatMap(([file, text]) =>
      [...text.matchAll(/hooks\?\.\w+|deps\.rewrite\(/g)].map((m) => `${file}: ${m[0]}`),
    );
    expect(seams.length).toBeLessThanOrEqual(8);
  });
});
