/**
 * Expected-failures baselines: a team adopting the harness lists the scenarios it knows fail; those do not fail the
 * run, and a listed scenario that now passes is reported so the baseline can shrink.
 */
import { z } from 'zod';
import { InvalidFileError } from '../errors.js';
import { readSourceSync } from '../suite/load.js';
import { issueAt, validateSource } from '../suite/validate.js';
import type { RunResult } from './types.js';
import { reasonsOf } from './verdict.js';

const Entry = z.union([z.string().min(1), z.strictObject({ id: z.string().min(1), reason: z.string().optional() })]);
export const BaselineSchema = z.union([
  z.array(Entry),
  z.strictObject({ version: z.literal(1).optional(), expectedFailures: z.array(Entry) }),
]);

export interface Baseline {
  file: string;
  ids: string[];
}

/** Reads a baseline: a YAML (or JSON) list of scenario ids, or `{ expectedFailures: [id | {id, reason}] }`. */
export async function loadBaseline(file: string, knownIds: ReadonlySet<string>): Promise<Baseline> {
  const source = readSourceSync(file);
  const r = validateSource(source, BaselineSchema);
  if (!r.ok) throw new InvalidFileError(r.issues);
  const list = Array.isArray(r.value) ? r.value : r.value.expectedFailures;
  const ids = list.map((e) => (typeof e === 'string' ? e : e.id));
  const base = Array.isArray(r.value) ? [] : ['expectedFailures'];
  const issues = ids.flatMap((id, i) =>
    knownIds.has(id) ? [] : [issueAt(source, [...base, i], `no scenario has the id "${id}"`)],
  );
  if (issues.length > 0) throw new InvalidFileError(issues);
  return { file: source.file, ids };
}

/** Marks listed failures as baselined and records which listed scenarios now pass. Pure. */
export function applyBaseline(run: RunResult, baseline: Baseline): RunResult {
  const listed = new Set(baseline.ids);
  const scenarios = run.scenarios.map((s) =>
    listed.has(s.id) && (s.status === 'failed' || s.status === 'errored') ? { ...s, baselined: true } : s,
  );
  const ran = scenarios.filter((s) => listed.has(s.id));
  return {
    ...run,
    scenarios,
    baseline: {
      file: baseline.file,
      expectedFailures: baseline.ids,
      nowPassing: ran.filter((s) => s.status === 'passed').map((s) => s.id),
      stillFailing: ran.filter((s) => s.baselined).map((s) => s.id),
    },
  };
}

/** A baseline file listing the run's current failures (for `--write-baseline`). */
export function baselineFrom(run: RunResult): string {
  const failing = run.scenarios.filter((s) => s.status === 'failed' || s.status === 'errored');
  const lines = [
    '# conform baseline: scenarios expected to fail. Listed failures do not fail the run (exit 0);',
    '# a listed scenario that passes again is reported, so this list can shrink.',
    'version: 1',
    'expectedFailures:',
  ];
  for (const s of failing)
    lines.push(`  - id: ${s.id}`, `    reason: ${JSON.stringify((reasonsOf(s)[0] ?? s.status).slice(0, 200))}`);
  if (failing.length === 0) lines[lines.length - 1] = 'expectedFailures: []';
  return `${lines.join('\n')}\n`;
}
