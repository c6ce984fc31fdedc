/**
 * The run as a timeline: one bar per scenario on a shared time axis (its waits shaded by kind), the run's phases,
 * and the critical path marked — the chain of scenarios that bounded the wall time. Plain elements positioned in
 * percent of the run; no script needed.
 */
import type { RunResult, ScenarioResult } from '../../runner/types.js';
import { boundingScenarios, type CriticalSegment, type Span } from '../../runner/timeline.js';
import { duration, esc, href } from './escape.js';
import { scenarioAnchor } from './scenarios.js';

const WAIT_WORDS: Record<'clock' | 'run-end' | 'slot', string> = {
  clock: 'waiting for the clock (a wait its steps declare)',
  'run-end': 'parked until every other scenario ended',
  slot: 'waiting for a slot',
};

/** Percent of `total` for `ms`, as CSS text (3 decimals: 0.001% of a one-hour run is 36 ms). */
const pct = (ms: number, total: number) => `${((100 * Math.max(0, ms)) / total).toFixed(3)}%`;

function place(span: Span, total: number): string {
  return `left:${pct(span.startMs, total)};width:${pct(span.endMs - span.startMs, total)}`;
}

function phaseRow(name: string, testid: string, span: Span | undefined, total: number): string {
  if (!span) return '';
  return (
    `<li class="tl-row tl-phase" data-testid="${testid}"><span class="tl-label">${esc(name)} <span class="muted">${esc(duration(span.endMs - span.startMs))}</span></span>` +
    `<span class="tl-track"><span class="tl-bar" style="${place(span, total)}" title="${esc(`${name}: ${duration(span.startMs)} – ${duration(span.endMs)}`)}"></span></span></li>`
  );
}

function scenarioRow(s: ScenarioResult, critical: CriticalSegment | undefined, total: number): string {
  const t = s.timing!;
  const waits = (t.waits ?? [])
    .map(
      (w) =>
        `<span class="tl-wait w-${w.for}" data-testid="timeline-wait" data-for="${w.for}" style="${place({ startMs: w.startMs - t.startMs, endMs: w.endMs - t.startMs }, Math.max(1, t.endMs - t.startMs))}" title="${esc(`${WAIT_WORDS[w.for]}: ${duration(w.endMs - w.startMs)}`)}"></span>`,
    )
    .join('');
  const crit = critical
    ? `<span class="tl-crit" data-testid="timeline-critical" style="${place(critical, total)}" title="${esc(`on the critical path: ${duration(critical.endMs - critical.startMs)}`)}"></span>`
    : '';
  const waited = (t.waits ?? []).reduce((n, w) => n + w.endMs - w.startMs, 0);
  const title = `${s.id}: ${s.status}, ${duration(t.startMs)} – ${duration(t.endMs)} (${duration(t.endMs - t.startMs)}${waited > 0 ? `, of which ${duration(waited)} waiting` : ''}${s.lanes ? `; its runs on up to ${s.lanes} lanes` : ''})`;
  return (
    `<li class="tl-row st-${s.status}${critical ? ' tl-critical' : ''}" data-testid="timeline-bar" data-id="${esc(s.id)}" data-start="${t.startMs}" data-end="${t.endMs}"${critical ? ' data-critical="true"' : ''}>` +
    `<a class="tl-label" href="${href(scenarioAnchor(s.id))}">${esc(s.id)}</a>` +
    `<span class="tl-track"><span class="tl-bar" style="${place(t, total)}" title="${esc(title)}">${waits}</span>${crit}</span></li>`
  );
}

/**
 * The timeline section of the report, or '' for a run without one (a merged report): the phases, a bar per
 * scenario in start order, the critical path marked, and the scenarios that bounded the wall time named.
 */
