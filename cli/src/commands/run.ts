/** `conform run`: resolve options once, load suite and profile, run, write reports, map the verdicts to an exit code. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createAuthenticator } from '../../../harness/src/auth/authenticator.js';
import { assertSignersAgree } from '../../../harness/src/auth/vectors.js';
import { ConformError } from '../../../harness/src/errors.js';
import { RUN_OPTION_SPEC, flagNaming, intFromText, resolveRunOptions } from '../../../harness/src/runner/options.js';
import { createHttpClient } from '../../../harness/src/http/client.js';
import { createConsoleReporter } from '../../../harness/src/report/console.js';
import { REPORTER_NAMES } from '../../../harness/src/report/registry.js';
import { applyBaseline, baselineFrom, loadBaseline } from '../../../harness/src/runner/baseline.js';
import { githubOutputs, prepareReportDir, writeReports } from '../output.js';
import { runSuite, selectScenarios } from '../../../harness/src/engine/run-suite.js';
import { runVerdict } from '../../../harness/src/runner/verdict.js';
import type { RunResult } from '../../../harness/src/runner/types.js';
import { basesFor } from '../../../harness/src/runner/bases.js';
import { loadRulesSync, loadSuiteSync } from '../../../harness/src/suite/load.js';
import { parseFaultNames, parseVariantNames, startServer } from '../../../reference-server/src/index.js';
import { loadVariantProfile } from '../variant-profile.js';
import { EMBEDDED_TOKEN_TTL, embeddedProfile } from '../embedded.js';
import { faultList, listOption, parse } from '../args.js';
import { defaults, toolVersion, type CliIo } from '../io.js';
import { RUN_HELP } from './run-help.js';

export interface RunCommandOptions {
  /** The `--target` URLs, at most one per scheme, in the order given (the first is the primary base). */
  targets: string[];
  profileFile: string;
  embedded: boolean;
  faults: string[];
  variants: string[];
  insecure: boolean;
  ca?: string;
  specs: string[];
  rulesFile: string;
  vectorsFile: string;
  filter: string[];
  seed: number;
  runs: number;
  replayPath?: string;
  timeoutMs: number;
  maxResponseBytes: number;
  concurrency: number;
  reportDir: string;
  reporters: string[];
  shard?: { index: number; total: number };
  baselineFile?: string;
  writeBaselineFile?: string;
  strict: boolean;
  /** Leave what the run created on the target. */
  keep: boolean;
  quiet: boolean;
  color: boolean;
  /** Redraw a progress line (stdout is a terminal). */
  live: boolean;
}

/** The `--target` URLs: each http:// or https://, at most one of each scheme. */
function checkTargets(targets: readonly string[]): string[] {
  for (const t of targets) {
    if (!/^https?:\/\/[^\s/]+/.test(t))
      throw new ConformError('CONFORM_USAGE', `--target expects an http:// or https:// URL, got "${t}"`);
  }
  for (const scheme of ['http:', 'https:']) {
    const same = targets.filter((t) => t.startsWith(scheme));
    if (same.length > 1)
      throw new ConformError(
        'CONFORM_USAGE',
        `--target given twice for ${scheme}// (${same.join(', ')}): give one plain-HTTP and one TLS base URL at most`,
      );
  }
  return [...targets];
}

