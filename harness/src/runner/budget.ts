/**
 * A scenario's time limit (`--scenario-timeout`) counts its own work only: from when it starts, less every wait it
 * does not control — a wait its steps declare (a token's lifetime), parking until the run's end, a slot. So a long
 * run, a slow neighbour or `--concurrency 1` never spends a scenario's time for it.
 */

/** The default limit of one scenario's own work, ms. */
export const DEFAULT_SCENARIO_TIMEOUT_MS = 120_000;

/** Time spent on a scenario's own work, against its limit. */
export interface Budget {
  readonly limitMs: number;
  /** Time spent on the scenario's own work so far, ms: since it started, less the time inside {@link pause}. */
  spentMs(): number;
  /** Whether the work done has reached the limit. */
  exceeded(): boolean;
  /** Runs `wait` with the budget's clock stopped (nested pauses count once). */
  pause<T>(wait: () => Promise<T>): Promise<T>;
}

/**
 * A budget of `limitMs` of work, started now.
 * @param clock - milliseconds, monotonic (default `performance.now`); tests pass their own.
 */
export function createBudget(limitMs: number, clock: () => number = () => performance.now()): Budget {
  const started = clock();
  let paused = 0;
  let depth = 0;
  let pausedAt = 0;
  const spentMs = () => (depth > 0 ? pausedAt : clock()) - started - paused;
  return {
    limitMs,
    spentMs,
    exceeded: () => spentMs() >= limitMs,
    async pause(wait) {
      if (depth++ === 0) pausedAt = clock();
      try {
        return await wait();
      } finally {
        if (--depth === 0) paused += clock() - pausedAt;
      }
    },
  };
}