export function renderTimeline(run: RunResult): string {
  const t = run.timeline;
  const timed = run.scenarios.filter((s) => s.timing !== undefined);
  if (!t || timed.length === 0) return '';
  const total = Math.max(1, run.durationMs, t.cleanup?.endMs ?? 0, t.scenarios.endMs);
  const critical = new Map(t.criticalPath.map((c) => [c.id, c]));
  const rows = [...timed]
    .sort((a, b) => a.timing!.startMs - b.timing!.startMs || a.timing!.endMs - b.timing!.endMs)
    .map((s) => scenarioRow(s, critical.get(s.id), total))
    .join('');
  const bounds = boundingScenarios(t.criticalPath)
    .map(
      (c) =>
        `<li><a href="${href(scenarioAnchor(c.id))}">${esc(c.id)}</a> ${esc(duration(c.endMs - c.startMs))}${c.waitedMs ? ` <span class="muted">(${esc(duration(c.waitedMs))} waiting for the clock)</span>` : ''}</li>`,
    )
    .join('');
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => `<span class="tl-tick" style="left:${(f * 100).toFixed(0)}%">${esc(duration(f * total))}</span>`)
    .join('');
  return (
    `<section id="timeline"><h2>Timeline</h2>` +
    `<p class="muted" data-testid="timeline-summary">${esc(duration(run.durationMs))} wall: setup ${esc(duration(t.setup.endMs - t.setup.startMs))}, scenarios ${esc(duration(t.scenarios.endMs - t.scenarios.startMs))} (${t.concurrency === 1 ? 'one at a time' : `up to ${t.concurrency} at once`})${t.cleanup ? `, cleanup ${esc(duration(t.cleanup.endMs - t.cleanup.startMs))}` : ''}. ` +
    `The critical path (outlined) is the chain of scenarios that bounded the wall time, each let go on when the one before it ended; a shorter run needs a shorter chain.</p>` +
    (bounds ? `<p>Bounded by:</p><ol class="tl-bounds" data-testid="timeline-bounds">${bounds}</ol>` : '') +
    `<p class="tl-legend muted"><span class="tl-key tl-key-run"></span> running <span class="tl-key w-clock"></span> ${esc(WAIT_WORDS.clock)} <span class="tl-key w-run-end"></span> ${esc(WAIT_WORDS['run-end'])} <span class="tl-key w-slot"></span> ${esc(WAIT_WORDS.slot)} <span class="tl-key tl-key-crit"></span> critical path</p>` +
    `<div class="tl" data-testid="timeline" data-total="${total}"><div class="tl-row tl-axis"><span class="tl-label"></span><span class="tl-track">${ticks}</span></div>` +
    `<ol class="tl-rows">${phaseRow('setup', 'timeline-setup', t.setup, total)}${rows}${phaseRow('cleanup', 'timeline-cleanup', t.cleanup, total)}</ol></div></section>`
  );
}

/** The timeline's stylesheet (appended to the report's). */
export const TIMELINE_STYLE = `
.tl{margin:8px 0;font-size:12px}
.tl-rows{list-style:none;margin:0;padding:0}
.tl-row{display:flex;align-items:center;gap:8px;height:15px}
.tl-label{flex:0 0 300px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-family:ui-monospace,monospace;font-size:11px;color:var(--fg);text-decoration:none}
a.tl-label:hover{text-decoration:underline}
.tl-track{position:relative;flex:1;height:11px;background:var(--panel);border-radius:2px}
.tl-bar{position:absolute;top:0;bottom:0;min-width:2px;background:var(--c,var(--uncovered));border-radius:2px;overflow:hidden}
.tl-phase .tl-bar{background:var(--uncovered)}
.tl-wait{position:absolute;top:0;bottom:0;min-width:1px;background:repeating-linear-gradient(135deg,var(--bg) 0 2px,transparent 2px 4px);opacity:.85}
.tl-wait.w-run-end{background:var(--bg);opacity:.7}
.tl-wait.w-slot{background:repeating-linear-gradient(90deg,var(--bg) 0 1px,transparent 1px 3px)}
.tl-crit{position:absolute;top:-2px;bottom:-2px;min-width:2px;border:2px solid var(--fg);border-radius:3px;pointer-events:none}
.tl-critical .tl-label{font-weight:700}
.tl-axis{height:16px}.tl-axis .tl-track{background:none;border-bottom:1px solid var(--line)}
.tl-tick{position:absolute;bottom:1px;transform:translateX(-50%);color:var(--muted);font-size:11px;white-space:nowrap}
.tl-tick:first-child{transform:none}.tl-tick:last-child{transform:translateX(-100%)}
.tl-bounds{margin:0 0 6px 18px;padding:0}
.tl-legend{display:flex;flex-wrap:wrap;align-items:center;gap:4px 8px}
.tl-key{display:inline-block;width:18px;height:10px;border-radius:2px;background:var(--passed);position:relative;vertical-align:middle}
.tl-key.w-clock{background:repeating-linear-gradient(135deg,var(--bg) 0 2px,var(--passed) 2px 4px)}
.tl-key.w-run-end{background:var(--passed);opacity:.35}
.tl-key.w-slot{background:repeating-linear-gradient(90deg,var(--bg) 0 1px,var(--passed) 1px 3px)}
.tl-key-crit{background:none;border:2px solid var(--fg)}
@media print{.tl-row{break-inside:avoid}}
`;
