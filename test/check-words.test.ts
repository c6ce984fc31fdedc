/**
 * Every check names its words (issue 33, VERDICTS.md §1): each check of each step of each scenario is charged to
 * rules of the catalogue that bind the server and quote the words their level rests on; where a check depends on an
 * open point (a `{{ profile.… }}` key it reads, a refusal's status, how article text compares), that key is an open
 * point of harness/src/profile/open-points.ts whose silent behaviour accepts every reading, and docs/open-points.md
 * says so. Every profile key is classified there, and every open point names the variants that prove a correct
 * service choosing otherwise passes (or why none is needed).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_OPEN_POINTS, PROFILE_KEYS } from '../harness/src/profile/open-points.js';
import { chargedRules } from '../harness/src/runner/step-checks.js';
import { CHECK_NAMES, type CheckName, type StepData } from '../harness/src/suite/schema.js';
import { VARIANT_NAMES } from '../reference-server/src/index.js';
import { bundledSuite, ROOT } from './helpers.js';

/** Every key path of the profile's JSON Schema (`[]` for list items), containers included. */
function schemaKeys(): string[] {
  const schema = JSON.parse(
    readFileSync(path.join(ROOT, 'specs', 'schema', 'profile.v1.schema.json'), 'utf8'),
  ) as unknown;
  const out = new Set<string>();
  type Node = { type?: string; properties?: Record<string, Node>; items?: Node; anyOf?: Node[] };
  const walk = (n: Node | undefined, at: string): void => {
    if (n === undefined) return;
    if (n.anyOf) return n.anyOf.forEach((x) => walk(x, at));
    if (at !== '') out.add(at);
    if (n.type === 'object' && n.properties)
      for (const [k, v] of Object.entries(n.properties)) walk(v, at === '' ? k : `${at}.${k}`);
    if (n.type === 'array' && n.items?.type === 'object') walk({ ...n.items, type: 'object' }, `${at}[]`);
  };
  walk(schema as Node, '');
  return [...out].filter((k) => !k.endsWith('[]'));
}

/** The checks a step makes: each key of `expect`, and `expectCount`. */
function checksOf(step: StepData): CheckName[] {
  const names = Object.keys(step.expect ?? {}) as CheckName[];
  return step.expectCount !== undefined ? [...names, 'expectCount'] : names;
}

/** The `profile.…` keys a template text reads, as key paths of the profile (the longest classified prefix). */
function profileKeysIn(text: string): string[] {
  const keys = [...text.matchAll(/profile\.([A-Za-z0-9_.]+)/g)].map((m) => m[1]!);
  return keys.map((k) => {
    const parts = k.split('.');
    for (let n = parts.length; n > 0; n--) {
      const key = parts.slice(0, n).join('.');
      if (key in PROFILE_KEYS) return key;
    }
    return k;
  });
}

describe('every check names its words', () => {
  const suite = bundledSuite();
  const { byId } = suite.catalogue;

  it('every profile key is classified as a fact or an open point, and nothing else is', () => {
    const keys = schemaKeys();
    expect(keys.filter((k) => !(k in PROFILE_KEYS))).toEqual([]);
    expect(Object.keys(PROFILE_KEYS).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it('every open point says what happens when the profile is silent, in docs/open-points.md too, with its variants', () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'open-points.md'), 'utf8');
    for (const [key, c] of Object.entries(PROFILE_KEYS)) {
      if (c.kind !== 'open') continue;
      // The key, or the object or list it belongs to (`auth.oauth1.approval` for its `method`).
      const named = key
        .split('.')
        .map((_, n, parts) =>
          parts
            .slice(0, n + 1)
            .join('.')
            .replace(/\[\]$/, ''),
        )
        .some(
          (k) =>
            doc.includes(`\`${k}\``) &&
            (k === key.replace(/\[\]$/, '') || PROFILE_KEYS[k]?.kind === 'open' || k === 'protected'),
        );
      expect(named, `docs/open-points.md names ${key}`).toBe(true);
      for (const v of c.variants) expect(VARIANT_NAMES as readonly string[], `${key}: variant ${v}`).toContain(v);
      if (c.variants.length === 0 && c.silent !== 'not-checked' && c.silent !== 'skips')
        expect(c.why, `${key} names no variant: say why`).toBeTruthy();
    }
  });

  it('each check is charged to rules of the catalogue that quote their words, at least one binding the server', () => {
    const problems: string[] = [];
    for (const s of suite.scenarios) {
      if (s.kind !== 'steps') continue;
      s.steps.forEach((step, i) => {
        for (const check of checksOf(step)) {
          const where = `${s.id} step ${i + 1}${step.name ? ` (${step.name})` : ''} ${check}`;
          const rules = chargedRules(step, new Set([check])) ?? s.rules;
          if (rules.length === 0) problems.push(`${where}: charged to no rule`);
          for (const id of rules) {
            const rule = byId.get(id);
            if (rule === undefined) problems.push(`${where}: unknown rule ${id}`);
            else if (rule.retired === true) problems.push(`${where}: retired rule ${id}`);
            else if (rule.quote.trim() === '') problems.push(`${where}: ${id} quotes no words`);
            if (!s.rules.includes(id)) problems.push(`${where}: ${id} is not among the scenario's rules`);
          }
          // A client or deployment rule may be named beside, never alone: it never raises a server check's level.
          if (!rules.some((id) => (byId.get(id)?.subject ?? 'server') === 'server'))
            problems.push(`${where}: charged only to rules that bind a client or the deployment (${rules.join(', ')})`);
        }
      });
    }
    expect(problems).toEqual([]);
  });

  it('a check that depends on a profile key depends on a classified one; an open point accepts every reading when silent', () => {
    const problems: string[] = [];
    for (const s of suite.scenarios) {
      if (s.kind !== 'steps') continue;
      s.steps.forEach((step, i) => {
        for (const check of checksOf(step)) {
          const where = `${s.id} step ${i + 1} ${check}`;
          const value =
            check === 'expectCount' ? step.expectCount : (step.expect as Record<string, unknown> | undefined)?.[check];
          const keys = [...profileKeysIn(JSON.stringify(value ?? '')), ...(CHECK_OPEN_POINTS[check] ?? [])];
          for (const key of keys) {
            const c = PROFILE_KEYS[key];
            if (c === undefined)
              problems.push(`${where}: reads profile.${key}, which open-points.ts does not classify`);
          }
        }
      });
    }
    expect(problems).toEqual([]);
    // The check names are the ones the schema knows: a new check must be considered here.
    expect([...CHECK_NAMES].sort()).toEqual(
      [
        'status',
        'refused',
        'statusNot',
        'notRefused',
        'headers',
        'location',
        'allow',
        'article',
        'sameDocument',
        'validArticle',
        'body',
        'json',
        'oob',
        'expectCount',
      ].sort(),
    );
  });
});
