/**
 * `report.html`: a single self-contained page for an auditor. No network and no external assets (a CSP forbids
 * them); every value from the run — titles, reasons, URLs, headers, bodies — is HTML-escaped text, never markup.
 */
import { failureGroups } from './groups.js';
import type { RunResult, ScenarioStatus } from '../runner/types.js';
import { scenarioVerdict, runVerdict, type RunVerdict, type RunVerdictInfo } from '../runner/verdict.js';
import { CSP, SCRIPT, STYLE } from './html/assets.js';
import { duration, esc, plural } from './html/escape.js';
import { RULE_STATUSES, renderMatrix } from './html/matrix.js';
import { renderRules, renderScenarios, scenarioAnchor } from './html/scenarios.js';
import { renderTimeline, TIMELINE_STYLE } from './html/timeline.js';

export { buildMatrix, sectionsInOrder, LEVELS, RULE_STATUSES } from './html/matrix.js';
export type { Matrix, StatusCounts } from './html/matrix.js';
export { groupOf, scenariosInReportOrder, GROUP_ORDER } from './html/scenarios.js';
export type { ScenarioGroup } from './html/scenarios.js';

function verdictClass(v: RunVerdict): string {
  switch (v) {
    case 'PASS':
      return 'v-pass';
    case 'FAIL':
      return 'v-fail';
    case 'UNREACHABLE':
    case 'CREDENTIALS REFUSED':
      return 'v-unreachable';
    case 'INCOMPLETE':
    case 'INCONCLUSIVE':
    case 'INTERRUPTED':
      return 'v-inconclusive';
    default: {
      const never: never = v;
      throw new Error(`unknown verdict ${String(never)}`);
    }
  }
}

const SCENARIO_STATUSES: readonly ScenarioStatus[] = ['failed', 'errored', 'skipped', 'passed'];

function header(run: RunResult, v: RunVerdictInfo): string {
  const meta: Array<[string, string]> = [
    ['Tool', `${run.tool.name} ${run.tool.version}`],
    ['Target', run.target],
    ['Profile', run.profile],
    ['Seed', String(run.seed)],
    ['Property runs', String(run.runs)],
    ['Started', run.startedAt],
    ['Duration', duration(run.durationMs)],
    ['Filter', run.options.filter.length ? run.options.filter.join(', ') : '(all scenarios)'],
    ['Strict', run.options.strict ? 'yes: SHOULD/MAY failures fail the run' : 'no'],
    ['Request timeout', duration(run.options.timeoutMs)],
  ];
  if (run.shard) meta.push(['Shard', `${run.shard.index} of ${run.shard.total}`]);
  if (run.merged?.length) meta.push(['Merged from', run.merged.join(', ')]);
  if (run.baseline) {
    const b = run.baseline;
    meta.push([
      'Baseline',
      `${b.file}: ${plural(b.expectedFailures.length, 'expected failure')}, ${b.stillFailing.length} still failing, ${b.nowPassing.length} now passing${b.nowPassing.length ? ` (${b.nowPassing.join(', ')})` : ''}`,
    ]);
  }
  return (
    `<header><div class="banner ${verdictClass(v.verdict)}" role="status" data-testid="verdict" data-verdict="${v.verdict}" data-exit-code="${v.exitCode}">` +
    `<span class="verdict" data-testid="verdict-label">${v.verdict}</span><span class="exit" data-testid="exit-code">exit code ${v.exitCode}</span><span class="why">${esc(v.why)}</span><span class="coverage" data-testid="coverage">${esc(v.coverageText)}</span></div>` +
    `<h1>${esc(run.tool.name)} compliance report</h1>` +
    `<dl class="meta" data-testid="meta">${meta.map(([k, val]) => `<div><dt>${esc(k)}</dt><dd data-testid="${esc(`meta-${k.toLowerCase().replace(/\s+/g, '-')}`)}">${esc(val)}</dd></div>`).join('')}</dl>` +
    sharedCauses(run) +
    `</header>`
  );
}

