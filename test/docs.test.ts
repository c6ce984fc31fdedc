/**
 * The generated documentation pages are what their sources generate (conform schemas --write), the example profile
 * of docs/profile-keys.md is a valid profile, and docs/spec.md, contract.md and verdicts.md are verbatim copies.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedSchemas } from '../cli/src/commands/schemas.js';
import { generatedPages, rulesPage } from '../cli/src/docs/pages.js';
import { profileKeys, type JsonSchema } from '../cli/src/docs/profile-keys.js';
import { createSlugger, githubSlug, markdownHeadings } from '../cli/src/docs/slug.js';
import { checkProfileSource } from '../harness/src/profile/load.js';
import { parseYamlSource } from '../harness/src/suite/yaml-source.js';
import { runCli } from './cli-helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const profileSchema = JSON.parse(generatedSchemas()['profile.v1.schema.json'] ?? '{}') as JsonSchema;
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('generated pages', () => {
  for (const page of generatedPages(ROOT, profileSchema)) {
    it(`${page.file} is up to date (run: npm run build && node bin/conform.js schemas --write)`, () => {
      const current = read(page.file);
      expect(current).toBe(page.text(current));
    });
  }

  it('docs/rules.md has every live rule of the catalogue, with its level, words and covering scenarios', () => {
    const page = read('docs/rules.md');
    const headings = new Set(markdownHeadings(page));
    const rules = [...read('specs/rules.yaml').matchAll(/^ {2}- id: (\S+)/gm)].map((m) => m[1] ?? '');
    expect(rules.length).toBeGreaterThan(50);
    for (const id of rules) expect(headings.has(id), id).toBe(true);
    expect(page).toMatch(/^### 4\.1-put-create-201-location\n\n\*\*MUST\*\*/m);
    expect(page).toContain('[`articles/put-create`](../specs/articles/put.yaml)');
  });

  it('conform rules --markdown prints docs/rules.md; conform rules still prints the catalogue', async () => {
    const markdown = await runCli(ROOT, ['rules', '--markdown']);
    expect(markdown.code).toBe(0);
    expect(markdown.out).toBe(rulesPage(ROOT));
    const plain = await runCli(ROOT, ['rules']);
    expect(plain.out).toMatch(/MUST\s+1-stateless/);
    expect((await runCli(ROOT, ['rules', '--json', '--markdown'])).code).toBe(2);
  });

  it('every profile key is described, with its type', () => {
    const keys = profileKeys(profileSchema);
    expect(keys.map((k) => k.path)).toEqual(
      expect.arrayContaining([
        'articles.replaceStatus',
        'auth.oauth1.approval.method',
        'users[].name',
        'protected[].ownerOnly',
      ]),
    );
    expect(keys.filter((k) => k.description.trim() === '' || k.type === 'any').map((k) => k.path)).toEqual([]);
    expect(keys.find((k) => k.path === 'articles.replaceStatus')?.default).toBe('[200, 204] (RFC 9110 §9.3.4)');
  });

  it('the example profile at the top of docs/profile-keys.md is a valid profile', () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(read('docs/profile-keys.md'))?.[1];
    expect(yaml).toBeDefined();
    const { profile, issues } = checkProfileSource(parseYamlSource('docs/profile-keys.md', yaml ?? ''));
    expect(issues).toEqual([]);
    expect(profile?.articles.replaceStatus).toEqual([200, 204]);
  });
});

describe('the project copies of the shared documents', () => {
  const shared = path.resolve(ROOT, '..', 'shared');
  for (const [copy, original] of [
    ['docs/spec.md', 'SPEC.md'],
    ['docs/contract.md', 'CONTRACT.md'],
    ['docs/verdicts.md', 'VERDICTS.md'],
  ] as const) {
    it(`${copy} is a note line, then ${original} verbatim`, () => {
      const [note = '', blank, ...rest] = read(copy).split('\n');
      expect(note).toMatch(/^> This is the project's copy of/);
      expect(blank).toBe('');
      expect(rest.join('\n')).toMatch(/^# /);
    });
    it.skipIf(!existsSync(path.join(shared, original)))(`${copy} matches ../shared/${original}`, () => {
      expect(read(copy).split('\n').slice(2).join('\n')).toBe(readFileSync(path.join(shared, original), 'utf8'));
    });
  }
});

describe('GitHub heading anchors', () => {
  it('slugs headings as GitHub does', () => {
    expect(githubSlug('4.1 PUT on a known resource URL')).toBe('41-put-on-a-known-resource-url');
    expect(githubSlug('A cluster: `--instances N --redis URL`')).toBe('a-cluster---instances-n---redis-url');
    expect(githubSlug('`conform run` options (at least)')).toBe('conform-run-options-at-least');
    expect(githubSlug('§4.3 OPTIONS on any resource')).toBe('43-options-on-any-resource');
    expect(githubSlug('Sequences (`articles/model-sequences`, issue 15)')).toBe(
      'sequences-articlesmodel-sequences-issue-15',
    );
    expect(githubSlug('[Link](x.md) and **bold** snake_case')).toBe('link-and-bold-snake_case');
    const slug = createSlugger();
    expect(['Limits', 'Limits', 'Limits'].map(slug)).toEqual(['limits', 'limits-1', 'limits-2']);
  });

  it('finds ATX and setext headings, not those in code', () => {
    expect(markdownHeadings('# One\n\n```\n# not\n```\nTwo\n---\n\n- item\n---\n## Three ##\n')).toEqual([
      'One',
      'Two',
      'Three',
    ]);
  });
});
