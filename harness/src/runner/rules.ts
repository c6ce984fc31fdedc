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

type Covering = Pick<ScenarioResult, 'id' | 'status' | 'reason' | 'precondition' | 'failure'>;

/** Why a rule has its status ({@link ruleStatus}), in a sentence a report shows beside it. */
export function ruleReason(covering: ReadonlyArray<Covering>, status: RuleResult['status']): string {
  const ids = (of: readonly Covering[]) => of.map((c) => c.id).join(', ');
  const first = (of: readonly Covering[]) => (of[0]?.reason ? `: ${of[0].reason}` : '');
  switch (status) {
    case 'uncovered':
      return 'no selected scenario checks it';
    case 'failed': {
      const failed = covering.filter((c) => c.status === 'failed');
      return `the target broke it in ${ids(failed)}`;
    }
    case 'errored': {
      const errored = covering.filter((c) => c.status === 'errored' || c.precondition);
      const stopped = covering.filter((c) => c.precondition || c.status === 'failed');
      return errored.length > 0 && !errored.every((c) => c.precondition)
        ? `it could not be judged in ${ids(errored.filter((c) => !c.precondition))}${first(errored.filter((c) => !c.precondition))}`
        : `no scenario reached it: ${ids(stopped)} stopped before (a setup they need failed, or a failure charged to other rules)`;
    }
    case 'skipped': {
      return `every scenario checking it was skipped (${ids(covering)})${first(covering)}`;
    }
    case 'passed': {
      const passed = covering.filter((c) => c.status === 'passed');
      return `checked by ${ids(passed)}`;
    }
  }
}
