/**
 * The reporters of a client report (`conform check-client`): the console summary, Markdown, JUnit XML and a single
 * self-contained HTML page. Each renders a {@link ClientReport} already redacted; none adds anything from elsewhere.
 */
import { buildJunitXml } from '../junit.js';
import type { ClientReport, ClientRuleResult } from './schema.js';

const MARK: Record<ClientRuleResult['status'], string> = { passed: '✓', failed: '✗', 'not exercised': '·' };

/**
 * A rule's violations as lines: `#seq METHOD target: reason` (the method and target kept past --max-requests), then
 * the requests it could not judge, `#seq METHOD target: not judged: reason`.
 */
function violationLines(report: ClientReport, rule: ClientRuleResult): string[] {
  const bySeq = new Map(report.requests.map((r) => [r.seq, r]));
  const notJudged = (rule.notJudged ?? []).map((v) => ({ ...v, reason: `not judged: ${v.reason}` }));
  return [...rule.violations, ...notJudged].map((v) => {
    const req = bySeq.get(v.request);
    const what = req
      ? `${req.method} ${req.target} (${req.transport}, answered ${req.status})`
      : v.method !== undefined
        ? `${v.method} ${v.target ?? ''}`
        : '';
    const side =
      v.signed === undefined
        ? ''
        : v.sent === undefined
          ? `\n        server built: ${v.signed}`
          : `\n        server built: ${v.signed}\n        as encoded:   ${v.sent}\n        first difference: ${v.difference ?? '?'} (${pointer(v.signed, v.sent)})`;
    return `#${v.request} ${what}: ${v.reason}${v.mistake ? ` [${v.mistake}]` : ''}${side}`;
  });
}

/** Where two strings first differ: the character offset, and the rest of each from there (shortened). */
function pointer(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const cut = (s: string) => JSON.stringify(s.slice(i, i + 24) + (s.length > i + 24 ? '…' : ''));
  return `at character ${i + 1}: ${cut(a)} against ${cut(b)}`;
}

/** The verdict of the client rules alone (`failed` when a MUST rule failed, or any with `strict`). */
export function rulesVerdict(report: ClientReport, strict = false): 'passed' | 'failed' | 'nothing checked' {
  if (report.rules.some((r) => r.status === 'failed' && (strict || r.level === 'MUST'))) return 'failed';
  return report.rules.some((r) => r.level === 'MUST' && r.status !== 'not exercised') ? 'passed' : 'nothing checked';
}

/**
 * Whether the client command's own end fails the check: it exited non-zero, was killed by a signal or ran past
 * --timeout, and its exit is checked (not under --ignore-client-exit).
 */
export function commandFailed(report: ClientReport): boolean {
  const { exit } = report;
  if (exit === undefined || exit.checked === false) return false;
  return exit.timedOut || exit.signal !== null || exit.code !== 0;
}

/** The verdict of the whole check, in words: the rules' verdict, or `failed` when the command itself failed. */
export function clientVerdict(report: ClientReport, strict = false): 'passed' | 'failed' | 'nothing checked' {
  return commandFailed(report) ? 'failed' : rulesVerdict(report, strict);
}

/** The line about the command's own end: undefined without a command (conform serve --client-report). */
function commandLine(report: ClientReport): string | undefined {
  const { exit } = report;
  if (exit === undefined) return undefined;
  const how = `the client command ${exitText(report)}`;
  if (commandFailed(report)) return `✗ ${how}: the check fails (--ignore-client-exit judges the requests alone)`;
  if (exit.checked === false && (exit.timedOut || exit.signal !== null || exit.code !== 0))
    return `· ${how}: ignored (--ignore-client-exit)`;
  return `✓ ${how}`;
}

/** The console summary: one line per rule, the violations under a failed one, then the totals. */
export function renderClientConsole(report: ClientReport, strict = false): string {
  const lines = [`conform check-client: ${report.command.join(' ')}`];
  lines.push(`  ${report.summary.requests} request(s) received; ${report.exit ? 'client ' : ''}${exitText(report)}`);
  const command = commandLine(report);
  if (command !== undefined) lines.push(command);
  for (const rule of report.rules) {
    const extra = rule.status === 'not exercised' ? '' : ` (${rule.exercised} request(s))`;
    lines.push(`${MARK[rule.status]} ${rule.level.padEnd(6)} ${rule.id}  ${rule.status}${extra}`);
    for (const v of violationLines(report, rule).slice(0, 5)) lines.push(`      ${v}`);
    if (rule.violations.length > 5) lines.push(`      … and ${rule.violations.length - 5} more`);
  }
  const s = report.summary;
  lines.push(
    `${s.passed} passed, ${s.failed} failed, ${s.notExercised} not exercised of ${s.total} client rules: ${clientVerdict(report, strict)}`,
  );
  return `${lines.join('\n')}\n`;
}

function exitText(report: ClientReport): string {
  const { exit } = report;
  if (exit === undefined) return 'the server recorded until it stopped';
  if (exit.timedOut) return 'timed out (killed)';
  if (exit.signal !== null) return `killed by ${exit.signal}`;
  const held = exit.outputHeld ? ' (a process it left behind held its output open: read until the drain ended)' : '';
  return `exited ${exit.code ?? '?'}${held}`;
}

