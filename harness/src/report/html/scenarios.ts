/** Scenario list (failures first, each a collapsed `<details>`) and the rules table. */
import type { Exchange, RuleResult, RunResult, RunTls, ScenarioResult } from '../../runner/types.js';
import { curlCommand, failingExchange } from '../curl.js';
import { scriptPath } from '../script.js';
import { scenarioVerdict, type ScenarioVerdict } from '../../runner/verdict.js';
import { duration, esc, href, plural, prettyJson } from './escape.js';
import { rulesInSectionOrder, sectionAnchor } from './matrix.js';

/** The groups the scenario list is split into, in display order: one per verdict (runner/verdict.ts). */
export type ScenarioGroup = ScenarioVerdict;

/** Display order of the groups: what fails the run first. */
export const GROUP_ORDER: readonly ScenarioGroup[] = ['fail', 'error', 'warn', 'baselined', 'skip', 'pass'];

/**
 * The group a scenario is listed in: its verdict under the run's policy (failures that fail the run, errors that
 * fail it, warnings, baselined, skipped, passed).
 *
 * @param s - a scenario result.
 * @param strict - the run's `--strict`.
 */
export function groupOf(s: ScenarioResult, strict: boolean): ScenarioGroup {
  return scenarioVerdict(s, { strict });
}

/**
 * Scenarios in report order: by group (failures first), keeping run order within a group.
 *
 * @param scenarios - the run's scenarios.
 * @param strict - the run's `--strict`.
 */
export function scenariosInReportOrder(scenarios: readonly ScenarioResult[], strict: boolean): ScenarioResult[] {
  const rank = (s: ScenarioResult) => GROUP_ORDER.indexOf(groupOf(s, strict));
  return scenarios
    .map((s, i) => ({ s, i }))
    .sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
    .map((x) => x.s);
}

const GROUP_HEADING: Readonly<Record<ScenarioGroup, (strict: boolean) => string>> = {
  fail: (strict) => (strict ? 'Failed — any level fails the run (--strict)' : 'Failed — MUST'),
  error: (strict) =>
    strict
      ? 'Errored — the target could not be judged (fails the run)'
      : 'Errored — MUST, the target could not be judged',
  warn: () => 'Warnings — SHOULD / MAY that failed or errored (fail the run only with --strict)',
  baselined: () => 'Baselined — listed in the --baseline file, not counted',
  skip: () => 'Skipped — the profile excludes a capability',
  pass: () => 'Passed',
};

/** Badge text and class for a scenario, from its verdict. */
function badge(s: ScenarioResult, strict: boolean): string {
  const verdict = scenarioVerdict(s, { strict });
  const label = verdict === 'warn' ? 'WARNING' : s.status.toUpperCase();
  const known =
    verdict === 'baselined'
      ? '<span class="badge known" title="listed in the --baseline file: reported, but it does not fail the run">baselined</span>'
      : '';
  return `<span class="badge st-${verdict === 'warn' ? 'warning' : s.status}">${label}</span>${known}`;
}

/** `id` attribute of a scenario's `<details>`. */
export function scenarioAnchor(id: string): string {
  return `scenario-${id}`;
}

/** `id` attribute of a rule's row. */
export function ruleAnchor(id: string): string {
  return `rule-${id}`;
}

function headers(h: Record<string, string | string[]>): string {
  const rows = Object.entries(h).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((x) => `<tr><th>${esc(k)}</th><td>${esc(x)}</td></tr>`),
  );
  return rows.length === 0 ? '<p class="muted">no headers</p>' : `<table class="hdrs">${rows.join('')}</table>`;
}

function body(b: string | undefined): string {
  return b === undefined || b === '' ? '<p class="muted">empty body</p>' : `<pre class="msg-body">${esc(b)}</pre>`;
}

function statusClass(code: number): string {
  return code >= 500 ? 's5' : code >= 400 ? 's4' : code >= 300 ? 's3' : code >= 200 ? 's2' : 's1';
}

/** The request as a curl command, collapsed; the page's script adds a Copy button to the `.cmd` box. */
function curl(x: Exchange, tls: RunTls): string {
  return `<details class="curl"><summary>copy as curl</summary><div class="cmd"><code data-testid="curl">${esc(curlCommand(x.request, tls, x.credential))}</code></div></details>`;
}

