import type { RuleResult, ScenarioResult } from './types.js';

/**
 * A rule's status from the scenarios that cover it: any failure fails it; a rule no scenario covered is uncovered.
 * A scenario whose setup failed (`precondition`) checked nothing: it only counts, as errored, when no other
 * scenario judged the rule. Likewise a failed scenario whose failure was charged to other rules (a step's `rules`).
 */
export function ruleStatus(
  covering: ReadonlyArray<Pick<ScenarioResult, 'status' | 'precondition' | 'failure'>>,
  ruleId?: string,
): RuleResult['status'] {
  if (covering.length === 0) return 'uncovered';
  // A failure charged to other rules (the failing step's `rules`) did not judge this one: the scenario stopped first.
  const charged = (c: (typeof covering)[number]) =>
    c.status !== 'failed' || ruleId === undefined || c.failure?.rules === undefined || c.failure.rules.includes(ruleId);
  const judged = covering.filter((c) => !c.precondition && charged(c));
  if (judged.length === 0) return 'errored';
  const statuses = new Set(judged.map((c) => c.status));
  if (statuses.has('failed')) return 'failed';
  if (statuses.has('errored')) return 'errored';
  if (statuses.has('passed')) return 'passed';
  return 'skipped';
}
