/**
 * Where a run's time went: when each scenario ran and what it waited for, the run's phases, and the critical path —
 * the chain of scenarios that bounded the wall time, each started (or resumed) when the one before it ended. Pure.
 */
import type { ItemTiming, WaitKind } from './schedule.js';

/** A span of a run, ms from its start. */
export interface Span {
  startMs: number;
  endMs: number;
}

/** When a scenario ran, ms from the run's start, and what it waited for meanwhile (report.json `timing`). */
export interface ScenarioTiming extends Span {
  /** `clock`: a wait its steps declare (a token's lifetime); `run-end`: parked until every other scenario ended; `slot`: a lane to go on in. */
  waits?: Array<Span & { for: WaitKind }>;
}

/** One scenario's part of the critical path: from when it was let go on (its start, or its last wake) to its end. */
export interface CriticalSegment extends Span {
  id: string;
  /** Of that part, ms spent waiting for the clock (a `wait` step). */
  waitedMs?: number;
}

/** The run as a timeline (report.json `timeline`). */
export interface RunTimeline {
  /** The probe, the learning and the credential check, before any scenario. */
  setup: Span;
  /** The scenarios, first start to last end. */
  scenarios: Span;
  /** Deleting what the run created. Absent: nothing to delete, or `--keep`. */
  cleanup?: Span;
  /** Scenarios in flight at most. */
  concurrency: number;
  /** The chain that bounded the scenarios' span, earliest first. */
  criticalPath: CriticalSegment[];
}

/** A timing of {@link ItemTiming} (absolute clock times) as ms from `origin`, rounded; waits kept only when non-empty. */
export function relativeTiming(timing: ItemTiming, origin: number): ScenarioTiming {
  const ms = (t: number) => Math.round(t - origin);
  const waits = timing.waits
    .map((w) => ({ for: w.for, startMs: ms(w.startMs), endMs: ms(w.endMs) }))
    .filter((w) => w.endMs > w.startMs);
  return { startMs: ms(timing.startMs), endMs: ms(timing.endMs), ...(waits.length > 0 ? { waits } : {}) };
}

/**
 * The critical path through `items` (timings of the run's scenarios): from the one that ended last, back through
 * the scenario that ended last before each was let go on — its start, or the end of a wait another scenario ended
 * (`run-end`, `slot`) — until one was let go on with nothing ended before it. Segments shorter than 1 ms (a skip)
 * are left out.
 */
export function criticalPath(items: ReadonlyArray<{ id: string; timing: ScenarioTiming }>): CriticalSegment[] {
  const path: CriticalSegment[] = [];
  const used = new Set<number>();
  let k = latest(items, Number.POSITIVE_INFINITY, used);
  while (k !== undefined) {
    used.add(k);
    const { id, timing } = items[k]!;
    const released = (timing.waits ?? []).filter((w) => w.for !== 'clock').map((w) => w.endMs);
    const gate = Math.max(timing.startMs, ...released);
    const waitedMs = (timing.waits ?? [])
      .filter((w) => w.for === 'clock')
      .reduce((sum, w) => sum + Math.max(0, Math.min(w.endMs, timing.endMs) - Math.max(w.startMs, gate)), 0);
    if (timing.endMs - gate >= 1)
      path.unshift({ id, startMs: gate, endMs: timing.endMs, ...(waitedMs > 0 ? { waitedMs } : {}) });
    k = latest(items, gate, used);
  }
  return path;
}

/** The index of the item (not in `used`) that ended last at or before `by`. */
function latest(
  items: ReadonlyArray<{ timing: ScenarioTiming }>,
  by: number,
  used: ReadonlySet<number>,
): number | undefined {
  let best: number | undefined;
  items.forEach(({ timing }, k) => {
    if (used.has(k) || timing.endMs > by) return;
    if (best === undefined || timing.endMs > items[best]!.timing.endMs) best = k;
  });
  return best;
}

/** The scenarios of `path` that took longest, longest first: what bounded the wall time. */
export function boundingScenarios(path: readonly CriticalSegment[], count = 3): CriticalSegment[] {
  return [...path].sort((a, b) => b.endMs - b.startMs - (a.endMs - a.startMs)).slice(0, count);
}
