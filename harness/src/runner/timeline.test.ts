import { describe, expect, it } from 'vitest';
import { boundingScenarios, criticalPath, relativeTiming, type ScenarioTiming } from './timeline.js';

const item = (id: string, startMs: number, endMs: number, waits?: ScenarioTiming['waits']) => ({
  id,
  timing: { startMs, endMs, ...(waits ? { waits } : {}) },
});

describe('criticalPath', () => {
  it('one lane: every scenario, in order', () => {
    const items = [item('a', 10, 40), item('b', 40, 100), item('c', 100, 130)];
    expect(criticalPath(items).map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });

  it('two lanes: the chain that ended last, each started when the one before it ended', () => {
    // Lane 1: a 0–50, c 50–60. Lane 2: b 0–30, d 30–90, e 90–100 (started when d ended).
    const items = [item('a', 0, 50), item('b', 0, 30), item('c', 50, 60), item('d', 30, 90), item('e', 90, 100)];
    expect(criticalPath(items)).toEqual([
      { id: 'b', startMs: 0, endMs: 30 },
      { id: 'd', startMs: 30, endMs: 90 },
      { id: 'e', startMs: 90, endMs: 100 },
    ]);
  });

  it('a scenario parked until the run ends is on the path from its wake only; its clock waits are counted', () => {
    const items = [
      item('parked', 0, 205, [{ for: 'run-end', startMs: 5, endMs: 200 }]),
      item('token', 0, 150, [{ for: 'clock', startMs: 10, endMs: 140 }]),
      item('work', 0, 200),
    ];
    expect(criticalPath(items)).toEqual([
      { id: 'work', startMs: 0, endMs: 200 },
      { id: 'parked', startMs: 200, endMs: 205 },
    ]);
    const alone = [item('token', 0, 150, [{ for: 'clock', startMs: 10, endMs: 140 }])];
    expect(criticalPath(alone)).toEqual([{ id: 'token', startMs: 0, endMs: 150, waitedMs: 130 }]);
  });

  it('leaves out instant scenarios (skips) and an empty run', () => {
    expect(criticalPath([item('skip', 0, 0), item('a', 0, 20), item('skip2', 20, 20.5)]).map((c) => c.id)).toEqual([
      'a',
    ]);
    expect(criticalPath([])).toEqual([]);
  });
});

describe('boundingScenarios', () => {
  it('names the three longest parts of the path, longest first', () => {
    const path = [10, 50, 20, 40].map((len, k) => ({ id: `s${k}`, startMs: k * 100, endMs: k * 100 + len }));
    expect(boundingScenarios(path).map((c) => c.id)).toEqual(['s1', 's3', 's2']);
  });
});

describe('relativeTiming', () => {
  it('rounds to ms from the origin and drops waits that round to nothing', () => {
    expect(
      relativeTiming(
        {
          startMs: 1000.4,
          endMs: 1200.6,
          waits: [
            { for: 'slot', startMs: 1100.1, endMs: 1100.3 },
            { for: 'clock', startMs: 1010, endMs: 1090 },
          ],
        },
        1000,
      ),
    ).toEqual({ startMs: 0, endMs: 201, waits: [{ for: 'clock', startMs: 10, endMs: 90 }] });
  });
});
