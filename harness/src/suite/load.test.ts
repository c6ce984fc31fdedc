import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { it } from '../../../test/temp-dir.js';
import { InvalidFileError, formatIssue } from '../errors.js';
import { checkProfileSource } from '../profile/load.js';
import { loadRulesSync, loadSuiteSync, readSourceSync } from './load.js';
import type { RuleCatalogue } from './types.js';

const RULES = path.resolve(import.meta.dirname, '../../../specs/rules.yaml');
let catalogue: RuleCatalogue;

beforeAll(() => {
  catalogue = loadRulesSync(RULES);
});

/** The issues of a scenario file holding `text`, written into `dir`, each as `F:line:col: message`. */
async function issuesOf(dir: string, text: string): Promise<string[]> {
  const file = path.join(dir, `s${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, text);
  try {
    loadSuiteSync([file], catalogue);
    return [];
  } catch (err) {
    if (!(err instanceof InvalidFileError)) throw err;
    return err.issues.map((i) => formatIssue({ ...i, file: 'F' }));
  }
}

const ok = `version: 1
scenarios:
  - id: x/one
    title: t
    rules: [4.2-post-201-location]
    steps:
      - request: { method: GET, path: / }
        expect: { status: 200 }
`;

describe('scenario loading', () => {
  it('accepts a valid file and derives the level from its rules', async ({ tempDir: dir }) => {
    const file = path.join(dir, 'ok.yaml');
    await writeFile(file, ok);
    const suite = loadSuiteSync([file], catalogue);
    expect(suite.scenarios[0]).toMatchObject({ id: 'x/one', level: 'MUST', property: false, line: 3 });
  });

  it('loads a model scenario: no steps, a property, every rule its commands can fail listed', async ({
    tempDir: dir,
  }) => {
    const file = path.resolve(import.meta.dirname, '../../../specs/articles/model.yaml');
    const suite = loadSuiteSync([file], catalogue);
    expect(suite.scenarios[0]).toMatchObject({
      id: 'articles/model-sequences',
      kind: 'model',
      property: true,
      model: { resource: 'articles' },
    });
    const model = `version: 1
scenarios:
  - id: x/model
    title: t
    rules: [4.2-post-201-location]
    model: { resource: articles }
`;
    const issues = await issuesOf(dir, model);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(
      /^F:5:12: a model scenario lists every rule its commands can fail: add 1-protected-need-auth, /,
    );
    expect(
      await issuesOf(
        dir,
        model.replace('    model:', '    steps: [{ request: { method: GET, path: / } }]\n    model:'),
      ),
    ).toContain('F:7:12: a scenario has either steps or a model');
    expect(await issuesOf(dir, ok.replace(/    steps:[\s\S]*/, ''))).toEqual([
      'F:3:5: a scenario has either steps or a model',
    ]);
  });

  it('names file, line and column of an unknown key', async ({ tempDir: dir }) => {
    expect(await issuesOf(dir, ok.replace('        expect:', '        expct:'))).toEqual([
      'F:8:9: unknown key "expct" (did you mean "expect"?)',
    ]);
  });

  it('locates a wrong type at the value', async ({ tempDir: dir }) => {
    expect(await issuesOf(dir, ok.replace('status: 200', 'status: true'))).toEqual([
      expect.stringMatching(/^F:8:27: .*status: expected number or string/),
    ]);
  });

  it('locates a missing required field at its parent', async ({ tempDir: dir }) => {
    const issues = await issuesOf(dir, ok.replace('    title: t\n', ''));
    expect(issues).toEqual([expect.stringMatching(/^F:3:5: scenarios\.0\.title: required/)]);
  });

  it('reports unknown rules, capabilities, generators, filters and undefined names', async ({ tempDir: dir }) => {
    const text = `version: 1
scenarios:
  - id: x/two
    title: t
    rules: [no-such-rule]
    requires: [teleport]
    given:
      a: unicorn
    steps:
      - request: { method: GET, path: "{{ b }}" }
      - request: { method: GET, path: "{{ a | shout }}" }
`;
    const issues = await issuesOf(dir, text);
    expect(issues).toContain('F:5:13: unknown rule "no-such-rule" (not in ' + catalogue.file + ')');
    expect(issues).toContain('F:6:16: unknown capability "teleport"');
    expect(issues.some((i) => i.startsWith('F:8:10: unknown generator "unicorn"'))).toBe(true);
    expect(issues.some((i) => /^F:10:39: "b" is not defined here/.test(i))).toBe(true);
    expect(issues.some((i) => /^F:11:39: unknown filter "shout"/.test(i))).toBe(true);
  });

  it('lets later steps use captures and refuses them before', async ({ tempDir: dir }) => {
    const text = ok.replace(
      '        expect: { status: 200 }\n',
      '        expect: { status: 200 }\n        capture: { loc: { header: Location } }\n      - request: { method: GET, path: "{{ loc }}" }\n',
    );
    expect(await issuesOf(dir, text)).toEqual([]);
    const early = ok.replace('path: /', 'path: "{{ loc }}"');
    expect((await issuesOf(dir, early))[0]).toMatch(/"loc" is not defined here/);
  });

  it('checks the cluster fields: an instance needs requires: [target.instances], and spread names no instance', async ({
    tempDir: dir,
  }) => {
    const step = (extra: string) =>
      ok.replace('      - request: { method: GET, path: / }\n', `      - request: { method: GET, path: / }\n${extra}`);
    expect((await issuesOf(dir, step('        instance: "{{ instances | at: 0 }}"\n')))[0]).toMatch(
      /^F:7:9: a step sent to an instance .* needs requires: \[target\.instances\]/,
    );
    const required = (text: string) => text.replace('    steps:', '    requires: [target.instances]\n    steps:');
    expect(await issuesOf(dir, required(step('        instance: "{{ instances | at: 0 }}"\n')))).toEqual([]);
    const both = required(step('        instance: 1\n        repeat: { times: 2, spread: true }\n'));
    expect(await issuesOf(dir, both)).toEqual([
      expect.stringMatching(/^F:\d+:\d+: a step spread over the instances names no instance/),
    ]);
  });

  it('reports YAML syntax errors and duplicate ids with positions', async ({ tempDir: dir }) => {
    expect((await issuesOf(dir, 'version: 1\nscenarios: [\n'))[0]).toMatch(/^F:\d+:\d+: /);
    const dup = ok + ok.split('scenarios:\n')[1];
    expect(await issuesOf(dir, dup)).toEqual([expect.stringMatching(/^F:9:9: duplicate scenario id "x\/one"/)]);
  });
});

describe('profile validation', () => {
  it('rejects unknown keys with file:line:col', async ({ tempDir: dir }) => {
    const file = path.join(dir, 'p.yaml');
    await writeFile(
      file,
      'articles:\n  collection: /articles\n  colection: /x\nauth:\n  schemes: [basic, carrier-pigeon]\n',
    );
    const { issues } = checkProfileSource(readSourceSync(file));
    const lines = issues.map((i) => formatIssue({ ...i, file: 'P' }));
    expect(lines).toContain('P:3:3: unknown key "colection" (did you mean "collection"?)');
    expect(lines.some((l) => l.startsWith('P:5:20: auth.schemes.1: expected one of'))).toBe(true);
  });

  it('reads target.instances, each with http or https', async ({ tempDir: dir }) => {
    const file = path.join(dir, 'i.yaml');
    await writeFile(
      file,
      'target:\n  http: http://lb\n  instances:\n    - { http: http://a:1, https: https://a:2 }\n    - { https: https://b:2 }\n    - {}\n',
    );
    const { issues } = checkProfileSource(readSourceSync(file));
    expect(issues.map((i) => formatIssue({ ...i, file: 'P' }))).toEqual([
      expect.stringMatching(/^P:6:7: target\.instances\.2: an instance needs http or https/),
    ]);
    await writeFile(file, 'target:\n  instances:\n    - { http: http://a:1 }\n');
    expect(checkProfileSource(readSourceSync(file)).profile?.target.instances).toEqual([{ http: 'http://a:1' }]);
  });

  it("reads CONTRACT.md's unquoted path templates in flow sequences", async ({ tempDir: dir }) => {
    const file = path.join(dir, 'c.yaml');
    await writeFile(file, 'articles:\n  item: /articles/{id}\n  aliases: [/article/{id}]\n');
    const { profile, issues } = checkProfileSource(readSourceSync(file));
    expect(issues).toEqual([]);
    expect(profile?.articles.aliases).toEqual(['/article/{id}']);
  });
});
