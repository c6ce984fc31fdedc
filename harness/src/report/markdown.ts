/** Markdown summary for pull requests and GitHub's job summary: verdict, counts, the matrix, failures first. */
import path from 'node:path';
import type { RunResult, ScenarioResult } from '../runner/types.js';
import { failureGroups } from './groups.js';
import { timeLines } from './time.js';
import {
  scenarioVerdict,
  failsRun,
  reasonsOf,
  runVerdict,
  VERDICT_LABEL,
  type ScenarioVerdict,
} from '../runner/verdict.js';

const LEVELS = ['MUST', 'SHOULD', 'MAY'] as const;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** Sections in the spec's order: numbered ones numerically, then the standards (RFC …). */
export function sectionOrder(a: string, b: string): number {
  const num = (s: string) => (/^\d/.test(s) ? s.split('.').map(Number) : null);
  const x = num(a);
  const y = num(b);
  if (x && y) {
    for (let i = 0; i < Math.max(x.length, y.length); i++)
      if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
    return 0;
  }
  if (x) return -1;
  if (y) return 1;
  return a.localeCompare(b);
}

function line(s: ScenarioResult, verdict: ScenarioVerdict): string {
  const why = reasonsOf(s)[0] ?? '';
  const label =
    verdict === 'baselined'
      ? `${s.status} (baseline)`
      : verdict === 'warn'
        ? `warning (${s.status})`
        : VERDICT_LABEL[verdict];
  return `| ${label} | \`${s.id}\` | ${s.level} | ${s.rules.join(', ')} | ${cell(why).slice(0, 300)} |`;
}

/** Failures first: what fails the run (failed, then errored), then warnings, then baselined results. */
const FAILURE_RANK: Readonly<Record<ScenarioVerdict, number>> = {
  fail: 0,
  error: 1,
  warn: 2,
  baselined: 3,
  pass: 4,
  skip: 4,
};

export function renderMarkdown(run: RunResult): string {
  const s = run.summary;
  const out: string[] = [];
  const v = runVerdict(run); // the one every reporter and the exit code use
  const verdict = v.verdict;
  out.push(
    `## conform: ${verdict === 'PASS' ? '✅' : verdict === 'INCONCLUSIVE' || verdict === 'INTERRUPTED' || verdict === 'INCOMPLETE' ? '⚠️' : '❌'} ${verdict} — ${run.target}`,
    '',
    `**${cell(v.coverageText)}** — ${cell(v.why)}`,
    '',
  );
  out.push(
    `${s.passed} passed · ${s.failed} failed · ${s.errored} errored · ${s.skipped} skipped · ${s.total} scenarios · seed \`${run.seed}\` · ${(run.durationMs / 1000).toFixed(1)} s`,
    '',
  );
  if (run.unreachable) out.push(`**Target unreachable:** ${cell(run.unreachable)}`, '');
  for (const r of run.credentialsRefused ?? []) out.push(`**Credentials refused:** ${cell(r)}`, '');
  for (const r of run.incomplete ?? []) out.push(`**Not exercised:** ${cell(r)}`, '');
  const groups = failureGroups(run);
  if (groups.length > 0) {
    out.push('Failures that share their first failing request (one cause, likely):', '');
    for (const g of groups)
      out.push(`- \`${g.request}\` — ${g.ids.length}: ${g.ids.map((id) => `\`${id}\``).join(', ')}`);
    out.push('');
  }
  const sections = [...new Set(run.rules.map((r) => r.section))].sort(sectionOrder);
  out.push('| Section | MUST | SHOULD | MAY |', '|---|---|---|---|');
  for (const section of sections) {
    const cells = LEVELS.map((level) => {
      const rules = run.rules.filter((r) => r.section === section && r.level === level);
      if (rules.length === 0) return '';
      const n = (st: string) => rules.filter((r) => r.status === st).length;
      const parts = [
        n('passed') && `${n('passed')} ✓`,
        n('failed') && `${n('failed')} ✗`,
        n('errored') && `${n('errored')} !`,
        n('skipped') && `${n('skipped')} skipped`,
        n('uncovered') && `${n('uncovered')} uncovered`,
      ].filter(Boolean);
      return parts.join(', ');
    });
    out.push(`| ${/^\d/.test(section) ? '§' : ''}${section} | ${cells.join(' | ')} |`);
  }
  const bad = run.scenarios.filter((x) => x.status === 'failed' || x.status === 'errored');
  if (bad.length > 0) {
    out.push('', '### Failures', '', '| Status | Scenario | Level | Rules | Why |', '|---|---|---|---|---|');
    const ranked = bad
      .map((x) => ({ x, v: scenarioVerdict(x, run.options) }))
      .sort((a, b) => FAILURE_RANK[a.v] - FAILURE_RANK[b.v]);
    for (const { x, v } of ranked) out.push(line(x, v));
    const replays = bad.filter((x) => x.replay);
    if (replays.length > 0) {
      out.push(
        '',
        '<details><summary>Replay commands</summary>',
        '',
        '```sh',
        ...replays.map((x) => x.replay ?? ''),
        '```',
        '',
        '</details>',
      );
    }
  }
  if (run.baseline) {
    out.push(
      '',
      `Baseline \`${run.baseline.file}\`: ${run.baseline.stillFailing.length} expected failures still failing; ${run.baseline.nowPassing.length} now passing${run.baseline.nowPassing.length ? ` (remove from the baseline: ${run.baseline.nowPassing.map((x) => `\`${x}\``).join(', ')})` : ''}.`,
    );
  }
  const skipped = run.scenarios.filter((x) => x.status === 'skipped');
  if (skipped.length > 0) {
    out.push(
      '',
      '<details><summary>Skipped</summary>',
      '',
      ...skipped.map((x) => `- \`${x.id}\`: ${cell(x.reason ?? '')}`),
      '',
      '</details>',
    );
  }
  // Where the time went: what a slow CI job needs at a glance.
  const time = timeLines(run);
  if (time.length > 0) out.push('', ...time.map((l) => `${l}  `));
  return `${out.join('\n')}\n`;
}

/**
 * GitHub workflow commands: one `::error` (fails the run) or `::warning` per failure, at the scenario's file and line.
 * With `workspace` (`$GITHUB_WORKSPACE`), the file is given relative to it — GitHub attaches an annotation only to a
 * file of the repository — and a scenario file outside it (the bundled ones, inside the installed package) gets no
 * position: the annotation then belongs to the job.
 */
export function githubAnnotations(run: RunResult, workspace?: string): string {
  const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const at = (file: string, line: number): string => {
    if (workspace === undefined) return `file=${prop(file)},line=${line},`;
    const rel = path.relative(workspace, path.resolve(workspace, file));
    return rel === '' || rel.startsWith('..') || path.isAbsolute(rel)
      ? ''
      : `file=${prop(rel.split(path.sep).join('/'))},line=${line},`;
  };
  return run.scenarios
    .filter((x) => (x.status === 'failed' || x.status === 'errored') && !x.baselined)
    .map((x) => {
      const kind = failsRun(x, run.options) ? 'error' : 'warning';
      const msg = [...reasonsOf(x), ...(x.replay ? [`replay: ${x.replay}`] : [])].join('\n');
      return `::${kind} ${at(x.file, x.line)}title=${prop(`${x.id} (${x.rules.join(' ')})`)}::${esc(msg)}\n`;
    })
    .join('');
}
