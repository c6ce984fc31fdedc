/**
 * How much of the spec's MUST a run checked — what an auditor reads beside the verdict ("PASS — 58 of 61 MUST rules
 * checked; 3 not checked: profile lacks auth.oauth1 (3)"). A MUST rule of the server, in the selection, is checked
 * when a scenario judged it (passed or failed); skipped, errored and uncovered rules are not, grouped by why.
 */
import type { RunResult } from './types.js';

/** The MUST rules a run was asked to check, how many it checked, and why the others were not. */
export interface MustCoverage {
  total: number;
  checked: number;
  /** Whole percent, rounded down (100 only when every one was checked; 100 when there is none). */
  percent: number;
  /** The rules not checked, grouped by why, the largest group first. */
  notChecked: Array<{ why: string; rules: string[] }>;
}

/** The MUST coverage of `run`. */
export function mustCoverage(run: Pick<RunResult, 'rules' | 'scenarios'>): MustCoverage {
  const must = run.rules.filter(
    (r) => r.level === 'MUST' && (r.subject === undefined || r.subject === 'server') && r.selected !== false,
  );
  const checked = must.filter((r) => r.status === 'passed' || r.status === 'failed');
  const byId = new Map(run.scenarios.map((s) => [s.id, s]));
  const groups = new Map<string, string[]>();
  for (const r of must) {
    if (r.status === 'passed' || r.status === 'failed') continue;
    let why: string;
    if (r.status === 'uncovered') why = 'no scenario checks it';
    else if (r.status === 'errored') why = 'could not be judged (a setup failed or the target did not answer)';
    else {
      const first = r.scenarios.map((id) => byId.get(id)).find((s) => s?.status === 'skipped');
      const reason = first && 'reason' in first ? String(first.reason) : 'skipped';
      why = reason.replace(/ \(.*$|: opt-in.*$/s, '');
    }
    groups.set(why, [...(groups.get(why) ?? []), r.id]);
  }
  const total = must.length;
  return {
    total,
    checked: checked.length,
    percent: total === 0 ? 100 : Math.floor((checked.length * 100) / total),
    notChecked: [...groups].map(([why, rules]) => ({ why, rules })).sort((a, b) => b.rules.length - a.rules.length),
  };
}

/** "58 of 61 MUST rules checked; 3 not checked: profile lacks auth.oauth1 (2), profile lacks … (1)". */
export function coverageText(c: MustCoverage, most = 3): string {
  const head = `${c.checked} of ${c.total} MUST rule${c.total === 1 ? '' : 's'} checked`;
  const missing = c.total - c.checked;
  if (missing === 0) return head;
  const shown = c.notChecked.slice(0, most).map((g) => `${g.why} (${g.rules.length})`);
  const more = c.notChecked.length > most ? `, ${c.notChecked.length - most} other reasons` : '';
  return `${head}; ${missing} not checked: ${shown.join(', ')}${more}`;
}
