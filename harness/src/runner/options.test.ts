import { describe, expect, it } from 'vitest';
import { ConformError } from '../errors.js';
import { RUN_OPTION_SPEC, flagNaming, intFromText, resolveRunOptions } from './options.js';

describe('resolveRunOptions: defaults and ranges in one place', () => {
  it('fills every default; a missing seed is drawn in range', () => {
    const r = resolveRunOptions({});
    expect(r).toMatchObject({ runs: 50, timeoutMs: 10_000, maxResponseBytes: 1024 * 1024 });
    expect(Number.isInteger(r.seed) && r.seed >= 0 && r.seed <= 2 ** 31 - 1).toBe(true);
  });

  it("the caller's defaults come before the table's, the options before both", () => {
    expect(resolveRunOptions({}, { runs: 20 }).runs).toBe(20);
    expect(resolveRunOptions({ runs: 7 }, { runs: 20 }).runs).toBe(7);
  });

  it.each(Object.entries(RUN_OPTION_SPEC))('%s: the bounds are accepted, one past them refused', (key, spec) => {
    const k = key as keyof typeof RUN_OPTION_SPEC;
    expect(resolveRunOptions({ [k]: spec.min })[k]).toBe(spec.min);
    expect(resolveRunOptions({ [k]: spec.max })[k]).toBe(spec.max);
    expect(() => resolveRunOptions({ [k]: spec.min - 1 })).toThrow(ConformError);
    expect(() => resolveRunOptions({ [k]: spec.max + 1 }, {}, flagNaming)).toThrow(
      `--${spec.flag} must be a whole number between ${spec.min} and ${spec.max}`,
    );
    expect(() => resolveRunOptions({ [k]: spec.min + 0.5 })).toThrow(/whole number/);
  });

  it('intFromText reads integers and refuses anything else', () => {
    expect(intFromText(undefined, '--runs')).toBeUndefined();
    expect(intFromText(' 12 ', '--runs')).toBe(12);
    expect(intFromText('-3', '--runs')).toBe(-3);
    expect(() => intFromText('many', '--runs')).toThrow(/--runs expects an integer, got "many"/);
    expect(() => intFromText('1e3', '--runs')).toThrow(ConformError);
  });
});
