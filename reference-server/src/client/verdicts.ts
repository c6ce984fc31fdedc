/** The verdicts of the judge of client rules, and the tally each rule's check keeps while it reads the recording. */

/** A client rule's verdict: broken by some request, met by every request that exercised it, or never exercised. */
export type ClientRuleStatus = 'passed' | 'failed' | 'not exercised';

/** One request that broke a rule, and why (never a secret, a digest or a signature). */
export interface ClientViolation {
  /** The exchange's `seq`. */
  seq: number;
  reason: string;
  /** The common mistake the request's digest was computed with, when one explains it (client/mistakes.ts). */
  mistake?: string;
  /** When no mistake explains a digest or signature: the message or base string the server built for the request. */
  signed?: string;
  /** Beside `signed`: the OAuth 1 base string rebuilt with the parameters as the client encoded them, when different. */
  sent?: string;
  /** The first part of `signed` that differs from `sent` (the base string URI, the parameter q…). */
  difference?: string;
}

/** The verdict on one client rule. */
export interface ClientRuleVerdict {
  rule: string;
  status: ClientRuleStatus;
  /** How many recorded requests the rule applied to. */
  exercised: number;
  violations: ClientViolation[];
  /**
   * Requests the rule applied to that the judge could not decide (a signature method or a document it cannot read):
   * neither passed nor failed, said so. Absent when there are none.
   */
  notJudged?: ClientViolation[];
}

/** Collects, rule by rule, the requests a rule applied to and those that broke it. */
export class Tally {
  readonly #exercised = new Map<string, number>();
  readonly #violations = new Map<string, ClientViolation[]>();
  readonly #notJudged = new Map<string, ClientViolation[]>();

  constructor(readonly rules: readonly string[]) {
    for (const rule of rules) {
      this.#exercised.set(rule, 0);
      this.#violations.set(rule, []);
    }
  }

  /** The rule applied to one more request. */
  exercise(rule: string): void {
    this.#exercised.set(rule, (this.#exercised.get(rule) ?? 0) + 1);
  }

  /** The rule applied to the request `seq`, which broke it. */
  fail(rule: string, violation: ClientViolation): void {
    this.exercise(rule);
    this.#violations.get(rule)?.push(violation);
  }

  /** The rule applied to the request `seq`, which the judge could not decide: neither met nor broken. */
  notJudged(rule: string, note: ClientViolation): void {
    const list = this.#notJudged.get(rule) ?? [];
    list.push(note);
    this.#notJudged.set(rule, list);
  }

  verdicts(): ClientRuleVerdict[] {
    return this.rules.map((rule) => {
      const exercised = this.#exercised.get(rule) ?? 0;
      const violations = this.#violations.get(rule) ?? [];
      const notJudged = this.#notJudged.get(rule);
      const status: ClientRuleStatus = violations.length > 0 ? 'failed' : exercised > 0 ? 'passed' : 'not exercised';
      return { rule, status, exercised, violations, ...(notJudged === undefined ? {} : { notJudged }) };
    });
  }
}
