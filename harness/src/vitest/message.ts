/** Test names, failure messages and replay commands of the vitest integration. */
import path from 'node:path';
import type { Exchange, ScenarioResult } from '../runner/types.js';
import type { Scenario } from '../suite/types.js';
import type { SeedSource } from './options.js';

/**
 * The `it` name of a scenario: `<id> [<level>] <rule> <rule>…`, so that vitest's `-t` selects by scenario id
 * (`-t articles/post-`), by rule id (`-t 4.2-post`) or by level (`-t '\[SHOULD\]'`).
 */
export function scenarioTestName(scenario: Pick<Scenario, 'id' | 'level' | 'rules'>): string {
  return `${scenario.id} [${scenario.level}] ${scenario.rules.join(' ')}`.trimEnd();
}

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A `-t` pattern (a regular expression) that selects exactly one scenario's test. */
export function testNamePattern(id: string): string {
  return `${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\[`;
}

/** What a replay command needs to know about the run. */
export interface ReplayContext {
  seed: number;
  seedSource: SeedSource;
  /** The vitest test file, relative to the working directory when possible. */
  testFile?: string;
  /** When the target is a URL: the `conform run` equivalent can be printed too. */
  targetUrl?: string;
  /** The profile file when it was given as one (for the `conform run` equivalent). */
  profileFile?: string;
  runs: number;
  defaultRuns: number;
}

/**
 * The vitest command that reruns one scenario with the same seed and, for a property, jumps straight to the shrunk
 * counterexample (`CONFORM_REPLAY=id=path`).
 */
export function vitestReplayCommand(result: Pick<ScenarioResult, 'id' | 'counterexample'>, ctx: ReplayContext): string {
  const env: string[] = [];
  if (ctx.seedSource !== 'option') env.push(`CONFORM_SEED=${ctx.seed}`);
  if (result.counterexample?.path)
    env.push(`CONFORM_REPLAY=${shellQuote(`${result.id}=${result.counterexample.path}`)}`);
  const file = ctx.testFile ? ` ${shellQuote(ctx.testFile)}` : '';
  return [...env, `npx vitest run${file} -t ${shellQuote(testNamePattern(result.id))}`].join(' ');
}

/** The `conform run` command that reproduces one scenario against a target reachable by URL. */
export function cliReplayCommand(
  result: Pick<ScenarioResult, 'id' | 'counterexample'>,
  ctx: ReplayContext,
): string | undefined {
  if (!ctx.targetUrl) return undefined;
  const parts = ['npx', 'conform', 'run', '--target', ctx.targetUrl, '--filter', result.id, '--seed', String(ctx.seed)];
  if (ctx.runs !== ctx.defaultRuns) parts.push('--runs', String(ctx.runs));
  if (ctx.profileFile) parts.push('--profile', ctx.profileFile);
  if (result.counterexample?.path) parts.push('--replay', result.counterexample.path);
  return parts.map(shellQuote).join(' ');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

const SHOWN_HEADERS = ['content-type', 'location', 'allow', 'www-authenticate', 'content-length'];

function describeExchange(x: Exchange): string[] {
  const lines = [`→ ${x.request.method} ${x.request.url}`];
  if (x.error) lines.push(`✗ ${x.error.code}: ${x.error.message}`);
  if (x.response) {
    const headers = SHOWN_HEADERS.flatMap((h) => {
      const v = x.response?.headers[h];
      return v === undefined ? [] : [`${h}: ${Array.isArray(v) ? v.join(', ') : v}`];
    });
    lines.push(`← ${x.response.status}${headers.length ? `  ${headers.join('; ')}` : ''}`);
    if (x.response.body) lines.push(`  body: ${clip(JSON.stringify(x.response.body), 400)}`);
  }
  return lines;
}

/**
 * The message of a failed (or errored) scenario's test: the harness's reason first, then where the scenario is,
 * the failing step, the shrunk counterexample, the seed and the replay command(s), and the last exchange.
 */
export function failureMessage(result: ScenarioResult, ctx: ReplayContext): string {
  const lines = [`${result.id} [${result.level}] ${result.status}: ${result.reason ?? '(no reason given)'}`];
  const field = (name: string, value: string) => lines.push(`  ${name.padEnd(14)} ${value}`);
  field('scenario', `${result.file}:${result.line} — ${result.title}`);
  field('rules', result.rules.join(', '));
  if (result.failure)
    field('failing step', `${result.failure.step}${result.failure.stepName ? ` (${result.failure.stepName})` : ''}`);
  if (result.counterexample) {
    const c = result.counterexample;
    field(
      'counterexample',
      `${clip(JSON.stringify(c.values), 2000)} (after ${c.shrinks} shrink${c.shrinks === 1 ? '' : 's'})`,
    );
  }
  field(
    'seed',
    `${ctx.seed}${result.counterexample ? ` (scenario seed ${result.counterexample.seed}, fast-check path "${result.counterexample.path}")` : ''}; ${result.runs} run${result.runs === 1 ? '' : 's'}, ${result.requests} request${result.requests === 1 ? '' : 's'}`,
  );
  field('replay', vitestReplayCommand(result, ctx));
  const cli = cliReplayCommand(result, ctx);
  if (cli) field('with the CLI', cli);
  const last = result.transcript[result.transcript.length - 1];
  if (last) {
    lines.push('  last exchange');
    for (const l of describeExchange(last)) lines.push(`    ${l}`);
  }
  return lines.join('\n');
}

/** A path relative to the working directory when it lies below it. */
export function relativeToCwd(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}