function exchange(x: Exchange, tls: RunTls): string {
  const step = `Step ${x.step}${x.stepName ? ` · ${esc(x.stepName)}` : ''}${x.instance !== undefined ? ` · instance ${x.instance}` : ''}`;
  const req = `<div class="req"><div class="line"><span class="dir">→</span> <span class="method">${esc(x.request.method)}</span> <span class="url">${esc(x.request.url)}</span></div>${headers(x.request.headers)}${body(x.request.body)}${curl(x, tls)}</div>`;
  const res = x.response
    ? `<div class="res"><div class="line"><span class="dir">←</span> <span class="code ${statusClass(x.response.status)}">${x.response.status}</span> <span class="muted">${duration(x.response.durationMs)}</span></div>${headers(x.response.headers)}${body(x.response.body)}</div>`
    : '';
  const err = x.error
    ? `<div class="xerr"><span class="dir">✗</span> <b>${esc(x.error.code)}</b>: ${esc(x.error.message)}</div>`
    : '';
  return `<li class="exchange"><div class="xhead">${step}</div>${req}${res}${err}</li>`;
}

function scenarioBody(s: ScenarioResult, run: RunResult, tls: RunTls): string {
  const parts: string[] = [];
  const facts = [
    `<span>${esc(`${s.file}:${s.line}`)}</span>`,
    s.status === 'skipped'
      ? ''
      : `<span>${plural(s.runs, 'run')}</span><span>${plural(s.requests, 'request')}</span><span>${duration(s.durationMs)}</span>`,
    s.tags.length ? `<span>tags: ${s.tags.map(esc).join(', ')}</span>` : '',
    `<span>rules: ${s.rules.map((r) => `<a href="${href(ruleAnchor(r))}">${esc(r)}</a>`).join(', ')}</span>`,
  ];
  parts.push(`<p class="facts">${facts.join('')}</p>`);
  const reason = (label: string, text: string) =>
    `<div class="reason st-${s.status}" data-testid="reason"><h4>${label}</h4><p>${esc(text)}</p></div>`;
  switch (s.status) {
    case 'failed': {
      const { step, stepName, messages } = s.failure;
      const where = `step ${step}${stepName ? ` “${esc(stepName)}”` : ''}`;
      parts.push(
        `<div class="failure" data-testid="failure"><h4>Failure at ${where}</h4><ul>${messages.map((m) => `<li>${esc(m)}</li>`).join('')}</ul></div>`,
      );
      if (!messages.includes(s.reason)) parts.push(reason('Reason', s.reason));
      break;
    }
    case 'errored':
      parts.push(reason('Error', s.reason));
      break;
    case 'skipped':
      parts.push(reason('Skipped because', s.reason));
      break;
    case 'passed':
      break;
    default: {
      const never: never = s;
      throw new Error(`unknown status ${JSON.stringify(never)}`);
    }
  }
  if (s.counterexample) {
    const c = s.counterexample;
    parts.push(
      `<div class="cex" data-testid="counterexample"><h4>Counterexample <span class="muted">(after ${plural(c.shrinks, 'shrink')})</span></h4>` +
        `<dl class="kv"><dt>seed</dt><dd><code data-testid="cex-seed">${c.seed}</code></dd><dt>path</dt><dd><code data-testid="cex-path">${esc(c.path)}</code></dd></dl>` +
        (Array.isArray(c.values['commands'])
          ? `<ol class="commands" data-testid="cex-commands">${c.values['commands'].map((x) => `<li><code>${esc(String(x))}</code></li>`).join('')}</ol></div>`
          : `<pre class="json" data-testid="cex-values">${esc(prettyJson(c.values))}</pre></div>`),
    );
  }
  if (s.replay) {
    parts.push(
      `<div class="replay"><h4>Replay</h4><div class="cmd"><code data-testid="replay">${esc(s.replay)}</code></div></div>`,
    );
  }
  if (failingExchange(s)) {
    // Written beside report.html by conform run (cli/src/output.ts writeScripts).
    const file = scriptPath(s.id);
    const kept = run.keptFailed?.[s.id];
    parts.push(
      `<div class="replay"><h4>As a script</h4><p>Its steps in order, each request signed afresh when it is sent (bash and curl; secrets from the environment): <a href="${esc(file)}" data-testid="script"><code>${esc(file)}</code></a>${kept ? `. Left on the target for it (--keep-failed): ${kept.map((p) => `<code>${esc(p)}</code>`).join(', ')}` : ''}</p></div>`,
    );
  }
  if (s.transcript.length > 0) {
    const which = s.status === 'passed' ? 'last run' : s.counterexample ? 'the counterexample' : 'the failing run';
    parts.push(
      `<div class="transcript"><h4>Transcript <span class="muted">(${plural(s.transcript.length, 'exchange')}, ${which})</span></h4><ol>${s.transcript.map((x) => exchange(x, tls)).join('')}</ol></div>`,
    );
  } else if (s.status !== 'skipped') {
    parts.push('<p class="muted">No request was recorded.</p>');
  }
  return parts.join('');
}

