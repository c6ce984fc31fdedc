/**
 * Compares the transcripts of one run on both sides, exchange by exchange: same step, and within a step the k-th
 * request of a method on one side against the k-th of the same method on the other (so a step that loops over an
 * Allow list pairs GET with GET even when one list is longer). Answers of a concurrent repeat arrive in any order,
 * so they are paired after sorting by status. Pure.
 */
import type { RawExchange } from '../runner/exec-types.js';
import type { StepScenario } from '../suite/types.js';
import { equivalenceFor } from './equivalences.js';
import { describeAnswer, FIELDS, optionalFieldDefs, type FieldDef } from './fields.js';
import { observe } from './observe.js';
import type { Difference, DiffField, DiffValue, Observation, Side, SideContext } from './types.js';

export interface CompareContext {
  scenario: Pick<StepScenario, 'steps'>;
  reference: SideContext;
  target: SideContext;
  /** How each side's run ended; a side that failed or errored stopped early, and what it did not send is one difference. */
  outcomes?: Partial<Record<Side, { kind: 'pass' | 'fail' | 'error'; step?: number }>>;
}

export interface Comparison {
  differences: Difference[];
  /** Apparent differences that an equivalence rule declared the same, counted by rule id. */
  ignored: Record<string, number>;
}

interface Slot {
  step: number;
  stepName?: string;
  exchange: number;
  reference?: RawExchange;
  target?: RawExchange;
}

function byStep(transcript: readonly RawExchange[]): Map<number, RawExchange[]> {
  const out = new Map<number, RawExchange[]>();
  for (const x of transcript) out.set(x.step, [...(out.get(x.step) ?? []), x]);
  return out;
}

const answerOrder = (x: RawExchange) => x.response?.status ?? 1000;

/** Pairs the exchanges of both transcripts (see the module comment). */
export function pairExchanges(
  reference: readonly RawExchange[],
  target: readonly RawExchange[],
  scenario: Pick<StepScenario, 'steps'>,
): Slot[] {
  const [r, t] = [byStep(reference), byStep(target)];
  const steps = [...new Set([...r.keys(), ...t.keys()])].sort((a, b) => a - b);
  const slots: Slot[] = [];
  for (const step of steps) {
    const concurrent = scenario.steps[step - 1]?.repeat?.concurrent === true;
    const order = (l: RawExchange[]) => (concurrent ? [...l].sort((a, b) => answerOrder(a) - answerOrder(b)) : l);
    const [rs, ts] = [order(r.get(step) ?? []), order(t.get(step) ?? [])];
    const taken = new Set<RawExchange>();
    const seen = new Map<string, number>();
    for (const x of rs) {
      const k = (seen.get(x.request.method) ?? 0) + 1;
      seen.set(x.request.method, k);
      const match = ts.filter((y) => y.request.method === x.request.method)[k - 1];
      if (match) taken.add(match);
      slots.push({
        step,
        ...(x.stepName ? { stepName: x.stepName } : {}),
        exchange: k,
        reference: x,
        ...(match ? { target: match } : {}),
      });
    }
    const counts = new Map<string, number>();
    for (const y of ts) {
      const k = (counts.get(y.request.method) ?? 0) + 1;
      counts.set(y.request.method, k);
      if (!taken.has(y)) slots.push({ step, ...(y.stepName ? { stepName: y.stepName } : {}), exchange: k, target: y });
    }
  }
  return slots;
}

/** Why a side that stopped early sent nothing more. */
function stoppedText(outcome: { kind: 'pass' | 'fail' | 'error'; step?: number }): string {
  return `not sent: its run ${outcome.kind === 'fail' ? 'failed' : 'errored'}${outcome.step !== undefined ? ` at step ${outcome.step}` : ''}`;
}

/**
 * Compares two transcripts of the same values; see {@link pairExchanges} for how exchanges are paired. The requests
 * one side sent after the other stopped early (its run failed or errored) are one difference.
 */
