/** The documentation pages `conform schemas --write` generates, and how each is made from its sources. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadRulesSync, loadSuiteSync } from '../../../harness/src/suite/load.js';
import { replaceGeneratedRegion } from './markdown.js';
import { renderProfileKeys, type JsonSchema } from './profile-keys.js';
import type { Scenario } from '../../../harness/src/suite/types.js';
import { coveredRules, renderRulesPage, type RulesPageOptions } from './rules-page.js';

/** A generated page: where it lives (relative to the package root) and its text given its current text. */
export interface GeneratedPage {
  file: string;
  /** The page as it should be; `current` is what is on disk (undefined: no file), for pages with hand-written parts. */
  text(current: string | undefined): string;
}

/** Read a file of the package, or '' when it is missing (an installed package has no docs/). */
function readIfExists(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** How docs/rules.md of the package at `root` links: SPEC.md's sections in docs/spec.md, scenario files from docs/. */
export function rulesPageOptions(root: string, scenarios: readonly Pick<Scenario, 'id' | 'file'>[]): RulesPageOptions {
  return {
    spec: readIfExists(path.join(root, 'docs', 'spec.md')),
    pageDir: path.join(root, 'docs'),
    files: new Map(scenarios.map((s) => [s.id, s.file])),
  };
}

/** docs/rules.md of the package at `root`, from its catalogue and scenarios. */
export function rulesPage(root: string): string {
  const catalogue = loadRulesSync(path.join(root, 'specs', 'rules.yaml'));
  const suite = loadSuiteSync([path.join(root, 'specs')], catalogue);
  return renderRulesPage(coveredRules(catalogue.rules, suite.scenarios), rulesPageOptions(root, suite.scenarios));
}

/**
 * The generated pages of the package at `root`: docs/rules.md whole, and the key tables of docs/profile-keys.md
 * (between its markers), from `profileSchema`, the generated profile.v1.schema.json.
 */
export function generatedPages(root: string, profileSchema: JsonSchema): GeneratedPage[] {
  return [
    { file: 'docs/rules.md', text: () => rulesPage(root) },
    {
      file: 'docs/profile-keys.md',
      text: (current) =>
        replaceGeneratedRegion(
          current ?? '',
          'profile keys',
          renderProfileKeys(profileSchema, readIfExists(path.join(root, 'docs', 'open-points.md'))),
          'docs/profile-keys.md',
        ),
    },
  ];
}
