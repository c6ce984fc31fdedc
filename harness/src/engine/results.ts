/** What a run reports beyond its scenarios: counts, rule statuses, and what the profile describes but was not exercised. */
import type { ResolvedProfile } from '../profile/schema.js';
import { describeUnexercised, unexercised } from '../runner/incomplete.js';
import { ruleReason, ruleStatus } from '../runner/rules.js';
import type { RuleResult, RunSummary, ScenarioResult } from '../runner/types.js';
import type { Scenario, Suite } from '../suite/types.js';

/** `incomplete` of report.json: what the profile describes that the run did not exercise (none: absent). */
export function incompleteOf(
  selected: readonly Scenario[],
  results: readonly ScenarioResult[],
  file: ResolvedProfile,
  judged: ResolvedProfile,
  notes: ReadonlyMap<string, string>,
  redact: (text: string) => string,
): { incomplete?: string[] } {
  const list = unexercised(selected, results, file, judged).map((u) => {
    const learned = notes.get(u.capability.replace(/^auth\./, ''));
    return redact(describeUnexercised(learned === undefined ? u : { ...u, why: `learned: ${learned}` }));
  });
  return list.length > 0 ? { incomplete: list } : {};
}

/** What the learning of `auth.schemes` found of each scheme it tried (`oauth2` → "GET … → 403 — not offered here: …"). */
export function schemeNotes(learned: ReadonlyArray<{ key: string; how: string }> | undefined): Map<string, string> {
  const how = learned?.find((l) => l.key === 'auth.schemes')?.how ?? '';
  const out = new Map<string, string>();
  for (const part of how.split('; ')) {
    const m = /^([a-z0-9-]+): (.*)$/s.exec(part);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

/** Counts of scenario results by status, as `report.json`'s `summary`. */
export function summarize(results: readonly ScenarioResult[]): RunSummary {
  const s: RunSummary = { total: results.length, passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const r of results) s[r.status]++;
  return s;
}

/** Rule status from the scenarios that cover it in this run; rules no selected scenario covers are `uncovered`. */
export function ruleResults(suite: Suite, results: readonly ScenarioResult[]): RuleResult[] {
  return suite.catalogue.rules
    .filter((r) => !r.retired)
    .map((rule) => {
      const covering = results.filter((r) => r.rules.includes(rule.id));
      const status = ruleStatus(covering, rule.id);
      // Uncovered in this run only because the selection (--filter, --shard…) left out every scenario checking it.
      const unselected =
        covering.length === 0 ? suite.scenarios.filter((x) => x.rules.includes(rule.id)).map((x) => x.id) : [];
      return {
        id: rule.id,
        section: rule.section,
        level: rule.level,
        text: rule.text,
        quote: rule.quote,
        ...(rule.source ? { source: rule.source } : {}),
        ...(rule.subject ? { subject: rule.subject } : {}),
        status,
        reason:
          unselected.length > 0
            ? `not selected: ${unselected.join(', ')} check${unselected.length === 1 ? 's' : ''} it, outside this run's selection`
            : ruleReason(covering, status),
        ...(unselected.length > 0 ? { selected: false } : {}),
        scenarios: covering.map((c) => c.id),
      };
    });
}
