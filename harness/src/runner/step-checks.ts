/** What a step adds to the expectations: setup (preconditions), article creation, counted answers, charged rules. */
import type { SendResult } from '../http/client.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { CheckName, StepData } from '../suite/schema.js';
import { statusMatches, statusSet } from './response-parts.js';
import type { LocationOrigins } from './location.js';
import type { ExecDeps } from './exec-types.js';

/** The target's own origins: both listeners and the profile's `target.origins` (strict only when that key is set). */
export function originsOf(deps: ExecDeps): LocationOrigins {
  const listed = deps.profile.target.origins;
  const instances = deps.profile.target.instances.flatMap((i) => [i.http, i.https]);
  const own = [deps.bases.plain, deps.bases.tls, deps.bases.primary, ...instances, ...(listed ?? [])].filter(
    (u): u is string => u !== undefined,
  );
  return { own, strict: listed !== undefined };
}

/** A step's setup marking, normalized; undefined for a check (or a setup step that names its own scenario). */
export function setupOf(step: StepData, scenarioId: string): { checkedBy: string[]; what?: string } | undefined {
  if (step.setup === undefined) return undefined;
  if (step.setup === true) return { checkedBy: [] };
  const checkedBy = step.setup.checkedBy === undefined ? [] : [step.setup.checkedBy].flat();
  if (checkedBy.includes(scenarioId)) return undefined;
  return { checkedBy, ...(step.setup.what !== undefined ? { what: step.setup.what } : {}) };
}

/**
 * The step a `createArticle` setup stands for: PUT at a client-chosen URL when the profile offers it (so the
 * scenario does not depend on POST at all), else POST to the collection, whose Location is captured.
 */
export function articleSetup(
  step: StepData,
  profile: ResolvedProfile,
  id: string,
): { step: StepData; as: string; path?: string } {
  const c = step.createArticle!;
  const base = { ...(step.name !== undefined ? { name: step.name } : {}) };
  if (profile.articles.clientChosenPut) {
    const path = profile.articles.item.replace(/\{[^}]*\}/, id);
    return {
      as: c.as,
      path,
      step: {
        ...base,
        request: { method: 'PUT', path, body: { article: c.article } },
        expect: { status: '2xx' },
        setup: { checkedBy: 'articles/put-create', what: 'creating the article with PUT' },
      },
    };
  }
  return {
    as: c.as,
    step: {
      ...base,
      request: { method: 'POST', path: profile.articles.collection, body: { article: c.article } },
      expect: { status: 201, location: {} },
      capture: { [c.as]: { location: 'path' } },
      setup: { checkedBy: 'articles/post-create', what: 'creating the article with POST' },
    },
  };
}

/**
 * The rules a failed step is charged with: those its `rules` names for the checks that failed (a list: all of them for
 * any check; a map: the union over the failed checks, and every rule of the map for a check it does not name).
 * Undefined when the step names none: the scenario's rules are charged.
 */
export function chargedRules(step: Pick<StepData, 'rules'>, failed: ReadonlySet<CheckName>): string[] | undefined {
  const r = step.rules;
  if (r === undefined) return undefined;
  if (Array.isArray(r)) return [...r];
  const all = Object.values(r).flat();
  const out = [...failed].flatMap((c) => r[c] ?? all);
  return [...new Set(out)];
}

export function checkCounts(step: StepData, results: SendResult[], render: (t: string) => unknown): string[] {
  const out: string[] = [];
  for (const c of step.expectCount ?? []) {
    const set = statusSet(c.status, render);
    const got = results.filter((r) => r.ok && statusMatches(r.response.status, set)).length;
    if (got !== c.count) {
      const statuses = results.map((r) => (r.ok ? r.response.status : 'error')).join(', ');
      out.push(
        `expected ${c.count} of ${results.length} answers with status ${set.join(' or ')}, got ${got} (statuses: ${statuses})`,
      );
    }
  }
  return out;
}
