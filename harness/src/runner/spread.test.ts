import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadRuns } from './spread.js';

/** A promise settled from outside, to drive the runs step by step. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

/** A lender of `n` lanes, counting what is lent and given back. */
function lender(n: number) {
  const state = { free: n, lent: 0, most: 0 };
  const borrow = () => {
    if (state.free === 0) return undefined;
    state.free--;
    state.lent++;
    state.most = Math.max(state.most, state.lent);
    let back = false;
    return () => {
      if (back) return;
      back = true;
      state.free++;
      state.lent--;
    };
  };
  return { state, borrow };
}

describe('spreadRuns', () => {
  it('without a lender runs every value in order on one lane', async () => {
    const seen: number[] = [];
    const r = await spreadRuns({
      values: [10, 11, 12, 13],
      run: async (v, index, borrowed) => {
        expect(borrowed).toBe(false);
        seen.push(index);
        return v !== -1;
      },
    });
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(r).toEqual({ started: 4, lanes: 1 });
  });

  it('runs side by side in lent lanes, starting runs in their order, and gives every lane back', async () => {
    const { state, borrow } = lender(3);
    const gates = Array.from({ length: 8 }, deferred);
    const startedOrder: number[] = [];
    const borrowedRuns: number[] = [];
    const done = spreadRuns({
      values: [0, 1, 2, 3, 4, 5, 6, 7],
      borrow,
      run: async (_v, index, borrowed) => {
        startedOrder.push(index);
        if (borrowed) borrowedRuns.push(index);
        await gates[index]!.promise;
        return true;
      },
    });
    await tick();
    expect(startedOrder).toEqual([0, 1, 2, 3]);
    expect(state.lent).toBe(3);
    for (const [k, g] of gates.entries()) {
      g.resolve();
      await tick();
      expect(startedOrder).toEqual([0, 1, 2, 3, 4, 5, 6, 7].slice(0, Math.min(8, k + 5)));
    }
    const r = await done;
    expect(r).toEqual({ started: 8, lanes: 4 });
    expect(borrowedRuns.length).toBeGreaterThan(0);
    expect(state.lent).toBe(0);
  });

  it('reports the lowest index that did not pass once every earlier run ended, and starts none after', async () => {
    const { borrow } = lender(2);
    const gates = Array.from({ length: 6 }, deferred);
    const ended: number[] = [];
    const done = spreadRuns({
      values: [0, 1, 2, 3, 4, 5],
      borrow,
      run: async (_v, index) => {
        await gates[index]!.promise;
        ended.push(index);
        return index !== 1 && index !== 2;
      },
    });
    await tick();
    // Runs 0, 1 and 2 are out; 2 fails first, then 1, then 0 passes: the answer is 1, and run 3 never starts.
    gates[2]!.resolve();
    await tick();
    gates[1]!.resolve();
    await tick();
    gates[0]!.resolve();
    const r = await done;
    expect(r.firstNotPassed).toBe(1);
    expect(r.started).toBe(3);
    expect(ended.sort()).toEqual([0, 1, 2]);
  });

  it('gives a lent lane back after each run, so an item waiting for a lane gets it before the next run', async () => {
    const { state, borrow } = lender(1);
    let someoneWaits = false;
    const lentRuns: number[] = [];
    const r = await spreadRuns({
      values: [0, 1, 2, 3, 4, 5],
      borrow: () => (someoneWaits ? undefined : borrow()),
      run: async (_v, index, borrowed) => {
        if (borrowed) {
          lentRuns.push(index);
          // While this lent run is under way an item starts waiting for a lane: the lane is not lent again.
          someoneWaits = true;
        }
        await tick();
        return true;
      },
    });
    expect(r.started).toBe(6);
    expect(lentRuns).toEqual([1]);
    expect(state.lent).toBe(0);
  });

  it('starts no run but the first once told to stop', async () => {
    let calls = 0;
    const r = await spreadRuns({
      values: [1, 2, 3],
      borrow: lender(4).borrow,
      stop: () => true,
      run: async () => {
        calls++;
        return true;
      },
    });
    expect(calls).toBe(1);
    expect(r.started).toBe(1);
  });

  it('finds the failure a sequential check finds, whatever the lanes and timing (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 20, maxLength: 20 }),
        async (passes, lanes, delays) => {
          const r = await spreadRuns({
            values: passes,
            borrow: lender(lanes).borrow,
            run: async (pass, index) => {
              for (let k = 0; k < delays[index]!; k++) await tick();
              return pass;
            },
          });
          const sequential = passes.indexOf(false);
          if (sequential === -1) {
            expect(r.firstNotPassed).toBeUndefined();
            expect(r.started).toBe(passes.length);
          } else {
            expect(r.firstNotPassed).toBe(sequential);
            expect(r.started).toBeGreaterThan(sequential);
          }
          expect(r.lanes).toBeLessThanOrEqual(lanes + 1);
        },
      ),
      { numRuns: 200, seed: 38 },
    );
  });

  it('draws the values fast-check checks: fc.sample gives what fc.check runs, in order', async () => {
    const arb = fc.record({ n: fc.integer(), s: fc.string({ maxLength: 6 }) });
    const checked: string[] = [];
    await fc.check(
      fc.asyncProperty(arb, async (v) => {
        checked.push(JSON.stringify(v));
        return true;
      }),
      { seed: 7, numRuns: 40 },
    );
    expect(fc.sample(arb, { seed: 7, numRuns: 40 }).map((v) => JSON.stringify(v))).toEqual(checked);
  });
});
