import { describe, expect, it } from 'vitest';
import { createBudget } from './budget.js';

describe('createBudget', () => {
  it('counts the time since it started, less the time inside pause (nested pauses once)', async () => {
    let t = 1000;
    const budget = createBudget(100, () => t);
    t += 60;
    expect(budget.spentMs()).toBe(60);
    expect(budget.exceeded()).toBe(false);
    await budget.pause(async () => {
      t += 500;
      expect(budget.spentMs()).toBe(60);
      await budget.pause(async () => {
        t += 500;
      });
      t += 500;
    });
    expect(budget.spentMs()).toBe(60);
    t += 40;
    expect(budget.exceeded()).toBe(true);
  });

  it('stops its clock for a pause that rejects too', async () => {
    let t = 0;
    const budget = createBudget(10, () => t);
    await expect(
      budget.pause(async () => {
        t += 50;
        throw new Error('x');
      }),
    ).rejects.toThrow('x');
    expect(budget.spentMs()).toBe(0);
  });
});
