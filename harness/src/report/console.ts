/** Console reporter: a line per scenario as it finishes, details for failures, and a summary. */
import type { RunEvent, RunResult, RunTls, ScenarioResult, ScenarioStatus } from '../runner/types.js';
import { curlCommand, failingExchange } from './curl.js';
import { scriptPath } from './script.js';
import { failureGroups } from './groups.js';
import { timeLines } from './time.js';
import {
  CREDENTIALS_REFUSED_REASON,
  INTERRUPTED_REASON,
  runVerdict,
  scenarioVerdict,
  reasonsOf,
} from '../runner/verdict.js';

export interface ConsoleOptions {
  write: (text: string) => void;
  color: boolean;
  /** Print passing scenarios too (default true). */
  verbose?: boolean;
  /** The run's `--strict` (default false): SHOULD/MAY failures are then failures, not warnings. */
  strict?: boolean;
  /**
   * A terminal that can redraw a line: a status line below the finished blocks shows how many scenarios are done
   * and which are running (default false; logs get the blocks only).
   */
  live?: boolean;
  /** How the run trusted TLS, for the curl command printed under a failure (`-k`, `--cacert`); default: neither. */
  tls?: RunTls;
  /**
   * The report directory as the console names it (`reports`): each failure then names its replay script there
   * (`reports/repro/<id>.sh`, written with the reports). Absent: no script is named.
   */
  reportDir?: string;
}

const MARK: Record<ScenarioStatus, string> = { passed: '✓', failed: '✗', errored: '!', skipped: '-' };
const COLOR: Record<ScenarioStatus, number> = { passed: 32, failed: 31, errored: 35, skipped: 90 };

/** The console reporter: a live status line on a terminal, one block per failure, the summary at the end. */
export function createConsoleReporter(options: ConsoleOptions): (event: RunEvent) => void {
  const paint = (code: number, s: string) => (options.color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const running = new Map<number, string>();
  let done = 0;
  let status = false;
  // Scenarios not run because the target never answered: one line for all of them, not a block each.
  let notRun = 0;
  let interrupted = 0;
  let refused = 0;
  let quietSkips = 0;
  let stopped = false;
  // Blocks are written whole, in catalogue order; the status line is erased before and redrawn after each.
  const w = (text: string) => {
    if (status) options.write('\r\u001b[K');
    status = false;
    options.write(text);
  };
  const redraw = (total: number) => {
    if (!options.live || running.size === 0) return;
    const names = [...running.values()];
    const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ` +${names.length - 3}` : '');
    w(paint(90, `[${done}/${total}] running ${shown}`.slice(0, 160)));
    status = true;
  };
  return (event) => {
    switch (event.type) {
      case 'run-start':
        w(
          `conform: ${event.total} scenario${event.total === 1 ? '' : 's'} against ${event.target} (seed ${event.seed})\n`,
        );
        break;
      case 'scenario-start':
        running.set(event.index, event.scenario.id);
        redraw(event.total);
        break;
      case 'scenario-settled':
        running.delete(event.index);
        done = event.done;
        redraw(event.total);
        break;
      case 'scenario-end': {
        const r = event.result;
        const width = String(event.total).length;
        const counter = `[${String(event.index + 1).padStart(width)}/${event.total}]`;
        const warn = scenarioVerdict(r, { strict: options.strict ?? false }) === 'warn';
        const mark = warn ? paint(33, '⚠') : paint(COLOR[r.status], MARK[r.status]);
        if (r.status === 'passed' && options.verbose === false) break;
        if (r.status === 'errored' && r.requests === 0 && r.reason?.startsWith('target unreachable:')) {
          notRun++;
          break;
        }
        if (r.status === 'skipped' && r.reason === INTERRUPTED_REASON) {
          interrupted++;
          break;
        }
        if (r.status === 'skipped' && r.reason === CREDENTIALS_REFUSED_REASON) {
          refused++;
          break;
        }
        if (r.status === 'skipped' && stopped) {
          quietSkips++;
          break;
        }
        w(`${paint(90, counter)} ${mark} ${r.id} ${paint(90, `${r.level} · ${describeRuns(r)}`)}\n`);
        if (r.status !== 'passed') w(details(r, paint, options.tls, options.reportDir));
        else for (const note of r.notes ?? []) w(`      ${paint(90, `note: ${note}`)}\n`);
        redraw(event.total);
        break;
      }
      case 'learned':
        w(
          `${paint(90, 'Learned from the target (the profile is silent on these; declare a key to have it checked as declared):')}\n`,
        );
        for (const l of event.learned)
          w(`  ${l.key}: ${JSON.stringify(l.value)} ${paint(90, `— ${l.how}`)}\n`.slice(0, 400).replace(/\n?$/, '\n'));
        break;
      case 'stopped':
        stopped = true;
        for (const why of event.why) w(`${paint(31, why)}\n`);
        break;
      case 'cleanup-start':
        if (options.live)
          w(paint(90, `deleting the ${event.articles} article${event.articles === 1 ? '' : 's'} the run created…\n`));
        break;
      case 'run-end':
        if (interrupted > 0)
          w(paint(33, `${interrupted} scenario${interrupted === 1 ? '' : 's'} not run: the run was interrupted\n`));
        if (notRun > 0)
          w(paint(35, `${notRun} scenario${notRun === 1 ? '' : 's'} not run: the target is unreachable (below)\n`));
        if (quietSkips > 0)
          w(
            paint(
              90,
              `${quietSkips} scenario${quietSkips === 1 ? '' : 's'} skipped: capabilities the profile lacks (report.json says which)\n`,
            ),
          );
        if (refused > 0)
          w(paint(35, `${refused} scenario${refused === 1 ? '' : 's'} not run: credentials were refused (below)\n`));
        w(renderSummary(event.result, paint));
        break;
      default: {
        const never: never = event;
        throw new Error(`unhandled event ${JSON.stringify(never)}`);
      }
    }
  };
}

