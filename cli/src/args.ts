import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConformError } from '../../harness/src/errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Strict argv parsing: an unknown option or a missing value is a usage error (exit 2). */
export function parse<O extends Options>(
  argv: string[],
  options: O,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: boolean }>> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional.*$/s, '');
    const unknown = /^Unknown option '--([^']+)'/.exec(message)?.[1];
    const near = unknown === undefined ? undefined : closest(unknown, Object.keys(options));
    throw new ConformError('CONFORM_USAGE', near === undefined ? message : `${message} (did you mean --${near}?)`);
  }
}

/** The candidate nearest to `word` by edit distance, when it is near enough to be a typo (at most a third of it). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const d = editDistance(word, name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(1, Math.floor(word.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance, with a transposition of neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

export function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new ConformError('CONFORM_USAGE', `--${name} expects an integer, got "${value}"`);
  const n = Number(value);
  if (n < min || n > max)
    throw new ConformError('CONFORM_USAGE', `--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Repeatable options also accept comma-separated lists. */
export function listOption(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Fault names for the reference server, as a usage error when one is unknown. */
export function faultList(values: string[] | undefined, parseFaultNames: (l: string[]) => unknown[]): string[] {
  const list = listOption(values);
  try {
    parseFaultNames(list);
  } catch (err) {
    throw new ConformError('CONFORM_USAGE', (err as Error).message);
  }
  return list;
}
