/**
 * Concurrent scenarios: a bounded number of lanes (each with its own keep-alive connection per origin), exclusive
 * items that run with nothing else in flight, and results handed back in the items' own order whatever order they
 * finish in; when each item ran and what it waited for. Pure scheduling: no HTTP; the clock is injected.
 */
import { Lanes } from './lanes.js';

/** What a running item waits for: the clock (a `wait` step), the end of the run, a slot to go on in. */
export type WaitKind = 'clock' | 'run-end' | 'slot';

/** One wait of a running item, in the times of {@link RunAllOptions.clock}. */
export interface ItemWait {
  for: WaitKind;
  startMs: number;
  endMs: number;
}

/** When an item ran (from taking its lane to giving it back) and what it waited for meanwhile. */
export interface ItemTiming {
  startMs: number;
  endMs: number;
  waits: ItemWait[];
}

export { Lanes } from './lanes.js';

export interface RunAllOptions<T, R> {
  /** Items running at once (1: one after another, in the items' order). */
  concurrency: number;
  /** Runs with nothing else in flight. */
  exclusive: (item: T) => boolean;
  /**
   * Start earlier (higher first) when running concurrently — items that mostly wait (a token's lifetime, a date
   * window) — so their waits overlap the rest. Ignored at concurrency 1.
   */
  priority?: (item: T) => number;
  /**
   * Roughly how long an item takes (any unit): among items of the same priority and exclusivity, the costliest start
   * first, so the last to end is not a long one started late. Ignored at concurrency 1.
   */
  cost?: (item: T) => number;
  /**
   * Start before every other item, at any concurrency (one after another at concurrency 1): items that wait for the
   * end of the run ({@link RunAllOptions.run}'s `atEnd`), so what happens between their start and their end is the
   * whole run whatever the concurrency.
   */
  first?: (item: T) => boolean;
  /**
   * Runs one item on `lane`; `idle` steps it aside while it only waits for a clock (see {@link Lanes.idle});
   * `atEnd` resolves once every other item has finished (or is itself waiting at the end): the item gives its lane
   * back meanwhile, so even one lane cannot deadlock. `borrow` lends the item another lane for part of its own work,
   * when one is free that nothing waiting wants (see {@link Lanes.trySpare}): its release function, or undefined.
   */
  run: (
    item: T,
    index: number,
    lane: number,
    idle: <V>(wait: () => Promise<V>) => Promise<V>,
    atEnd: () => Promise<void>,
    borrow: () => (() => void) | undefined,
  ) => Promise<R>;
  /** Called when an item starts, with the number running (itself included). */
  onStart?: (index: number, running: number) => void;
  /** Called as each item finishes, in the order they finish (progress). */
  onSettled?: (index: number, result: R, done: number) => void;
  /** Called for each result in the items' order, as soon as it and every earlier one are known. */
  onOrdered?: (index: number, result: R) => void;
  /** The clock of {@link ItemTiming}, ms, monotonic (default `performance.now`). */
  clock?: () => number;
  /** Gives an item's result its timing, as it finishes (before `onSettled`); default: the result as it is. */
  stamp?: (result: R, timing: ItemTiming) => R;
  /**
   * Spare work for lanes no item wants (deleting what ended items made): the next job, or undefined when there is
   * none now (asked again as each item ends). Jobs run only in a lane no waiting item wants, never beside an exclusive
   * item; `runAll` returns once every item has ended and no job is left.
   */
  spare?: () => (() => Promise<void>) | undefined;
}

/**
 * The order items start in: at concurrency 1 the items' own order; otherwise by priority (the items that mostly
 * wait first: they step aside while waiting, so even exclusive items overlap their waits), then exclusive items
 * (each alone), then the rest costliest first, then by position.
 */
export function startOrder<T>(
  items: readonly T[],
  options: Pick<RunAllOptions<T, unknown>, 'concurrency' | 'exclusive' | 'priority' | 'first' | 'cost'>,
): number[] {
  const order = items.map((_, k) => k);
  const first = (k: number) => (options.first?.(items[k]!) ? 0 : 1);
  if (options.concurrency <= 1) return order.sort((a, b) => first(a) - first(b) || a - b);
  const rank = items.map((item) => ({
    exclusive: options.exclusive(item) ? 0 : 1,
    priority: -(options.priority?.(item) ?? 0),
    cost: -(options.cost?.(item) ?? 0),
  }));
  return order.sort(
    (a, b) =>
      first(a) - first(b) ||
      rank[a]!.priority - rank[b]!.priority ||
      rank[a]!.exclusive - rank[b]!.exclusive ||
      rank[a]!.cost - rank[b]!.cost ||
      a - b,
  );
}

