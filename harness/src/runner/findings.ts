/**
 * What an iteration of a scenario found: its failures (one per cause, VERDICTS.md §2) and the names the failed steps
 * would have captured, so that the steps needing them are left out rather than judged on nothing.
 */
import { oauth2Names } from '../suite/check-templates.js';
import type { StepData } from '../suite/schema.js';

/** The failures of one iteration so far, and the names a failed (or left out) step would have captured. */
export class Findings {
  readonly failures: Array<{ step: number; stepName?: string; messages: string[]; rules?: string[] }> = [];
  readonly unavailable = new Set<string>();

  /**
   * Records a failed step. A later failure charged only to rules already failed is the same cause, not a second
   * finding (VERDICTS.md §2); what the step would have captured is unavailable to the steps after it.
   */
  add(
    step: StepData,
    at: { step: number; stepName?: string },
    messages: string[],
    charged: string[] | undefined,
  ): void {
    for (const name of capturedBy(step)) this.unavailable.add(name);
    if (this.failures.length > 0) {
      if (this.failures.some((f) => f.rules === undefined)) return;
      const known = new Set(this.failures.flatMap((f) => f.rules ?? []));
      if (charged !== undefined && charged.every((r) => known.has(r))) return;
    }
    this.failures.push({ ...at, messages, ...(charged ? { rules: charged } : {}) });
  }

  /** The rules the failures are charged to; undefined when one of them is charged to all the scenario's rules. */
  rules(): string[] | undefined {
    return this.failures.some((f) => f.rules === undefined)
      ? undefined
      : [...new Set(this.failures.flatMap((f) => f.rules!))];
  }
}

/** The names a step puts in scope: its captures, a created article's path, an approval's verifier. */
export function capturedBy(step: StepData): string[] {
  return [
    ...Object.keys(step.capture ?? {}),
    ...(step.createArticle ? [step.createArticle.as] : []),
    ...(step.approve ? [step.approve.as] : []),
    ...oauth2Names(step),
  ];
}

/** Does a template of `step` name one of `names`? (A whole word inside any `{{ … }}`.) */
export function needsAny(step: StepData, names: ReadonlySet<string>): boolean {
  const templates = JSON.stringify(step).match(/\{\{.*?\}\}/g) ?? [];
  return templates.some((t) =>
    [...names].some((n) =>
      new RegExp(`(^|[^\\w.])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`).test(t.slice(2, -2)),
    ),
  );
}
