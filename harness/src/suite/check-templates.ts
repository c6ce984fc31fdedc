/** Static checks of a scenario's templates: syntax, filters, regular expressions, and names used before defined. */
import { ConformError } from '../errors.js';
import type { ScenarioData, StepData } from './schema.js';
import { compileTemplate, referencedNames } from './template.js';

/** Names every scenario can read. */
export const BUILTIN_NAMES = [
  'profile',
  'target',
  'uniq',
  'methods',
  'seed',
  'users',
  'now',
  'recordsPath',
  'protectedPaths',
  'bestScheme',
  'instances',
  'declared',
] as const;

interface PathIssue {
  path: PropertyKey[];
  message: string;
}

export function checkScenarioTemplates(s: ScenarioData): PathIssue[] {
  const issues: PathIssue[] = [];
  // `oob` (the out-of-band listener's url, file and marker) exists only in scenarios that require it.
  const withOob = (s.requires ?? []).includes('oob');
  const defined = new Set<string>([...BUILTIN_NAMES, ...(withOob ? ['oob'] : []), ...Object.keys(s.given ?? {})]);
  const check = (value: unknown, path: PropertyKey[], scope: ReadonlySet<string>) => {
    if (typeof value === 'string') {
      if (!value.includes('{{')) return;
      try {
        const t = compileTemplate(value);
        for (const name of referencedNames(t)) {
          if (!scope.has(name))
            issues.push({ path, message: `"${name}" is not defined here (defined: ${[...scope].join(', ')})` });
        }
      } catch (err) {
        issues.push({ path, message: err instanceof ConformError ? err.message : String(err) });
      }
      return;
    }
    if (Array.isArray(value)) value.forEach((v, i) => check(v, [...path, i], scope));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === 'matches' && typeof v === 'string') {
          try {
            new RegExp(v);
          } catch (err) {
            issues.push({ path: [...path, k], message: `bad regular expression: ${(err as Error).message}` });
          }
        } else check(v, [...path, k], scope);
      }
    }
  };
  for (const [name, template] of Object.entries(s.let ?? {})) {
    check(template, ['let', name], defined);
    defined.add(name);
  }
  const stepNames = new Set<string>();
  (s.steps ?? []).forEach((step, i) => {
    const kinds = [
      step.request,
      step.replayOf,
      step.createArticle,
      step.concurrent,
      step.approve,
      step.authorize,
      step.token,
    ].filter((k) => k !== undefined).length;
    if (kinds === 0)
      issues.push({
        path: ['steps', i],
        message: 'a step needs a request, replayOf, createArticle, approve, authorize, token or concurrent',
      });
    if (step.atRunEnd && Object.keys(s.given ?? {}).length > 0)
      issues.push({
        path: ['steps', i, 'atRunEnd'],
        message: 'atRunEnd waits for the whole run: only in a scenario without given values (one run)',
      });
    if (step.approve !== undefined && kinds > 1)
      issues.push({
        path: ['steps', i, 'approve'],
        message: 'an approve step has no request, replayOf, createArticle or concurrent',
      });
    if (
      step.concurrent !== undefined &&
      (kinds > 1 || step.repeat !== undefined || step.capture !== undefined || step.expect !== undefined)
    ) {
      issues.push({
        path: ['steps', i, 'concurrent'],
        message: 'a concurrent step has no request, replayOf, createArticle, repeat, expect or capture of its own',
      });
    }
    if (step.createArticle !== undefined && kinds > 1)
      issues.push({ path: ['steps', i, 'createArticle'], message: 'a createArticle step has no request or replayOf' });
    if (step.request !== undefined && step.replayOf !== undefined)
      issues.push({ path: ['steps', i, 'replayOf'], message: 'a step has a request or replayOf, not both' });
    if (step.replayAs !== undefined && step.replayOf === undefined)
      issues.push({ path: ['steps', i, 'replayAs'], message: 'replayAs goes with replayOf' });
    if (step.replayOf !== undefined && !stepNames.has(step.replayOf))
      issues.push({ path: ['steps', i, 'replayOf'], message: `no earlier step is named "${step.replayOf}"` });
    if (step.expect?.oob !== undefined && !withOob)
      issues.push({ path: ['steps', i, 'expect', 'oob'], message: 'an oob expectation needs requires: [oob]' });
    if (step.expectCount !== undefined && step.repeat === undefined)
      issues.push({ path: ['steps', i, 'expectCount'], message: 'expectCount needs repeat' });
    const clustered =
      step.instance !== undefined ||
      step.repeat?.spread === true ||
      step.concurrent?.some((sub) => sub.instance !== undefined) === true;
    if (clustered && !(s.requires ?? []).includes('target.instances'))
      issues.push({
        path: ['steps', i],
        message: 'a step sent to an instance (instance, repeat.spread) needs requires: [target.instances]',
      });
    if (step.repeat?.spread === true && step.instance !== undefined)
      issues.push({ path: ['steps', i, 'instance'], message: 'a step spread over the instances names no instance' });
    if (step.concurrent !== undefined && step.instance !== undefined)
      issues.push({ path: ['steps', i, 'instance'], message: 'a concurrent step names the instance of each request' });
    if (step.name !== undefined) stepNames.add(step.name);
    const scope = new Set(defined);
    if (step.when !== undefined) check(step.when, ['steps', i, 'when'], defined);
    if (step.each !== undefined) {
      check(step.each, ['steps', i, 'each'], defined);
      scope.add('item');
    }
    if (step.request) check(step.request, ['steps', i, 'request'], scope);
    if (step.instance !== undefined) check(step.instance, ['steps', i, 'instance'], scope);
    if (step.expect) check(step.expect, ['steps', i, 'expect'], scope);
    step.concurrent?.forEach((sub, k) => {
      check(sub.request, ['steps', i, 'concurrent', k, 'request'], scope);
      if (sub.instance !== undefined) check(sub.instance, ['steps', i, 'concurrent', k, 'instance'], scope);
      if (sub.expect) check(sub.expect, ['steps', i, 'concurrent', k, 'expect'], scope);
    });
    if (step.approve) {
      check(step.approve.token, ['steps', i, 'approve', 'token'], scope);
      if (step.approve.user !== undefined) check(step.approve.user, ['steps', i, 'approve', 'user'], scope);
      defined.add(step.approve.as);
    }
    if (step.authorize) {
      check(step.authorize.client, ['steps', i, 'authorize', 'client'], scope);
      if (step.authorize.user !== undefined) check(step.authorize.user, ['steps', i, 'authorize', 'user'], scope);
      if (step.authorize.redirectUri !== undefined)
        check(step.authorize.redirectUri, ['steps', i, 'authorize', 'redirectUri'], scope);
    }
    if (step.token) check(step.token.actor, ['steps', i, 'token', 'actor'], scope);
    for (const name of oauth2Names(step)) defined.add(name);
    if (step.createArticle) {
      check(step.createArticle.article, ['steps', i, 'createArticle', 'article'], scope);
      defined.add(step.createArticle.as);
    }
    for (const name of Object.keys(step.capture ?? {})) defined.add(name);
  });
  return issues;
}

/** The names an `authorize` or `token` step puts in scope. */
export function oauth2Names(step: StepData): string[] {
  if (step.authorize) return [step.authorize.as, `${step.authorize.as}Verifier`, `${step.authorize.as}RedirectUri`];
  if (step.token) return [step.token.as, `${step.token.as}Ttl`, `${step.token.as}Refresh`];
  return [];
}
