import type { RunResult } from '../runner/types.js';

/** `report.json` (CONTRACT.md): the run result as stable, pretty JSON. */
export function renderJson(run: RunResult): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}
