/** Joins the report.json files of a sharded run into one report, as if the run had not been split. Pure. */
import { ruleReason, ruleStatus } from '../runner/rules.js';
import { summarize } from '../engine/run-suite.js';
import type { RuleResult, RunResult, ScenarioResult } from '../runner/types.js';

export interface MergeProblem {
  message: string;
}

/**
 * Merges shard reports: scenarios in suite order (file, then line), each id once (a later report wins on a
 * duplicate); rules recomputed from the merged scenarios; the earliest start and the longest shard's duration.
 * Reports of different seeds or tool versions are refused: they would not describe one run. Different targets are
 * allowed (each shard may start its own embedded server); the merged report names the first.
 */
export function mergeReports(
  reports: readonly RunResult[],
  names: readonly string[],
): { ok: true; run: RunResult } | { ok: false; problems: MergeProblem[] } {
  const first = reports[0];
  if (!first) return { ok: false, problems: [{ message: 'nothing to merge' }] };
  const problems: MergeProblem[] = [];
  reports.forEach((r, i) => {
    if (r.seed !== first.seed)
      problems.push({ message: `${names[i]}: seed ${r.seed} differs from ${names[0]}'s ${first.seed}` });
    if (r.tool.version !== first.tool.version)
      problems.push({ message: `${names[i]}: conform ${r.tool.version} differs from ${first.tool.version}` });
  });
  if (problems.length > 0) return { ok: false, problems };
  const byId = new Map<string, ScenarioResult>();
  for (const r of reports) for (const s of r.scenarios) byId.set(s.id, s);
  const scenarios = [...byId.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  const ruleMeta = new Map<string, RuleResult>();
  for (const r of reports) for (const rule of r.rules) if (!ruleMeta.has(rule.id)) ruleMeta.set(rule.id, rule);
  const rules = [...ruleMeta.values()].map((rule) => {
    const covering = scenarios.filter((s) => s.rules.includes(rule.id));
    const status = ruleStatus(covering, rule.id);
    // Still outside every shard's selection: keep what the shards said; else judge it from the joined scenarios.
    const { selected, reason, ...meta } = rule;
    const unselected = covering.length === 0 && selected === false;
    return {
      ...meta,
      status,
      reason: unselected && reason !== undefined ? reason : ruleReason(covering, status),
      ...(unselected ? { selected: false as const } : {}),
      scenarios: covering.map((s) => s.id),
    };
  });
  const baselines = reports.map((r) => r.baseline).filter((b): b is NonNullable<RunResult['baseline']> => !!b);
  const unreachable = reports.every((r) => r.unreachable) ? first.unreachable : undefined;
  // Each shard's timeline is its own run's: the merged report has none.
  const { shard: _shard, timeline: _timeline, ...rest } = first;
  const run: RunResult = {
    ...rest,
    startedAt: reports.map((r) => r.startedAt).sort()[0] ?? first.startedAt,
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    summary: summarize(scenarios),
    scenarios,
    rules,
    merged: [...names],
    ...(unreachable ? { unreachable } : {}),
    ...(baselines.length
      ? {
          baseline: {
            file: baselines[0]!.file,
            expectedFailures: [...new Set(baselines.flatMap((b) => b.expectedFailures))],
            nowPassing: [...new Set(baselines.flatMap((b) => b.nowPassing))],
            stillFailing: [...new Set(baselines.flatMap((b) => b.stillFailing))],
          },
        }
      : {}),
  };
  if (!unreachable) delete run.unreachable;
  return { ok: true, run };
}