function describeRuns(r: ScenarioResult): string {
  if (r.status === 'skipped') return 'skipped';
  return `${r.runs} run${r.runs === 1 ? '' : 's'}${r.lanes ? ` on up to ${r.lanes} lanes` : ''}, ${r.requests} request${r.requests === 1 ? '' : 's'}, ${r.durationMs} ms`;
}

function details(
  r: ScenarioResult,
  paint: (c: number, s: string) => string,
  tls: RunTls = {},
  reportDir?: string,
): string {
  const lines: string[] = [];
  if (r.status === 'skipped') lines.push(`skipped: ${r.reason ?? ''}`);
  else {
    lines.push(`${r.title}`);
    lines.push(`rules: ${r.rules.join(', ')} (${r.file}:${r.line})`);
    for (const m of reasonsOf(r)) lines.push(paint(r.status === 'errored' ? 35 : 31, m));
    const commands = r.counterexample?.values['commands'];
    if (r.counterexample && Array.isArray(commands)) {
      // A model scenario's counterexample is a sequence of requests: one per line, as sent, with the answer.
      lines.push(
        `counterexample (after ${r.counterexample.shrinks} shrinks), ${commands.length} command${commands.length === 1 ? '' : 's'}:`,
      );
      commands.forEach((c, i) => lines.push(`  ${i + 1}. ${String(c)}`));
    } else if (r.counterexample)
      lines.push(
        `counterexample (after ${r.counterexample.shrinks} shrinks): ${JSON.stringify(r.counterexample.values)}`,
      );
    if (r.replay) lines.push(`replay: ${r.replay}`);
    const failing = failingExchange(r);
    if (failing) {
      lines.push(`the request it ${r.status} at (step ${failing.step}), as curl:`);
      lines.push(
        ...curlCommand(failing.request, tls, failing.credential)
          .split('\n')
          .map((l) => `  ${l}`),
      );
      if (reportDir !== undefined)
        lines.push(
          `its steps as a script, each request signed afresh (bash and curl): ${reportDir.replace(/\/$/, '')}/${scriptPath(r.id)}`,
        );
    }
    for (const note of r.notes ?? []) lines.push(`note: ${note}`);
  }
  return lines.map((l) => `      ${l}\n`).join('');
}