const md = (s: string) => s.replace(/[|\\`*_<>]/g, (c) => `\\${c}`);

/** Markdown: a table of the rules, then each failed rule with its requests. */
export function renderClientMarkdown(report: ClientReport, strict = false): string {
  const out = [`# Client compliance: ${clientVerdict(report, strict)}`, ''];
  out.push(
    `Command: \`${report.command.join(' ').replaceAll('`', "'")}\` — ${exitText(report)}; ${report.summary.requests} request(s).`,
    '',
  );
  const command = commandLine(report);
  if (command !== undefined) out.push(md(command), '');
  out.push('| rule | level | status | requests | text |', '|---|---|---|---|---|');
  for (const r of report.rules) out.push(`| ${r.id} | ${r.level} | ${r.status} | ${r.exercised} | ${md(r.text)} |`);
  for (const r of report.rules.filter((x) => x.status === 'failed' || (x.notJudged?.length ?? 0) > 0)) {
    const judged = r.status === 'failed' ? 'failed' : `${r.status}, ${r.notJudged?.length ?? 0} request(s) not judged`;
    out.push('', `## ${r.id} (${r.level}) ${judged}`, '');
    for (const v of violationLines(report, r)) out.push(`- ${md(v)}`);
  }
  return `${out.join('\n')}\n`;
}

const clean = (s: string) =>
  s.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** JUnit XML: one testcase per client rule; failed is a <failure>, not exercised is <skipped>. */
export function renderClientJunit(report: ClientReport, strict = false): string {
  const failing = (r: ClientRuleResult) => r.status === 'failed' && (strict || r.level === 'MUST');
  const cases = report.rules.map((r) => ({
    '@name': `${r.id} (${r.level}, ${r.section})`,
    '@classname': 'conform.check-client',
    '@time': '0',
    ...(failing(r)
      ? {
          failure: {
            '@message': clean(`${r.violations.length} request(s) broke the rule`),
            '#text': clean(violationLines(report, r).join('\n')),
          },
        }
      : r.status === 'not exercised'
        ? { skipped: { '@message': 'no request exercised the rule' } }
        : r.status === 'failed'
          ? { 'system-out': clean(`warning: ${violationLines(report, r).join('\n')}`) }
          : {}),
  }));
  const command = commandLine(report);
  if (command !== undefined)
    cases.push({
      '@name': 'client command',
      '@classname': 'conform.check-client',
      '@time': (report.durationMs / 1000).toFixed(3),
      ...(commandFailed(report) ? { failure: { '@message': clean(command), '#text': clean(command) } } : {}),
    });
  const suite = {
    '@name': 'conform check-client',
    '@tests': String(cases.length),
    '@failures': String(report.rules.filter(failing).length + (commandFailed(report) ? 1 : 0)),
    '@errors': '0',
    '@skipped': String(report.summary.notExercised),
    '@time': (report.durationMs / 1000).toFixed(3),
    '@timestamp': report.startedAt.replace(/\.\d+Z$/, ''),
    testcase: cases,
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${buildJunitXml({ testsuites: { testsuite: suite } })}`;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);

/** One self-contained HTML page (no script, no outside resource): the verdict, the rules, the requests. */
export function renderClientHtml(report: ClientReport, strict = false): string {
  const verdict = clientVerdict(report, strict);
  const rows = report.rules
    .map((r) => {
      const list = violationLines(report, r)
        .map((v) => `<li>${esc(v)}</li>`)
        .join('');
      return `<tr class="${r.status.replace(' ', '-')}"><td>${esc(r.id)}</td><td>${r.level}</td><td>${r.status}</td><td>${r.exercised}</td><td>${esc(r.text)}${list ? `<ul>${list}</ul>` : ''}</td></tr>`;
    })
    .join('\n');
  const requests = report.requests
    .map(
      (q) =>
        `<tr><td>${q.seq}</td><td>${esc(q.method)}</td><td>${esc(q.target)}</td><td>${q.transport}</td><td>${q.status}</td><td>${esc(q.detail ?? '')}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>conform check-client: ${verdict}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}li{white-space:pre-wrap}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;vertical-align:top}.failed td:nth-child(3){color:#b00020;font-weight:bold}.passed td:nth-child(3){color:#1b5e20}</style>
</head><body>
<h1>Client compliance: ${verdict}</h1>
<p>Command <code>${esc(report.command.join(' '))}</code>: ${esc(exitText(report))}; ${report.summary.requests} request(s); ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.notExercised} not exercised.</p>
${commandLine(report) === undefined ? '' : `<p class="command">${esc(commandLine(report) ?? '')}</p>\n`}
<table><thead><tr><th>rule</th><th>level</th><th>status</th><th>requests</th><th>text and violations</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Requests</h2>
<table><thead><tr><th>#</th><th>method</th><th>target</th><th>transport</th><th>status</th><th>detail</th></tr></thead><tbody>
${requests}
</tbody></table>
</body></html>
`;
}
