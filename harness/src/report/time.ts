/** Where a run's wall time went, in words: the summary's last lines on the console and in summary.md. */
import type { RunResult } from '../runner/types.js';
import { boundingScenarios } from '../runner/timeline.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Where the wall time went, as the summary's last lines: the run's phases, and the three scenarios of the critical
 * path that took longest (none when nothing ran).
 */
export function timeLines(run: RunResult): string[] {
  const t = run.timeline;
  if (!t || t.criticalPath.length === 0) return [];
  const phases = [
    `setup ${seconds(t.setup.endMs - t.setup.startMs)}`,
    `scenarios ${seconds(t.scenarios.endMs - t.scenarios.startMs)} (${t.concurrency === 1 ? 'one at a time' : `up to ${t.concurrency} at once`})`,
    ...(t.cleanup ? [`cleanup ${seconds(t.cleanup.endMs - t.cleanup.startMs)}`] : []),
  ];
  const bounds = boundingScenarios(t.criticalPath).map(
    (c) =>
      `${c.id} ${seconds(c.endMs - c.startMs)}${c.waitedMs ? ` (${seconds(c.waitedMs)} waiting for the clock)` : ''}`,
  );
  return [
    `Time: ${seconds(run.durationMs)} wall — ${phases.join(', ')}`,
    `Bounded by: ${bounds.join(' · ')} (the critical path: report.html draws the timeline)`,
  ];
}
