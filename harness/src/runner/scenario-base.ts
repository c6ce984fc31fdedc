/** What every kind of scenario run shares: its options, its seed, and the fields of its result. */
import type { Scenario } from '../spec/types.js';
import type { ScenarioResult } from './types.js';

export interface ScenarioRunOptions {
  /** Property runs when the scenario does not fix its own. */
  runs: number;
  /** The run's seed; the scenario's seed is derived from it and the scenario id. */
  seed: number;
  /** fast-check path to replay one counterexample directly. */
  replayPath?: string;
  /** Extra executions allowed for shrinking, beyond `runs`. Default 200. */
  maxShrinkRuns?: number;
  /** Time budget for one scenario, ms; shrinking stops at the best counterexample so far. Default 120 000. */
  timeBudgetMs?: number;
}

/** FNV-1a over the id, mixed with the run seed: filtering scenarios never changes another's seed. */
export function scenarioSeed(runSeed: number, id: string): number {
  let h = 0x811c9dc5 ^ (runSeed >>> 0);
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7fffffff;
}

type Base = Pick<ScenarioResult, 'id' | 'title' | 'file' | 'line' | 'rules' | 'level' | 'tags'>;

export function baseOf(s: Scenario): Base {
  return { id: s.id, title: s.title, file: s.file, line: s.line, rules: s.rules, level: s.level, tags: s.tags };
}


/** fast-check's parameters for a scenario's property: its seed and runs, a replayed path, the time budget. */
export function checkParameters(seed: number, numRuns: number, path: string | undefined, options: Pick<ScenarioRunOptions, 'timeBudgetMs'>) {
  return {
    seed,
    numRuns,
    ...(path ? { path } : {}),
    interruptAfterTimeLimit: options.timeBudgetMs ?? 120_000,
    markInterruptAsFailure: false,
  };
}
