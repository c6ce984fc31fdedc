import type { RuleResult, ScenarioResult } from './types.js';

/**
 * A rule's status from the scenarios that cover it: any failure fails it; a rule no scenario covered is uncovered.
 * A scenario whose setup failed (`precondition`) checked nothing: it only counts, as errored, when no other
 * scenario judged the rule.
 */
export function ruleStatus(covering: ReadonlyArray<Pick<ScenarioResult, 'status' | 'precondition'>>): RuleResult['status'] {
  if (covering.length === 0) return 'uncovered';
  const judged = covering.filter((c) => !c.precondition);
  if (judged.length === 0) return 'errored';
  const statuses = new Set(judged.map((c) => c.status));
  if (statuses.has('failed')) return 'failed';
  if (statuses.has('errored')) return 'errored';
  if (statuses.has('passed')) return 'passed';
  return 'skipped';
}
