/** `conform run`: resolve options once, load suite and profile, run, write reports, map the verdicts to an exit code. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createAuthenticator } from '../../../harness/src/auth/authenticator.js';
import { assertSignersAgree } from '../../../harness/src/auth/vectors.js';
import { ConformError } from '../../../harness/src/errors.js';
import { RUN_OPTION_SPEC } from '../../../harness/src/runner/options.js';
import { createHttpClient } from '../../../harness/src/http/client.js';
import { createConsoleReporter } from '../../../harness/src/report/console.js';
import { applyBaseline, baselineFrom, loadBaseline } from '../../../harness/src/runner/baseline.js';
import {
  githubOutputs,
  prepareOutputFile,
  prepareReportDir,
  writeAtomic,
  writeReports,
  writeScripts,
} from '../output.js';
import { renderHar } from '../../../harness/src/report/har.js';
import { runSuite, selectScenarios } from '../../../harness/src/engine/run-suite.js';
import { runVerdict, type RunVerdictInfo } from '../../../harness/src/runner/verdict.js';
import type { RunResult } from '../../../harness/src/runner/types.js';
import { basesFor } from '../../../harness/src/runner/bases.js';
import { loadRulesSync, loadSuiteSync } from '../../../harness/src/suite/load.js';
// The reference server itself is loaded only for --embedded (below): a run against a target never needs its code.
import { parseFaultNames } from '../../../reference-server/src/faults/registry.js';
import { parseVariantNames } from '../../../reference-server/src/variants.js';
import { loadVariantProfile, profileFromText } from '../variant-profile.js';
import { EMBEDDED_TOKEN_TTL, embeddedProfile } from '../embedded.js';
import { defaults, readStdin, toolVersion, type CliIo } from '../io.js';
import { interruptSignal } from '../interrupt.js';
import { failedOf } from '../rerun.js';
import { RUN_HELP } from './run-help.js';
import { parseRunArgs, type RunCommandOptions } from './run-options.js';

/** The command line that reproduces one scenario's result. */
export function replayCommand(
  options: RunCommandOptions,
  io: CliIo,
  scenarioId: string,
  counterexamplePath?: string,
): string {
  const rel = (p: string) => path.relative(io.cwd, p) || '.';
  const parts = ['conform', 'run', '--filter', scenarioId, '--seed', String(options.seed)];
  if (options.runs !== RUN_OPTION_SPEC.runs.default) parts.push('--runs', String(options.runs));
  if (options.embedded)
    parts.push(
      '--embedded',
      ...options.faults.flatMap((f) => ['--fault', f]),
      ...options.variants.flatMap((v) => ['--variant', v]),
    );
  for (const t of options.targets) parts.push('--target', t);
  if (!options.embedded || options.profileFile !== defaults.profile())
    parts.push('--profile', options.profileFile === '-' ? '-' : rel(options.profileFile));
  if (options.insecure) parts.push('--insecure');
  if (options.ca !== undefined) parts.push('--ca', rel(options.ca));
  if (options.specs.length !== 1 || options.specs[0] !== defaults.specs())
    options.specs.forEach((s) => parts.push('--specs', rel(s)));
  if (counterexamplePath) parts.push('--replay', counterexamplePath);
  return parts.map((p) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** `--json`: the run's verdict and counts, and where the reports are — for a script, on stdout. */
function jsonSummary(
  run: RunResult,
  verdict: RunVerdictInfo,
  reports: string[],
  scripts: string[],
): Record<string, unknown> {
  const rules: Record<string, number> = {};
  for (const r of run.rules) rules[r.status] = (rules[r.status] ?? 0) + 1;
  return {
    verdict: verdict.verdict,
    exitCode: verdict.exitCode,
    why: verdict.why,
    coverage: {
      mustRules: verdict.coverage.total,
      checked: verdict.coverage.checked,
      percent: verdict.coverage.percent,
      notChecked: verdict.coverage.notChecked,
    },
    target: run.target,
    seed: run.seed,
    scenarios: run.summary,
    rules,
    ...(run.unreachable ? { unreachable: run.unreachable } : {}),
    failed: run.scenarios
      .filter((x) => x.status === 'failed' || x.status === 'errored')
      .map((x) => ({ id: x.id, level: x.level, status: x.status })),
    reports,
    // The replay scripts of the failed and errored scenarios (REPORT-DIR/repro/, docs/ci.md).
    ...(scripts.length > 0 ? { scripts } : {}),
  };
}

/** The selection options given, as the 'no scenario selected' message names them. */
function selectionText(options: RunCommandOptions): string {
  const parts = [
    options.filter.length ? `--filter ${options.filter.join(', ')}` : '',
    options.exclude.length ? `--exclude ${options.exclude.join(', ')}` : '',
    options.levels.length ? `--level ${options.levels.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? ` by ${parts.join(' ')}` : '';
}

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const options = parseRunArgs(argv, io);
  if (options === 'help') {
    io.stdout.write(RUN_HELP);
    return 0;
  }
  await assertSignersAgree(options.vectorsFile);
  await prepareReportDir(options.reportDir);
  if (options.harFile !== undefined) await prepareOutputFile(options.harFile, '--har');
  const catalogue = loadRulesSync(options.rulesFile);
  const suite = loadSuiteSync(options.specs, catalogue);
  let profile =
    options.profileFile === '-'
      ? profileFromText('<stdin>', await readStdin(io), { env: io.env })
      : loadVariantProfile(options.profileFile, parseVariantNames(options.variants), { env: io.env });
  const baseline = options.baselineFile
    ? await loadBaseline(options.baselineFile, new Set(suite.scenarios.map((s) => s.id)))
    : undefined;
  const rerun = options.rerunFailed ? await failedOf(options.rerunFailed) : undefined;
  if (rerun) {
    const from = path.relative(io.cwd, options.rerunFailed!) || options.rerunFailed!;
    if (rerun.ids.length === 0) {
      io.stderr.write(`conform run: no scenario failed or errored in ${from}: nothing to rerun\n`);
      return 0;
    }
    const known = new Set(suite.scenarios.map((s) => s.id));
    const gone = rerun.ids.filter((id) => !known.has(id));
    if (gone.length) io.stderr.write(`conform run: no longer in the suite: ${gone.join(', ')}\n`);
    if (!options.seedGiven) options.seed = rerun.seed;
    io.stderr.write(
      `Rerunning the ${rerun.ids.length - gone.length} failed or errored scenarios of ${from} (seed ${options.seed})\n`,
    );
  }
  const only = rerun?.ids;
  const selected = selectScenarios(suite.scenarios, options.filter, { ...options, ...(only ? { only } : {}) });
  if (selected.length === 0) {
    io.stderr.write(`conform run: no scenario selected${selectionText(options)} (${suite.scenarios.length} loaded)\n`);
    return 2;
  }
  const server = options.embedded
    ? await (
        await import('../../../reference-server/src/index.js')
      ).startServer({
        port: 0,
        httpsPort: 0,
        tokenTtl: EMBEDDED_TOKEN_TTL,
        faults: parseFaultNames(options.faults),
        variants: parseVariantNames(options.variants),
      })
    : undefined;
  try {
    if (server) profile = embeddedProfile(profile, server);
    const bases = basesFor(server ? undefined : options.targets, profile);
    if (!bases)
      throw new ConformError(
        'CONFORM_USAGE',
        'no target: pass --target URL, set target.http in the profile, or use --embedded',
      );
    const ca =
      options.ca !== undefined
        ? await readFile(options.ca, 'utf8').catch((err: Error) => {
            throw new ConformError('CONFORM_USAGE', `cannot read --ca ${options.ca}: ${err.message}`);
          })
        : server?.certificate;
    const insecure = options.insecure || (profile.target.insecure && !server);
    // What the curl commands of the reports repeat: -k, or --cacert with the --ca file (an embedded server's own
    // certificate lives in memory only, and the server is gone when the reports are read).
    const tls = {
      ...(insecure ? { insecure } : {}),
      ...(options.ca !== undefined ? { ca: path.relative(io.cwd, options.ca) || options.ca } : {}),
    };
    const client = createHttpClient({
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      insecure,
      ...(ca !== undefined ? { ca } : {}),
    });
    // With --json, stdout carries the summary alone; what is for people goes to stderr.
    const human = options.json ? io.stderr : io.stdout;
    const printer = options.reporters.includes('console')
      ? createConsoleReporter({
          write: (s) => human.write(s),
          color: options.color,
          verbose: !options.quiet,
          strict: options.strict,
          live: options.live,
          tls,
          reportDir: path.relative(io.cwd, options.reportDir) || '.',
        })
      : undefined;
    let run: RunResult;
    const interrupt = io.signal ? undefined : interruptSignal(io.stderr);
    const signal = io.signal ?? interrupt?.signal;
    try {
      run = await runSuite(
        suite,
        {
          bases,
          ...(signal ? { signal } : {}),
          seed: options.seed,
          runs: options.runs,
          filter: options.filter,
          exclude: options.exclude,
          levels: options.levels,
          ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}),
          ...(only ? { only } : {}),
          strict: options.strict,
          timeoutMs: options.timeoutMs,
          ...(options.scenarioTimeoutMs !== undefined ? { scenarioTimeoutMs: options.scenarioTimeoutMs } : {}),
          concurrency: options.concurrency,
          version: toolVersion(),
          ...(options.replayPath ? { replayPath: options.replayPath } : {}),
          ...(options.shard ? { shard: options.shard } : {}),
          replayCommand: (r) => replayCommand(options, io, r.id, r.counterexample?.path),
          ...(options.keep ? { keep: true } : {}),
          ...(options.keepFailed ? { keepFailed: true } : {}),
          ...(options.noCredentialCheck ? { credentialCheck: false } : {}),
          tls,
        },
        { client, profile, authenticator: createAuthenticator({ profile }), ...(printer ? { onEvent: printer } : {}) },
      );
    } finally {
      interrupt?.dispose();
      await client.close();
    }
    if (baseline) {
      run = applyBaseline(run, baseline);
      const b = run.baseline;
      if (printer && b) {
        human.write(
          `Baseline ${path.relative(io.cwd, baseline.file) || baseline.file}: ${b.stillFailing.length} expected failure${b.stillFailing.length === 1 ? '' : 's'} still failing`,
        );
        human.write(
          b.nowPassing.length ? `; now passing, remove from the baseline: ${b.nowPassing.join(', ')}\n` : '\n',
        );
      }
    }
    const written = await writeReports(run, options.reporters, options.reportDir, io);
    const scripts = await writeScripts(run, options.reportDir, io);
    if (options.harFile !== undefined) {
      await writeAtomic(options.harFile, renderHar(run));
      written.push(path.relative(io.cwd, options.harFile) || options.harFile);
    }
    if (options.writeBaselineFile) {
      await writeFile(options.writeBaselineFile, baselineFrom(run));
      written.push(path.relative(io.cwd, options.writeBaselineFile) || options.writeBaselineFile);
    }
    await githubOutputs(run, { ...io, stdout: human });
    if (printer) human.write(`Reports: ${written.join(', ')}\n`);
    if (printer && scripts.length > 0)
      human.write(
        `Replay scripts of the failures (bash and curl; each request signed afresh): ${scripts.length} in ${path.join(path.relative(io.cwd, options.reportDir) || '.', 'repro')}${path.sep}\n`,
      );
    const verdict = runVerdict(run);
    if (verdict.verdict === 'INCONCLUSIVE' || verdict.verdict === 'INTERRUPTED')
      io.stderr.write(`conform run: ${verdict.why}\n`);
    if (options.json) io.stdout.write(`${JSON.stringify(jsonSummary(run, verdict, written, scripts), null, 2)}\n`);
    return verdict.exitCode;
  } finally {
    await server?.close();
  }
}