/**
 * Runs every item on at most `concurrency` lanes and returns the results in the items' order. A rejected `run`
 * does not stop the others; the first rejection is rethrown once every started item has settled.
 */
export async function runAll<T, R>(items: readonly T[], options: RunAllOptions<T, R>): Promise<R[]> {
  const clock = options.clock ?? (() => performance.now());
  // As many lanes as the concurrency, even for fewer items: spare work (deleting what ended items made) uses the rest.
  const lanes = new Lanes(Math.max(1, options.concurrency));
  const results: R[] = new Array<R>(items.length);
  const known: boolean[] = new Array<boolean>(items.length).fill(false);
  let next = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;
  const running: Promise<void>[] = [];
  // Items waiting at the end: released together once every other item has finished.
  const parked: Array<() => void> = [];
  const wakeParked = () => {
    // After a rejection no further item starts: whoever waits at the end goes on at once.
    if (parked.length > 0 && (failure !== undefined || done + parked.length === items.length))
      for (const wake of parked.splice(0)) wake();
  };
  // Spare workers: each takes a job when there is one, else waits for the next item to end.
  let ended: () => void = () => {};
  let anEnd = new Promise<void>((resolve) => (ended = resolve));
  const wakeSpares = () => {
    const wake = ended;
    anEnd = new Promise<void>((resolve) => (ended = resolve));
    wake();
  };
  const spareWorker = async (): Promise<void> => {
    for (;;) {
      const job = failure === undefined ? options.spare!() : undefined;
      if (job === undefined) {
        if (failure !== undefined || done === items.length) return;
        await anEnd;
        continue;
      }
      const lane = await lanes.acquireSpare();
      try {
        await job();
      } finally {
        lanes.release(lane);
      }
    }
  };
  const spares = options.spare ? Array.from({ length: lanes.size }, spareWorker) : [];
  for (const index of startOrder(items, options)) {
    const item = items[index]!;
    const exclusive = options.exclusive(item);
    let lane = await lanes.acquire(exclusive);
    if (failure) {
      lanes.release(lane);
      break;
    }
    options.onStart?.(index, lanes.running);
    const timing: ItemTiming = { startMs: clock(), endMs: 0, waits: [] };
    const waiting = (kind: WaitKind) => {
      const wait: ItemWait = { for: kind, startMs: clock(), endMs: 0 };
      timing.waits.push(wait);
      return () => void (wait.endMs = clock());
    };
    const atEnd = async (): Promise<void> => {
      lanes.release(lane);
      const woken = waiting('run-end');
      await new Promise<void>((wake) => {
        parked.push(wake);
        wakeParked();
      });
      woken();
      const admitted = waiting('slot');
      lane = await lanes.acquire(exclusive);
      admitted();
    };
    const idle = async <V>(wait: () => Promise<V>): Promise<V> => {
      let done = waiting('clock');
      try {
        if (exclusive) return await wait();
        return await lanes.idle(wait, () => {
          done();
          done = waiting('slot');
        });
      } finally {
        done();
      }
    };
    // Never beside an exclusive item (it holds every lane), and never for an exclusive item: it runs alone.
    const borrow = (): (() => void) | undefined => {
      if (exclusive || failure) return undefined;
      const extra = lanes.trySpare();
      if (extra === undefined) return undefined;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        lanes.release(extra);
      };
    };
    running.push(
      options.run(item, index, lane, idle, atEnd, borrow).then(
        (raw) => {
          timing.endMs = clock();
          // A wait over at once (a slot free when asked) is no wait.
          timing.waits = timing.waits.filter((w) => w.endMs > w.startMs);
          const result = options.stamp ? options.stamp(raw, timing) : raw;
          results[index] = result;
          known[index] = true;
          lanes.release(lane);
          done++;
          options.onSettled?.(index, result, done);
          wakeParked();
          wakeSpares();
          while (next < items.length && known[next]) {
            options.onOrdered?.(next, results[next]!);
            next++;
          }
        },
        (error: unknown) => {
          failure ??= { error };
          lanes.release(lane);
          done++;
          wakeParked();
          wakeSpares();
        },
      ),
    );
  }
  await Promise.all(running);
  await Promise.all(spares);
  if (failure) throw failure.error;
  return results;
}
