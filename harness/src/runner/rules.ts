import type { RuleResult, ScenarioResult } from './types.js';

/** A rule's status from the scenarios that cover it: any failure fails it; a rule no scenario covered is uncovered. */
export function ruleStatus(covering: ReadonlyArray<Pick<ScenarioResult, 'status'>>): RuleResult['status'] {
  if (covering.length === 0) return 'uncovered';
  const statuses = new Set(covering.map((c) => c.status));
  if (statuses.has('failed')) return 'failed';
  if (statuses.has('errored')) return 'errored';
  if (statuses.has('passed')) return 'passed';
  return 'skipped';
}