export function compareTranscripts(
  reference: readonly RawExchange[],
  target: readonly RawExchange[],
  ctx: CompareContext,
): Comparison {
  const optionalNames = [
    ...new Set([...ctx.reference.profile.articles.optionalFields, ...ctx.target.profile.articles.optionalFields]),
  ];
  const fields: readonly FieldDef[] = [...FIELDS, ...optionalFieldDefs(optionalNames)];
  const differences: Difference[] = [];
  const ignored: Record<string, number> = {};
  const sides = { referenceSide: ctx.reference, targetSide: ctx.target };
  const slots = pairExchanges(reference, target, ctx.scenario);
  const lastPaired = slots.reduce((at, s, i) => (s.reference && s.target ? i : at), -1);
  const tail = slots.slice(lastPaired + 1);
  const missing: Side | undefined =
    tail.length === 0
      ? undefined
      : tail.every((s) => !s.target)
        ? 'target'
        : tail.every((s) => !s.reference)
          ? 'reference'
          : undefined;
  const stoppedOutcome = missing ? ctx.outcomes?.[missing] : undefined;
  const stoppedEarly = stoppedOutcome !== undefined && stoppedOutcome.kind !== 'pass' ? stoppedOutcome : undefined;
  /** The single difference that stands for the one-sided tail, and what it has absorbed so far. */
  let stopped: { d: Difference; side: 'reference' | 'target'; first: string; count: number } | undefined;

  for (const [index, slot] of slots.entries()) {
    const r = slot.reference ? observe(slot.reference, ctx.reference, optionalNames) : undefined;
    const t = slot.target ? observe(slot.target, ctx.target, optionalNames) : undefined;
    const present = (r ?? t)!;
    const step = ctx.scenario.steps[slot.step - 1];
    const same = (field: DiffField, pair: { reference?: Observation; target?: Observation }): boolean => {
      const rule = equivalenceFor({ field, ...pair, ...sides, ...(step ? { step } : {}) });
      if (rule) ignored[rule.id] = (ignored[rule.id] ?? 0) + 1;
      return rule !== undefined;
    };
    const difference = (field: DiffField, refValue: DiffValue, targetValue: DiffValue): Difference => ({
      step: slot.step,
      ...(slot.stepName ? { stepName: slot.stepName } : {}),
      exchange: slot.exchange,
      method: present.method,
      path: present.path,
      ...(r && t && t.path !== r.path ? { targetPath: t.path } : {}),
      ...(slot.target?.instance !== undefined ? { instance: slot.target.instance } : {}),
      field,
      reference: refValue,
      target: targetValue,
    });
    if (!r || !t) {
      if (same('exchange', { ...(r ? { reference: r } : {}), ...(t ? { target: t } : {}) })) continue;
      const sent = `sent, answered ${describeAnswer(present)}`;
      const inTail = stoppedEarly !== undefined && index > lastPaired;
      if (inTail && stopped) {
        stopped.count++;
        const steps = stopped.d.step === slot.step ? `step ${slot.step}` : `steps ${stopped.d.step}–${slot.step}`;
        stopped.d[stopped.side] = `sent ${stopped.count} requests (${steps}), the first answered ${stopped.first}`;
        continue;
      }
      const absent = inTail ? stoppedText(stoppedEarly) : 'not sent';
      const d = r ? difference('exchange', sent, absent) : difference('exchange', absent, sent);
      if (inTail) stopped = { d, side: r ? 'reference' : 'target', first: describeAnswer(present), count: 1 };
      differences.push(d);
      continue;
    }
    if (r.status === undefined || t.status === undefined) {
      if (r.error !== t.error && !same('transport', { reference: r, target: t }))
        differences.push(difference('transport', describeAnswer(r), describeAnswer(t)));
      continue;
    }
    for (const def of fields) {
      if (def.applies && !def.applies(r, t)) continue;
      if (JSON.stringify(def.key(r)) === JSON.stringify(def.key(t))) continue;
      if (!same(def.field, { reference: r, target: t }))
        differences.push(difference(def.field, def.show(r), def.show(t)));
    }
  }
  return { differences, ignored };
}
