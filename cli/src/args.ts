import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConformError } from '../../harness/src/errors.js';
import { closest } from '../../harness/src/suite/closest.js';

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

export { closest } from '../../harness/src/suite/closest.js';

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