/** The run's closing summary (verdict, counts, rule coverage) as console text; `paint` colours it. */
export function renderSummary(run: RunResult, paint: (c: number, s: string) => string = (_c, s) => s): string {
  const s = run.summary;
  const warnings = run.scenarios.filter(
    (x) => x.status === 'failed' && scenarioVerdict(x, run.options) === 'warn',
  ).length;
  const failedMust = s.failed - warnings;
  // A rule the selection left out is not "uncovered": nothing was asked of it.
  const rules = run.rules.reduce<Record<string, number>>((acc, r) => {
    const key = r.selected === false ? 'not selected' : r.status;
    return { ...acc, [key]: (acc[key] ?? 0) + 1 };
  }, {});
  const notSelected = rules['not selected'] ? `; ${rules['not selected']} not selected` : '';
  const verdict = runVerdict(run);
  const colour =
    verdict.verdict === 'PASS'
      ? 32
      : verdict.verdict === 'INCONCLUSIVE' || verdict.verdict === 'INTERRUPTED' || verdict.verdict === 'INCOMPLETE'
        ? 33
        : 31;
  const lines = [
    '',
    `${paint(colour, verdict.verdict)} — ${verdict.coverageText}`,
    `Scenarios: ${paint(32, `${s.passed} passed`)}, ${paint(s.failed ? 31 : 90, `${s.failed} failed`)}${warnings ? ` (${failedMust} MUST, ${warnings} SHOULD/MAY warnings)` : ''}, ${paint(s.errored ? 35 : 90, `${s.errored} errored`)}, ${s.skipped} skipped, ${s.total} total`,
    `Rules:     ${['passed', 'failed', 'errored', 'skipped', 'uncovered'].map((k) => `${rules[k] ?? 0} ${k}`).join(', ')}${notSelected}`,
    `Seed ${run.seed} · ${run.runs} property runs · ${(run.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const g of failureGroups(run))
    lines.push(
      paint(31, `${g.ids.length} scenarios failed or errored at the same request, ${g.request}: ${g.ids.join(', ')}`),
    );
  if (run.cleanup && run.cleanup.created > 0) lines.push(cleanupLine(run));
  if (run.unreachable) lines.push(paint(31, `Target unreachable: ${run.unreachable}`));
  for (const r of run.credentialsRefused ?? []) lines.push(paint(31, `Credentials refused: ${r}`));
  for (const r of run.incomplete ?? []) lines.push(paint(33, `Not exercised: ${r}`));
  lines.push(...timeLines(run).map((l) => paint(90, l)));
  return `${lines.join('\n')}\n`;
}

/** What the run left on the target: everything it created deleted, kept with --keep, or what could not be deleted. */
export function cleanupLine(run: RunResult): string {
  const c = run.cleanup!;
  const left = run.leftovers?.length ?? 0;
  const n = (k: number) => `${k} article${k === 1 ? '' : 's'}`;
  if (c.kept) return `Left on the target (--keep): ${n(c.created)} the run created`;
  if (run.keptFailed) {
    const kept = Object.entries(run.keptFailed);
    const count = kept.reduce((k, [, paths]) => k + paths.length, 0);
    const others = left - count;
    return [
      `Left on the target (--keep-failed): ${n(count)} the failed scenarios created${others > 0 ? `, and ${n(others)} whose DELETE failed` : ''}; ${n(c.deleted)} deleted`,
      ...kept.map(([id, paths]) => `  ${id}: ${paths.join(', ')}`),
    ].join('\n');
  }
  if (left === 0) return `Cleanup: the ${n(c.created)} the run created were deleted`;
  return `Cleanup: ${n(c.deleted)} deleted, ${n(left)} left on the target (${c.deleted === 0 ? 'the profile or the target offers no DELETE of articles' : 'their DELETE failed'}; report.json lists them)`;
}
