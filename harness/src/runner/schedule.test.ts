import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Lanes, runAll, startOrder, type ItemTiming } from './schedule.js';

/** A promise settled from outside, to drive the scheduler step by step. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('Lanes', () => {
  it('admits up to its size, then queues; a released lane is reused', async () => {
    const lanes = new Lanes(2);
    const a = await lanes.acquire(false);
    const b = await lanes.acquire(false);
    expect([a, b]).toEqual([0, 1]);
    let third: number | undefined;
    void lanes.acquire(false).then((l) => (third = l));
    await tick();
    expect(third).toBeUndefined();
    lanes.release(b);
    await tick();
    expect(third).toBe(1);
    expect(lanes.running).toBe(2);
  });

  it('runs an exclusive item with nothing else in flight and holds back the items queued after it', async () => {
    const lanes = new Lanes(4);
    const shared = await lanes.acquire(false);
    const order: string[] = [];
    const exclusive = lanes.acquire(true).then((l) => {
      order.push('exclusive');
      return l;
    });
    const after = lanes.acquire(false).then((l) => {
      order.push('after');
      return l;
    });
    await tick();
    expect(order).toEqual([]);
    lanes.release(shared);
    const held = await exclusive;
    await tick();
    expect(order).toEqual(['exclusive']);
    expect(lanes.running).toBe(1);
    lanes.release(held);
    await after;
    expect(order).toEqual(['exclusive', 'after']);
  });

  it('lets an exclusive item run while another only waits, and resumes the waiter after it', async () => {
    const lanes = new Lanes(2);
    const waiterLane = await lanes.acquire(false);
    const clock = deferred<void>();
    const order: string[] = [];
    const waiter = lanes
      .idle(async () => {
        await clock.promise;
        order.push('clock');
      })
      .then(() => order.push('resumed'));
    const exclusiveLane = await lanes.acquire(true);
    expect(exclusiveLane).not.toBe(waiterLane);
    order.push('exclusive');
    clock.resolve();
    await tick();
    expect(order).toEqual(['exclusive', 'clock']);
    lanes.release(exclusiveLane);
    await waiter;
    expect(order).toEqual(['exclusive', 'clock', 'resumed']);
    expect(lanes.running).toBe(1);
    lanes.release(waiterLane);
    expect(lanes.running).toBe(0);
  });

  it('lends a spare lane only when nothing waits for one, and never beside an exclusive item', async () => {
    const lanes = new Lanes(3);
    const a = await lanes.acquire(false);
    const lent = lanes.trySpare();
    expect(lent).toBeDefined();
    expect(lanes.running).toBe(2);
    // An item queued for a lane outranks lending: the last free lane goes to it, and nothing is lent meanwhile.
    const b = await lanes.acquire(false);
    expect(lanes.trySpare()).toBeUndefined();
    let queued: number | undefined;
    void lanes.acquire(false).then((l) => (queued = l));
    lanes.release(lent!);
    await tick();
    expect(queued).toBe(lent);
    lanes.release(queued!);
    lanes.release(b);
    // An exclusive item waiting for the others to end: nothing is lent either.
    void lanes.acquire(true);
    expect(lanes.trySpare()).toBeUndefined();
    lanes.release(a);
    await tick();
    expect(lanes.trySpare()).toBeUndefined();
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new Lanes(0)).toThrow(RangeError);
    expect(() => new Lanes(1.5)).toThrow(RangeError);
  });
});

describe('startOrder', () => {
  const items = [
    { id: 'a', exclusive: false, slow: 0 },
    { id: 'b', exclusive: true, slow: 0 },
    { id: 'c', exclusive: false, slow: 5 },
    { id: 'd', exclusive: false, slow: 0 },
  ];
  const options = {
    exclusive: (i: (typeof items)[number]) => i.exclusive,
    priority: (i: (typeof items)[number]) => i.slow,
  };

  it('starts the items that wait for the run end first, at any concurrency', () => {
    const items = [{ slow: 0 }, { slow: 0, end: true }, { slow: 5 }, { slow: 0, end: true }];
    const first = (i: { end?: boolean }) => i.end === true;
    expect(startOrder(items, { concurrency: 1, exclusive: () => false, priority: (i) => i.slow, first })).toEqual([
      1, 3, 0, 2,
    ]);
    expect(startOrder(items, { concurrency: 4, exclusive: () => false, priority: (i) => i.slow, first })).toEqual([
      1, 3, 2, 0,
    ]);
  });

  it('keeps the items order at concurrency 1', () => {
    expect(startOrder(items, { ...options, concurrency: 1 })).toEqual([0, 1, 2, 3]);
  });

  it('starts the slow ones first, then the exclusive items, then by position', () => {
    expect(startOrder(items, { ...options, concurrency: 8 })).toEqual([2, 1, 0, 3]);
  });

  it('among the rest, the costliest first (at concurrency 1: the items order still)', () => {
    const costs = [{ c: 1 }, { c: 50 }, { c: 5 }, { c: 50 }];
    const order = { exclusive: () => false, cost: (i: { c: number }) => i.c };
    expect(startOrder(costs, { ...order, concurrency: 8 })).toEqual([1, 3, 2, 0]);
    expect(startOrder(costs, { ...order, concurrency: 1 })).toEqual([0, 1, 2, 3]);
  });
});

describe('runAll', () => {
  it('never exceeds the concurrency, never overlaps an exclusive item, and hands results back in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ exclusive: fc.boolean(), delay: fc.nat(3), slow: fc.nat(2), waits: fc.nat(3) }), {
          maxLength: 20,
        }),
        fc.integer({ min: 1, max: 6 }),
        async (items, concurrency) => {
          let running = 0;
          let exclusiveRunning = false;
          const ordered: number[] = [];
          const usedLanes = new Set<number>();
          const results = await runAll(items, {
            concurrency,
            exclusive: (i) => i.exclusive,
            priority: (i) => i.slow,
            run: async (item, index, lane, idle) => {
              expect(exclusiveRunning).toBe(false);
              running++;
              if (item.waits > 0 && !item.exclusive) {
                // Waiting for a clock: not active meanwhile, and back only when no exclusive item runs.
                running--;
                await idle(async () => {
                  for (let k = 0; k < item.waits; k++) await tick();
                });
                expect(exclusiveRunning).toBe(false);
                running++;
              }
              usedLanes.add(lane);
              if (item.exclusive) {
                expect(running).toBe(1);
                exclusiveRunning = true;
              }
              expect(running).toBeLessThanOrEqual(concurrency);
              for (let k = 0; k < item.delay; k++) await tick();
              if (item.exclusive) exclusiveRunning = false;
              running--;
              return index * 10;
            },
            onOrdered: (index) => ordered.push(index),
          });
          expect(results).toEqual(items.map((_, k) => k * 10));
          expect(ordered).toEqual(items.map((_, k) => k));
          for (const lane of usedLanes) expect(lane).toBeLessThan(concurrency);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('runs one after another in the items order at concurrency 1', async () => {
    const started: number[] = [];
    await runAll([{ slow: 0 }, { slow: 9 }, { slow: 0 }], {
      concurrency: 1,
      exclusive: () => false,
      priority: (i) => i.slow,
      run: async (_item, index) => {
        started.push(index);
        await tick();
      },
    });
    expect(started).toEqual([0, 1, 2]);
  });

  it('lets the started items finish, starts no more, and rethrows the first rejection', async () => {
    const gate = deferred<void>();
    const finished: number[] = [];
    const run = runAll([0, 1, 2], {
      concurrency: 2,
      exclusive: () => false,
      run: async (item) => {
        await gate.promise;
        if (item === 0) throw new Error('boom');
        finished.push(item);
      },
    });
    const outcome = expect(run).rejects.toThrow('boom');
    await tick();
    gate.resolve();
    await outcome;
    expect(finished).toEqual([1]);
  });

  it.each([1, 2, 4])(
    'an item waiting for the end goes on once every other has finished, its lane free meanwhile (concurrency %i)',
    async (concurrency) => {
      const log: string[] = [];
      await runAll([0, 1, 2, 3, 4], {
        concurrency,
        exclusive: (i) => i === 3,
        run: async (item, _index, _lane, _idle, atEnd) => {
          log.push(`start ${item}`);
          if (item === 0 || item === 2) {
            await atEnd();
            log.push(`end ${item}`);
            return;
          }
          await tick();
          log.push(`done ${item}`);
        },
      });
      const lastDone = Math.max(...[1, 3, 4].map((k) => log.indexOf(`done ${k}`)));
      expect(log.indexOf('end 0')).toBeGreaterThan(lastDone);
      expect(log.indexOf('end 2')).toBeGreaterThan(lastDone);
      expect(log.filter((l) => l.startsWith('start')).length).toBe(5);
    },
  );

  it('after a rejection, an item waiting for the end goes on at once', async () => {
    const run = runAll([0, 1], {
      concurrency: 2,
      exclusive: () => false,
      run: async (item, _index, _lane, _idle, atEnd) => {
        if (item === 1) throw new Error('boom');
        await atEnd();
      },
    });
    await expect(run).rejects.toThrow('boom');
  });

  it('records when each item ran and what it waited for: the clock, the run end, a slot', async () => {
    let t = 0;
    const timings: Array<{ index: number; timing: ItemTiming }> = [];
    const gate = deferred<void>();
    await runAll<string, number>(['parked', 'waiter', 'exclusive', 'worker'], {
      concurrency: 2,
      exclusive: (i) => i === 'exclusive',
      priority: (i) => (i === 'waiter' ? 1 : 0),
      first: (i) => i === 'parked',
      clock: () => t,
      stamp: (result, timing) => (timings.push({ index: result, timing: structuredClone(timing) }), result),
      run: async (item, index, _lane, idle, atEnd) => {
        t += 1;
        if (item === 'parked') await atEnd();
        if (item === 'waiter')
          await idle(async () => {
            t += 100;
            await gate.promise;
          });
        if (item === 'exclusive') {
          t += 50;
          gate.resolve();
          await tick();
          t += 50;
        }
        t += 1;
        return index;
      },
    });
    const byIndex = new Map(timings.map((x) => [x.index, x.timing]));
    expect(byIndex.get(0)?.waits.map((w) => w.for)).toEqual(['run-end']);
    // The waiter's clock wait ended while the exclusive item ran: it then waited for a slot until that one ended.
    expect(byIndex.get(1)?.waits.map((w) => w.for)).toEqual(['clock', 'slot']);
    const [clock, slot] = byIndex.get(1)!.waits;
    expect(slot!.startMs).toBe(clock!.endMs);
    expect(slot!.endMs).toBeGreaterThanOrEqual(byIndex.get(2)!.endMs);
    for (const { timing } of timings) {
      expect(timing.endMs).toBeGreaterThanOrEqual(timing.startMs);
      for (const w of timing.waits) expect(w.endMs).toBeGreaterThan(w.startMs);
    }
    // The parked item went on after every other had ended.
    expect(byIndex.get(0)!.waits[0]!.endMs).toBe(Math.max(...[1, 2, 3].map((k) => byIndex.get(k)!.endMs)));
  });

  it('lends an item lanes only when no item waits, never to or beside an exclusive item, within the concurrency', async () => {
    let inFlight = 0;
    let most = 0;
    const lentTo: string[] = [];
    const work = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await tick();
      inFlight--;
    };
    await runAll(['long', 'x', 'a', 'b'], {
      concurrency: 3,
      exclusive: (i) => i === 'x',
      cost: (i) => (i === 'long' ? 10 : 1),
      run: async (item, _index, _lane, _idle, _atEnd, borrow) => {
        const mine = [work()];
        for (let k = 0; k < 5; k++) {
          const release = borrow();
          if (!release) break;
          lentTo.push(item);
          mine.push(work().finally(release));
        }
        await Promise.all(mine);
        for (let k = 0; k < 3; k++) await tick();
        return item;
      },
    });
    expect(lentTo).not.toContain('x');
    // Lending never takes the run past its concurrency, and the lanes left idle once nothing is queued are lent.
    expect(most).toBeLessThanOrEqual(3);
    expect(lentTo.length).toBeGreaterThan(0);
  });

  it('runs spare jobs only in lanes no item wants, never beside an exclusive item, and returns once none is left', async () => {
    const log: string[] = [];
    let active = 0;
    let exclusiveRunning = false;
    const jobs: string[] = [];
    await runAll(['a', 'b', 'x', 'c', 'd'], {
      concurrency: 2,
      exclusive: (i) => i === 'x',
      spare: () => {
        const job = jobs.shift();
        if (job === undefined) return undefined;
        return async () => {
          expect(exclusiveRunning).toBe(false);
          active++;
          expect(active).toBeLessThanOrEqual(2);
          log.push(`delete ${job}`);
          await tick();
          active--;
        };
      },
      run: async (item) => {
        active++;
        expect(active).toBeLessThanOrEqual(2);
        if (item === 'x') exclusiveRunning = true;
        log.push(`start ${item}`);
        await tick();
        await tick();
        log.push(`end ${item}`);
        if (item === 'x') exclusiveRunning = false;
        active--;
        // What an item made may go once it has ended.
        jobs.push(`${item}1`, `${item}2`);
      },
    });
    // Every job ran, each after its item ended.
    for (const item of ['a', 'b', 'x', 'c', 'd'])
      for (const k of [1, 2]) expect(log.indexOf(`delete ${item}${k}`)).toBeGreaterThan(log.indexOf(`end ${item}`));
    expect(jobs).toEqual([]);
    expect(log.filter((l) => l.startsWith('end')).length).toBe(5);
  });
});