function scenario(s: ScenarioResult, run: RunResult, tls: RunTls): string {
  const strict = run.options.strict;
  const rules = s.rules.map((r) => `<span class="rid">${esc(r)}</span>`).join(' ');
  const verdict = groupOf(s, strict);
  return (
    `<details class="scenario st-${s.status}" id="${esc(scenarioAnchor(s.id))}" data-testid="scenario" data-id="${esc(s.id)}" data-status="${s.status}" data-level="${s.level}" data-group="${verdict}" data-verdict="${verdict}"${s.baselined ? ' data-baselined="true"' : ''} data-search="${esc(`${s.id} ${s.rules.join(' ')} ${s.title}`.toLowerCase())}">` +
    `<summary>${badge(s, strict)}<code class="sid">${esc(s.id)}</code><span class="lvl lvl-${s.level}">${s.level}</span><span class="rids">${rules}</span><span class="stitle">${esc(s.title)}</span></summary>` +
    `<div class="sbody">${scenarioBody(s, run, tls)}</div></details>`
  );
}

/**
 * The scenario list, grouped by verdict (what fails the run first, then warnings, baselined, skipped, passed), each
 * scenario collapsed.
 *
 * @param run - the run.
 */
export function renderScenarios(run: RunResult): string {
  const strict = run.options.strict;
  const ordered = scenariosInReportOrder(run.scenarios, strict);
  const out: string[] = [];
  for (const group of GROUP_ORDER) {
    const members = ordered.filter((s) => groupOf(s, strict) === group);
    if (members.length === 0) continue;
    out.push(
      `<section class="group g-${group}" data-group="${group}"><h3>${esc(GROUP_HEADING[group](strict))} <span class="muted gcount" data-total="${members.length}">(${members.length})</span></h3>${members.map((s) => scenario(s, run, run.options.tls ?? {})).join('')}</section>`,
    );
  }
  return out.length ? out.join('') : '<p class="muted">No scenario was selected.</p>';
}

/**
 * Every rule: id, section, level, status, text and the scenarios covering it, in section order.
 *
 * @param rules - the run's rules.
 */
export function renderRules(rules: readonly RuleResult[]): string {
  let lastSection: string | undefined;
  const rows = rulesInSectionOrder(rules).map((r) => {
    const anchor = r.section !== lastSection ? ` <span id="${esc(sectionAnchor(r.section))}"></span>` : '';
    lastSection = r.section;
    const covering = r.scenarios.length
      ? r.scenarios.map((s) => `<a href="${href(scenarioAnchor(s))}">${esc(s)}</a>`).join('<br>')
      : '<span class="muted">none selected</span>';
    const text = `${esc(r.text)}${r.source ? `<br><small class="muted">${esc(r.source)}</small>` : ''}`;
    return `<tr id="${esc(ruleAnchor(r.id))}" data-testid="rule-row" data-rule="${esc(r.id)}" data-status="${r.status}"><td><code>${esc(r.id)}</code>${anchor}</td><td>${esc(r.section)}</td><td><span class="lvl lvl-${r.level}">${r.level}</span></td><td><span class="badge st-${r.status}">${r.status}</span></td><td>${text}</td><td class="cov">${covering}</td></tr>`;
  });
  return `<table class="rules" data-testid="rules"><thead><tr><th>Rule</th><th>Section</th><th>Level</th><th>Status</th><th>Text</th><th>Covered by</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
