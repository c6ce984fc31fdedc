/**
 * The run options every entry point shares — `conform run`, `conform diff` and `conform/vitest` — with their
 * defaults and ranges in one place. Entry points parse their own input (argv strings, environment variables, an
 * options object) into {@link RunOptions}; {@link resolveRunOptions} checks and completes it once. Help texts read
 * the defaults from {@link RUN_OPTION_SPEC}.
 */
import { randomInt } from 'node:crypto';
import { ConformError } from '../errors.js';

/** Options of a run; every field optional. */
export interface RunOptions {
  /** Seed of every generator. Default: random (conform run, diff) or fixed (vitest) — the caller's choice. */
  seed?: number;
  /** Property runs per property-based scenario. */
  runs?: number;
  /** Per-request timeout, ms. */
  timeoutMs?: number;
  /** Largest response body read, bytes. */
  maxResponseBytes?: number;
  /** Scenarios in flight at once (1: one after another, in catalogue order). */
  concurrency?: number;
}

/** {@link RunOptions} with every default filled in. */
export type ResolvedRunOptions = Required<RunOptions>;

interface IntSpec {
  /** The name users know it by on the command line. */
  readonly flag: string;
  readonly min: number;
  readonly max: number;
  readonly default?: number;
}

/** Ranges and defaults of {@link RunOptions}. */
export const RUN_OPTION_SPEC = {
  seed: { flag: 'seed', min: 0, max: 2 ** 31 - 1 },
  runs: { flag: 'runs', min: 1, max: 100_000, default: 50 },
  timeoutMs: { flag: 'timeout', min: 1, max: 3_600_000, default: 10_000 },
  maxResponseBytes: { flag: 'max-response-bytes', min: 1024, max: 1024 ** 3, default: 1024 * 1024 },
  concurrency: { flag: 'concurrency', min: 1, max: 64, default: 16 },
} as const satisfies Record<keyof RunOptions, IntSpec>;

/** How to name an option in an error message: `--runs` on the command line, `runs` in an options object. */
export type OptionNaming = (key: keyof RunOptions) => string;

export const flagNaming: OptionNaming = (key) => `--${RUN_OPTION_SPEC[key].flag}`;
export const propertyNaming: OptionNaming = (key) => key;

/**
 * Checks `options` and fills in the defaults (`defaults` first, then {@link RUN_OPTION_SPEC}; a missing seed is
 * random).
 * @throws {ConformError} CONFORM_USAGE for a value that is not a whole number in its range.
 */
export function resolveRunOptions(
  options: RunOptions,
  defaults: RunOptions = {},
  naming: OptionNaming = propertyNaming,
): ResolvedRunOptions {
  const pick = (key: keyof RunOptions): number | undefined => {
    const value = options[key] ?? defaults[key];
    if (value === undefined) return undefined;
    const spec: IntSpec = RUN_OPTION_SPEC[key];
    if (!Number.isInteger(value) || value < spec.min || value > spec.max) {
      throw new ConformError(
        'CONFORM_USAGE',
        `${naming(key)} must be a whole number between ${spec.min} and ${spec.max}, got ${value}`,
      );
    }
    return value;
  };
  const spec = RUN_OPTION_SPEC;
  return {
    seed: pick('seed') ?? randomInt(spec.seed.min, spec.seed.max),
    runs: pick('runs') ?? spec.runs.default,
    timeoutMs: pick('timeoutMs') ?? spec.timeoutMs.default,
    maxResponseBytes: pick('maxResponseBytes') ?? spec.maxResponseBytes.default,
    concurrency: pick('concurrency') ?? spec.concurrency.default,
  };
}

/**
 * A whole number from text (a command-line value, an environment variable), unchecked for range:
 * {@link resolveRunOptions} does that.
 * @throws {ConformError} CONFORM_USAGE when the text is not an integer.
 */
export function intFromText(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (!/^-?\d+$/.test(t)) throw new ConformError('CONFORM_USAGE', `${name} expects an integer, got "${text}"`);
  return Number(t);
}
