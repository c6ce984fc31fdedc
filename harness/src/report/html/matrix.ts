/** The compliance matrix: rules counted by spec section, level and status. */
import type { RuleResult, RuleStatus } from '../../runner/types.js';
import type { Level } from '../../suite/types.js';
import { esc, href, plural } from './escape.js';

/** Matrix columns, strongest first. */
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'MAY'];

/** Rule statuses in the order a cell lists them. */
export const RULE_STATUSES: readonly RuleStatus[] = ['passed', 'failed', 'errored', 'skipped', 'uncovered'];

/** Counts of rules by status. */
export type StatusCounts = Record<RuleStatus, number>;

function zero(): StatusCounts {
  return { passed: 0, failed: 0, errored: 0, skipped: 0, uncovered: 0 };
}

function numericParts(section: string): number[] | undefined {
  return /^\d+(\.\d+)*$/.test(section) ? section.split('.').map(Number) : undefined;
}

/**
 * Sections in spec order: numbered SPEC.md sections (`1`, `2`, `4.1`, …, `8`) numerically, then the others
 * (`RFC 9110`, …) in the order the catalogue first names them.
 *
 * @param rules - the run's rules (catalogue order).
 * @returns each section once.
 */
export function sectionsInOrder(rules: readonly RuleResult[]): string[] {
  const firstSeen = new Map<string, number>();
  for (const [i, r] of rules.entries()) if (!firstSeen.has(r.section)) firstSeen.set(r.section, i);
  return [...firstSeen.keys()].sort((a, b) => compareSections(a, b, firstSeen));
}

function compareSections(a: string, b: string, firstSeen: ReadonlyMap<string, number>): number {
  const pa = numericParts(a);
  const pb = numericParts(b);
  if (pa && pb) {
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      const d = (pa[i] ?? -1) - (pb[i] ?? -1);
      if (d !== 0) return d;
    }
    return 0;
  }
  if (pa) return -1;
  if (pb) return 1;
  return (firstSeen.get(a) ?? 0) - (firstSeen.get(b) ?? 0);
}

/**
 * Rules sorted by section (spec order), keeping catalogue order within a section.
 *
 * @param rules - the run's rules.
 */
export function rulesInSectionOrder(rules: readonly RuleResult[]): RuleResult[] {
  const rank = new Map(sectionsInOrder(rules).map((s, i) => [s, i]));
  return rules
    .map((r, i) => ({ r, i }))
    .sort((x, y) => (rank.get(x.r.section) ?? 0) - (rank.get(y.r.section) ?? 0) || x.i - y.i)
    .map((x) => x.r);
}

/** Counts per section and level, with per-section, per-level and overall totals. */
export interface Matrix {
  sections: string[];
  cells: Map<string, Record<Level, StatusCounts>>;
  sectionTotals: Map<string, StatusCounts>;
  levelTotals: Record<Level, StatusCounts>;
  total: StatusCounts;
}

/**
 * Counts the run's rules by section, level and status.
 *
 * @param rules - the run's rules.
 */
export function buildMatrix(rules: readonly RuleResult[]): Matrix {
  const sections = sectionsInOrder(rules);
  const cells = new Map<string, Record<Level, StatusCounts>>(
    sections.map((s) => [s, { MUST: zero(), SHOULD: zero(), MAY: zero() }]),
  );
  const sectionTotals = new Map<string, StatusCounts>(sections.map((s) => [s, zero()]));
  const levelTotals: Record<Level, StatusCounts> = { MUST: zero(), SHOULD: zero(), MAY: zero() };
  const total = zero();
  for (const r of rules) {
    cells.get(r.section)![r.level][r.status]++;
    sectionTotals.get(r.section)![r.status]++;
    levelTotals[r.level][r.status]++;
    total[r.status]++;
  }
  return { sections, cells, sectionTotals, levelTotals, total };
}

/**
 * `id` of the first rules-table row of a section (whitespace in `RFC 9110` becomes `-`).
 *
 * @param section - a section name.
 */
export function sectionAnchor(section: string): string {
  return `rules-${section.replace(/\s+/g, '-')}`;
}

function sum(c: StatusCounts): number {
  return RULE_STATUSES.reduce((n, s) => n + c[s], 0);
}

/** One cell: a stacked bar and a count per status; `data-testid="matrix-{row}-{col}-{status}"` holds each number. */
function cell(row: string, col: string, counts: StatusCounts, tag: 'td' | 'th' = 'td'): string {
  const n = sum(counts);
  const bar =
    n === 0
      ? ''
      : `<div class="bar" aria-hidden="true">${RULE_STATUSES.filter((s) => counts[s] > 0)
          .map((s) => `<span class="seg st-${s}" style="flex-grow:${counts[s]}"></span>`)
          .join('')}</div>`;
  const chips = RULE_STATUSES.map(
    (s) =>
      `<span class="cnt st-${s}${counts[s] === 0 ? ' zero' : ''}" title="${esc(`${counts[s]} ${s}`)}"><b data-testid="${esc(`matrix-${row}-${col}-${s}`)}">${counts[s]}</b> ${s}</span>`,
  ).join('');
  return `<${tag} class="cell${n === 0 ? ' empty' : ''}" data-testid="${esc(`matrix-${row}-${col}`)}">${bar}<div class="cnts">${chips}</div>${n === 0 ? '<span class="none">—</span>' : ''}</${tag}>`;
}

/**
 * The matrix table: one row per section in spec order, MUST / SHOULD / MAY and all-levels columns, a totals row.
 *
 * @param rules - the run's rules.
 */
export function renderMatrix(rules: readonly RuleResult[]): string {
  const m = buildMatrix(rules);
  const head = `<thead><tr><th scope="col">Section</th>${LEVELS.map((l) => `<th scope="col" class="lvl-col">${l}</th>`).join('')}<th scope="col" class="lvl-col">All levels</th></tr></thead>`;
  const rows = m.sections.map((s) => {
    const label = /^\d/.test(s) ? `§ ${s}` : s;
    const total = m.sectionTotals.get(s)!;
    const bad = total.failed + total.errored > 0;
    return `<tr data-testid="${esc(`matrix-row-${s}`)}"${bad ? ' class="bad"' : ''}><th scope="row"><a href="${href(sectionAnchor(s))}">${esc(label)}</a><small>${plural(sum(total), 'rule')}</small></th>${LEVELS.map((l) => cell(s, l, m.cells.get(s)![l])).join('')}${cell(s, 'all', total)}</tr>`;
  });
  const foot = `<tfoot><tr data-testid="matrix-row-total"><th scope="row">Total<small>${plural(sum(m.total), 'rule')}</small></th>${LEVELS.map((l) => cell('total', l, m.levelTotals[l], 'td')).join('')}${cell('total', 'all', m.total)}</tr></tfoot>`;
  return `<table class="matrix" data-testid="matrix">${head}<tbody>${rows.join('')}</tbody>${foot}</table>`;
}
