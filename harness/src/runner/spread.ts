/**
 * Independent property runs side by side: a scenario whose runs share nothing (each makes its own articles) runs
 * them in its own lane and in lanes the run lends it ({@link ExecDeps.borrowLane}) when nothing waiting wants them,
 * so one long scenario does not hold the end of a run on one lane while the others stand idle.
 *
 * The verdict is the one fast-check gives running them one after another: the values are fast-check's own for the
 * seed (fc.sample draws what fc.check would), runs start in their order, and every run before the first that did
 * not pass has ended before the answer is given; that run's index is where fast-check replays and shrinks
 * (`path`), exactly as it would have shrunk it at that point of a sequential check. Pure scheduling: no HTTP, no
 * clock.
 */

export interface SpreadOptions<V> {
  /** The runs' values, in fast-check's order. */
  values: readonly V[];
  /**
   * Runs one value; true when it passed. `borrowed`: it goes in a lent lane (it must use connections of its own).
   * Must not throw (an outcome is a value).
   */
  run: (value: V, index: number, borrowed: boolean) => Promise<boolean>;
  /** Lends a lane: its release function, or undefined when none is free. Absent: one lane. */
  borrow?: () => (() => void) | undefined;
  /** True once no further run may start (a time limit); asked before each run but the first. */
  stop?: () => boolean;
}

export interface SpreadResult {
  /** Runs started (each one ended). */
  started: number;
  /** The lowest index of a run that did not pass; every run before it passed. Absent: all started runs passed. */
  firstNotPassed?: number;
  /** Most lanes used at once (the scenario's own included). */
  lanes: number;
}

/** Runs `values` over the scenario's lane and whatever lanes are lent, stopping new runs at the first that fails. */
export async function spreadRuns<V>(options: SpreadOptions<V>): Promise<SpreadResult> {
  const { values, run } = options;
  let next = 0;
  let started = 0;
  let firstNotPassed: number | undefined;
  let inUse = 1;
  let most = 1;
  const helpers: Promise<void>[] = [];
  const mayStart = () =>
    firstNotPassed === undefined && next < values.length && !(started > 0 && options.stop?.() === true);

  const settle = async (index: number, borrowed: boolean): Promise<void> => {
    const passed = await run(values[index]!, index, borrowed);
    if (!passed && (firstNotPassed === undefined || index < firstNotPassed)) firstNotPassed = index;
  };
  // A lent lane carries one run and is given back: whoever waits for a lane meanwhile (an item resuming after a
  // wait, an exclusive one) gets it first; nobody, and it is lent again for the next run.
  const grow = () => {
    while (options.borrow && mayStart()) {
      const release = options.borrow();
      if (release === undefined) return;
      inUse++;
      most = Math.max(most, inUse);
      const index = next++;
      started++;
      helpers.push(
        settle(index, true).finally(() => {
          inUse--;
          release();
          grow();
        }),
      );
    }
  };

  // The scenario's own lane runs one run after another; each start looks for lanes to lend, once it is under way
  // (so runs go out in their order).
  while (mayStart()) {
    const index = next++;
    started++;
    const running = settle(index, false);
    grow();
    await running;
  }
  // Lent runs still under way, and those they started as they ended.
  for (;;) {
    const count = helpers.length;
    await Promise.all(helpers);
    if (helpers.length === count) break;
  }
  return { started, ...(firstNotPassed !== undefined ? { firstNotPassed } : {}), lanes: most };
}
