/**
 * Compares the transcripts of one run on both sides, exchange by exchange: same step, and within a step the k-th
 * request of a method on one side against the k-th of the same method on the other (so a step that loops over an
 * Allow list pairs GET with GET even when one list is longer). Answers of a concurrent repeat arrive in any order,
 * so they are paired after sorting by status. Pure.
 */
import type { RawExchange } from '../runner/execute.js';
import type { Scenario } from '../spec/types.js';
import { equivalenceFor } from './equivalences.js';
import { describeAnswer, FIELDS, optionalFieldDefs, type FieldDef } from './fields.js';
import { observe } from './observe.js';
import type { Difference, DiffField, DiffValue, Observation, SideContext } from './types.js';

export interface CompareContext {
  scenario: Pick<Scenario, 'steps'>;
  reference: SideContext;
  target: SideContext;
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
export function pairExchanges(reference: readonly RawExchange[], target: readonly RawExchange[], scenario: Pick<Scenario, 'steps'>): Slot[] {
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
      slots.push({ step, ...(x.stepName ? { stepName: x.stepName } : {}), exchange: k, reference: x, ...(match ? { target: match } : {}) });
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

/** Compares two transcripts of the same values; see {@link pairExchanges} for how exchanges are paired. */
export function compareTranscripts(reference: readonly RawExchange[], target: readonly RawExchange[], ctx: CompareContext): Comparison {
  const optionalNames = [...new Set([...ctx.reference.profile.articles.optionalFields, ...ctx.target.profile.articles.optionalFields])];
  const fields: readonly FieldDef[] = [...FIELDS, ...optionalFieldDefs(optionalNames)];
  const differences: Difference[] = [];
  const ignored: Record<string, number> = {};
  const sides = { referenceSide: ctx.reference, targetSide: ctx.target };

  for (const slot of pairExchanges(reference, target, ctx.scenario)) {
    const r = slot.reference ? observe(slot.reference, ctx.reference, optionalNames) : undefined;
    const t = slot.target ? observe(slot.target, ctx.target, optionalNames) : undefined;
    const present = (r ?? t)!;
    const report = (field: DiffField, refValue: DiffValue, targetValue: DiffValue, pair: { reference?: Observation; target?: Observation }) => {
      const rule = equivalenceFor({ field, ...pair, ...sides });
      if (rule) {
        ignored[rule.id] = (ignored[rule.id] ?? 0) + 1;
        return;
      }
      differences.push({
        step: slot.step,
        ...(slot.stepName ? { stepName: slot.stepName } : {}),
        exchange: slot.exchange,
        method: present.method,
        path: present.path,
        ...(r && t && t.path !== r.path ? { targetPath: t.path } : {}),
        field,
        reference: refValue,
        target: targetValue,
      });
    };
    if (!r || !t) {
      const sent = (o: Observation) => `sent, answered ${describeAnswer(o)}`;
      report('exchange', r ? sent(r) : 'not sent', t ? sent(t) : 'not sent', { ...(r ? { reference: r } : {}), ...(t ? { target: t } : {}) });
      continue;
    }
    if (r.status === undefined || t.status === undefined) {
      if (r.error !== t.error) report('transport', describeAnswer(r), describeAnswer(t), { reference: r, target: t });
      continue;
    }
    for (const def of fields) {
      if (def.applies && !def.applies(r, t)) continue;
      if (JSON.stringify(def.key(r)) === JSON.stringify(def.key(t))) continue;
      report(def.field, def.show(r), def.show(t), { reference: r, target: t });
    }
  }
  return { differences, ignored };
}