/** Failures that share their first failing request, listed once each (groups.ts). */
function sharedCauses(run: RunResult): string {
  const groups = failureGroups(run);
  if (groups.length === 0) return '';
  const items = groups
    .map(
      (g) =>
        `<li><code>${esc(g.request)}</code> — ${g.ids.length}: ${g.ids.map((id) => `<a href="#${esc(scenarioAnchor(id))}">${esc(id)}</a>`).join(', ')}</li>`,
    )
    .join('');
  return `<section class="shared" data-testid="shared-causes"><p>Failures that share their first failing request (one cause, likely):</p><ul>${items}</ul></section>`;
}

function tallies(run: RunResult): string {
  const warnings = run.scenarios.filter(
    (x) => x.status === 'failed' && scenarioVerdict(x, run.options) === 'warn',
  ).length;
  const mustFailed = run.summary.failed - warnings;
  const scen = [
    `<span><b data-testid="summary-total">${run.summary.total}</b> scenarios</span>`,
    `<span class="st-passed"><b data-testid="summary-passed">${run.summary.passed}</b> passed</span>`,
    `<span class="st-failed"><b data-testid="summary-failed">${run.summary.failed}</b> failed${warnings ? ` (${mustFailed} MUST, ${plural(warnings, 'SHOULD/MAY warning')})` : ''}</span>`,
    `<span class="st-errored"><b data-testid="summary-errored">${run.summary.errored}</b> errored</span>`,
    `<span class="st-skipped"><b data-testid="summary-skipped">${run.summary.skipped}</b> skipped</span>`,
  ];
  const rules = RULE_STATUSES.map(
    (st) => `<span class="st-${st}"><b>${run.rules.filter((r) => r.status === st).length}</b> ${st}</span>`,
  );
  return `<div class="tally">${scen.join('')}</div><div class="tally"><span><b>${run.rules.length}</b> rules</span>${rules.join('')}</div>`;
}

function filters(): string {
  const boxes = SCENARIO_STATUSES.map(
    (s) => `<label><input type="checkbox" name="status" value="${s}" checked> ${s}</label>`,
  ).join('');
  return (
    `<form id="filters" hidden role="search" aria-label="Filter scenarios">` +
    `<input type="search" id="filter-text" placeholder="Filter by scenario id, rule or title" aria-label="Filter by scenario id, rule or title" autocomplete="off">` +
    `${boxes}<button type="button" id="expand-all">Expand all</button><button type="button" id="collapse-all">Collapse all</button>` +
    `<span id="filter-count" class="muted" aria-live="polite"></span></form>`
  );
}

/**
 * Renders a run as one self-contained HTML page: verdict banner with the implied exit code, run facts, the
 * timeline (a bar per scenario, the critical path marked), the compliance matrix (rules by spec section × level × status, `data-testid="matrix-{section}-{level}-{status}"`),
 * the scenarios with failures first (collapsed `<details>` holding failure messages, counterexample, replay
 * command and transcript), and the rules table.
 *
 * @param run - the run result (already redacted by the runner).
 * @returns the HTML document.
 */
export function renderHtml(run: RunResult): string {
  const v = runVerdict(run);
  const timeline = renderTimeline(run);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${esc(`${run.tool.name} ${run.tool.version}`)}">
<title>${esc(`${run.tool.name} report: ${v.verdict} — ${run.target}`)}</title>
<style>${STYLE}${TIMELINE_STYLE}</style>
</head>
<body>
${header(run, v)}
<nav class="toc"><a href="#summary">Summary</a>${timeline ? '<a href="#timeline">Timeline</a>' : ''}<a href="#matrix">Compliance matrix</a><a href="#scenarios">Scenarios</a><a href="#rules">Rules</a></nav>
<section id="summary"><h2>Summary</h2>${tallies(run)}</section>
${timeline}
<section id="matrix"><h2>Compliance by spec section and level</h2><p class="muted">Rules of the catalogue counted by status. A rule fails when a scenario covering it failed; it is uncovered when no selected scenario checks it.</p>${renderMatrix(run.rules)}</section>
<section id="scenarios"><h2>Scenarios</h2>${filters()}${renderScenarios(run)}</section>
<section id="rules"><h2>Rules</h2>${renderRules(run.rules)}</section>
<footer>Generated by ${esc(`${run.tool.name} ${run.tool.version}`)} from a run started ${esc(run.startedAt)}. This file is self-contained: it loads nothing from the network. Secrets and credential header values are redacted by the runner.</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