export function parseRunArgs(argv: string[], io: CliIo): RunCommandOptions | 'help' {
  const { values } = parse(argv, {
    target: { type: 'string', multiple: true },
    profile: { type: 'string' },
    embedded: { type: 'boolean' },
    fault: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
    insecure: { type: 'boolean' },
    ca: { type: 'string' },
    specs: { type: 'string', multiple: true },
    rules: { type: 'string' },
    vectors: { type: 'string' },
    filter: { type: 'string', multiple: true },
    seed: { type: 'string' },
    runs: { type: 'string' },
    replay: { type: 'string' },
    timeout: { type: 'string' },
    'max-response-bytes': { type: 'string' },
    concurrency: { type: 'string' },
    'report-dir': { type: 'string' },
    reporter: { type: 'string', multiple: true },
    shard: { type: 'string' },
    baseline: { type: 'string' },
    'write-baseline': { type: 'string' },
    strict: { type: 'boolean' },
    keep: { type: 'boolean' },
    quiet: { type: 'boolean' },
    'no-color': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const reporters = listOption(values.reporter ?? [REPORTER_NAMES.join(',')]);
  let shard: { index: number; total: number } | undefined;
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    const index = Number(m?.[1]);
    const total = Number(m?.[2]);
    if (!m || total < 1 || index < 1 || index > total)
      throw new ConformError('CONFORM_USAGE', `--shard expects I/N with 1 <= I <= N, got "${values.shard}"`);
    shard = { index, total };
  }
  for (const r of reporters) {
    if (!REPORTER_NAMES.includes(r))
      throw new ConformError('CONFORM_USAGE', `unknown reporter "${r}" (known: ${REPORTER_NAMES.join(', ')})`);
  }
  const targets = checkTargets(values.target ?? []);
  if (targets.length > 0 && values.embedded)
    throw new ConformError('CONFORM_USAGE', '--target and --embedded cannot be combined');
  const faults = faultList(values.fault, parseFaultNames);
  if (faults.length > 0 && !values.embedded)
    throw new ConformError(
      'CONFORM_USAGE',
      '--fault needs --embedded (or run `conform serve --fault NAME` and point --target at it)',
    );
  const variants = faultList(values.variant, parseVariantNames);
  if (variants.length > 0 && !values.embedded)
    throw new ConformError(
      'CONFORM_USAGE',
      '--variant needs --embedded (or run `conform serve --variant NAME --profile-out FILE` and point --target and --profile at it)',
    );
  const abs = (p: string) => path.resolve(io.cwd, p);
  const options: RunCommandOptions = {
    targets,
    profileFile: values.profile !== undefined ? abs(values.profile) : defaults.profile(),
    embedded: values.embedded ?? false,
    faults,
    variants,
    insecure: values.insecure ?? false,
    ...(values.ca !== undefined ? { ca: abs(values.ca) } : {}),
    specs: values.specs?.length ? values.specs.map(abs) : [defaults.specs()],
    rulesFile: values.rules !== undefined ? abs(values.rules) : defaults.rules(),
    vectorsFile: values.vectors !== undefined ? abs(values.vectors) : defaults.vectors(),
    filter: listOption(values.filter),
    ...resolveRunOptions(
      {
        seed: intFromText(values.seed, '--seed'),
        runs: intFromText(values.runs, '--runs'),
        timeoutMs: intFromText(values.timeout, '--timeout'),
        maxResponseBytes: intFromText(values['max-response-bytes'], '--max-response-bytes'),
        concurrency: intFromText(values.concurrency, '--concurrency'),
      },
      {},
      flagNaming,
    ),
    ...(values.replay !== undefined ? { replayPath: values.replay } : {}),
    reportDir: abs(values['report-dir'] ?? 'reports'),
    reporters,
    ...(shard ? { shard } : {}),
    ...(values.baseline !== undefined ? { baselineFile: abs(values.baseline) } : {}),
    ...(values['write-baseline'] !== undefined ? { writeBaselineFile: abs(values['write-baseline']) } : {}),
    strict: values.strict ?? false,
    keep: values.keep ?? false,
    quiet: values.quiet ?? false,
    color: !values['no-color'] && !io.env['NO_COLOR'] && io.stdout.isTTY === true,
    live: io.stdout.isTTY === true && io.env['TERM'] !== 'dumb',
  };
  if (values.profile === undefined && !values.embedded)
    throw new ConformError(
      'CONFORM_USAGE',
      `${targets.length > 0 ? '--target needs --profile FILE' : 'nothing to run against: pass --target URL with --profile FILE, or --embedded'}: the profile says what your server offers where the spec leaves room (its users and credentials, schemes, open points), and conform will not guess it. Write one from docs/profile-keys.md, or start from the reference server's (reference-server/profile.yaml in the package) and name it with --profile to check your server against the reference server's choices.`,
    );
  return options;
}

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
    parts.push('--profile', rel(options.profileFile));
  if (options.insecure) parts.push('--insecure');
  if (options.ca !== undefined) parts.push('--ca', rel(options.ca));
  if (options.specs.length !== 1 || options.specs[0] !== defaults.specs())
    options.specs.forEach((s) => parts.push('--specs', rel(s)));
  if (counterexamplePath) parts.push('--replay', counterexamplePath);
  return parts.map((p) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const options = parseRunArgs(argv, io);
  if (options === 'help') {
    io.stdout.write(RUN_HELP);
    return 0;
  }
  await assertSignersAgree(options.vectorsFile);
  await prepareReportDir(options.reportDir);
  const catalogue = loadRulesSync(options.rulesFile);
  const suite = loadSuiteSync(options.specs, catalogue);
  let profile = loadVariantProfile(options.profileFile, parseVariantNames(options.variants));
  const baseline = options.baselineFile
    ? await loadBaseline(options.baselineFile, new Set(suite.scenarios.map((s) => s.id)))
    : undefined;
  const selected = selectScenarios(suite.scenarios, options.filter);
  if (selected.length === 0) {
    io.stderr.write(
      `conform run: no scenario selected${options.filter.length ? ` by --filter ${options.filter.join(', ')}` : ''} (${suite.scenarios.length} loaded)\n`,
    );
    return 2;
  }
  const server = options.embedded
    ? await startServer({
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
    const client = createHttpClient({
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      insecure: options.insecure || (profile.target.insecure && !server),
      ...(ca !== undefined ? { ca } : {}),
    });
    const printer = options.reporters.includes('console')
      ? createConsoleReporter({
          write: (s) => io.stdout.write(s),
          color: options.color,
          verbose: !options.quiet,
          strict: options.strict,
          live: options.live,
        })
      : undefined;
    let run: RunResult;
    try {
      run = await runSuite(
        suite,
        {
          bases,
          seed: options.seed,
          runs: options.runs,
          filter: options.filter,
          strict: options.strict,
          timeoutMs: options.timeoutMs,
          concurrency: options.concurrency,
          version: toolVersion(),
          ...(options.replayPath ? { replayPath: options.replayPath } : {}),
          ...(options.shard ? { shard: options.shard } : {}),
          replayCommand: (r) => replayCommand(options, io, r.id, r.counterexample?.path),
          ...(options.keep ? { keep: true } : {}),
        },
        { client, profile, authenticator: createAuthenticator({ profile }), ...(printer ? { onEvent: printer } : {}) },
      );
    } finally {
      await client.close();
    }
    if (baseline) {
      run = applyBaseline(run, baseline);
      const b = run.baseline;
      if (printer && b) {
        io.stdout.write(
          `Baseline ${path.relative(io.cwd, baseline.file) || baseline.file}: ${b.stillFailing.length} expected failure${b.stillFailing.length === 1 ? '' : 's'} still failing`,
        );
        io.stdout.write(
          b.nowPassing.length ? `; now passing, remove from the baseline: ${b.nowPassing.join(', ')}\n` : '\n',
        );
      }
    }
    const written = await writeReports(run, options.reporters, options.reportDir, io);
    if (options.writeBaselineFile) {
      await writeFile(options.writeBaselineFile, baselineFrom(run));
      written.push(path.relative(io.cwd, options.writeBaselineFile) || options.writeBaselineFile);
    }
    await githubOutputs(run, io);
    if (printer) io.stdout.write(`Reports: ${written.join(', ')}\n`);
    const verdict = runVerdict(run);
    if (verdict.verdict === 'INCONCLUSIVE') io.stderr.write(`conform run: ${verdict.why}\n`);
    return verdict.exitCode;
  } finally {
    await server?.close();
  }
}
