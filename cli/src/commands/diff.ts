/**
 * `conform diff`: the same seeded requests against a target and against the reference server (the bundled one,
 * started in-process, unless --reference URL), every difference the spec cares about reported, `diff.json` written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createAuthenticator } from '../../../harness/src/auth/authenticator.js';
import { assertSignersAgree } from '../../../harness/src/auth/vectors.js';
import { runDiff, type DiffSideDeps } from '../../../harness/src/diff/run-diff.js';
import type {
  DiffEvent,
  DiffResult,
  DiffValue,
  GroupedDifference,
  OutcomeCounts,
  ScenarioDiff,
} from '../../../harness/src/diff/types.js';
import { ConformError } from '../../../harness/src/errors.js';
import { RUN_OPTION_SPEC, flagNaming, intFromText, resolveRunOptions } from '../../../harness/src/runner/options.js';
import { createHttpClient, type HttpClient } from '../../../harness/src/http/client.js';
import { loadProfileSync } from '../../../harness/src/profile/load.js';
import type { ResolvedProfile } from '../../../harness/src/profile/schema.js';
import { selectScenarios } from '../../../harness/src/engine/run-suite.js';
import { loadRulesSync, loadSuiteSync } from '../../../harness/src/suite/load.js';
import { startServer, type RunningServer } from '../../../reference-server/src/index.js';
import { listOption, parse } from '../args.js';
import { prepareReportDir, writeAtomic } from '../output.js';
import { defaults, toolVersion, type CliIo } from '../io.js';
import { basesFor } from '../../../harness/src/runner/bases.js';

/** Fewer value sets than `conform run`: each one is sent to two servers and compared field by field. */
const DIFF_RUNS = 20;

const HELP = `Usage: conform diff --target URL [options]

Replays the same seeded requests against the target and against the reference server, and reports every
difference in status, Allow (as a set), Location shape, WWW-Authenticate schemes and article data, ignoring what
the spec leaves open as the profiles say (docs/diff.md lists the equivalences).

Sides:
  --target URL              Base URL of the server under test (required); twice for both, one http:// and one https://
  --profile FILE            The target's profile (default: the reference server's)
  --reference URL           Compare with this server instead of the bundled reference started in-process
  --reference-profile FILE  The reference's profile (default: reference-server/profile.yaml)
  --insecure                Accept any TLS certificate
  --ca FILE                 Trust this CA certificate (PEM)

Selection and values:
  --filter TEXT             Only scenarios whose id, rule id or tag contains TEXT (repeatable)
  --seed N                  Seed for every generated value (default: random; the report records it)
  --runs N                  Value sets per property scenario (default ${DIFF_RUNS})

Requests and output:
  --timeout MS              Per-request timeout (default ${RUN_OPTION_SPEC.timeoutMs.default})
  --concurrency N           Scenarios in flight at once (default ${RUN_OPTION_SPEC.concurrency.default}; 1 runs them in catalogue order); each
                            scenario still sends to the reference and then to the target, run by run
  --report-dir DIR          Where diff.json goes (default reports/)
  --json                    Print diff.json to stdout instead of the console summary

Exit codes: 0 no differences · 1 differences · 2 usage error or nothing compared · 3 a side unreachable
`;

export interface ResolvedDiffOptions {
  /** One base URL per scheme (`--target` twice: http:// and https://). */
  target: string[];
  reference?: string;
  profileFile: string;
  referenceProfileFile: string;
  insecure: boolean;
  ca?: string;
  filter: string[];
  seed: number;
  runs: number;
  timeoutMs: number;
  concurrency: number;
  reportDir: string;
  json: boolean;
}

const URL_SHAPE = /^https?:\/\/[^\s/]+/;

export function parseDiffArgs(argv: string[], io: CliIo): ResolvedDiffOptions | 'help' {
  const { values } = parse(argv, {
    target: { type: 'string', multiple: true },
    reference: { type: 'string' },
    profile: { type: 'string' },
    'reference-profile': { type: 'string' },
    insecure: { type: 'boolean' },
    ca: { type: 'string' },
    filter: { type: 'string', multiple: true },
    seed: { type: 'string' },
    runs: { type: 'string' },
    timeout: { type: 'string' },
    concurrency: { type: 'string' },
    'report-dir': { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  if (values.target === undefined || values.target.length === 0)
    throw new ConformError('CONFORM_USAGE', '--target URL is required (the server to compare with the reference)');
  if (
    values.target.length > 2 ||
    (values.target.length === 2 && values.target[0]!.slice(0, 5) === values.target[1]!.slice(0, 5))
  )
    throw new ConformError('CONFORM_USAGE', '--target at most twice: one http:// and one https:// URL');
  for (const [name, v] of [
    ...values.target.map((t) => ['target', t] as const),
    ['reference', values.reference] as const,
  ]) {
    if (v !== undefined && !URL_SHAPE.test(v))
      throw new ConformError('CONFORM_USAGE', `--${name} expects an http:// or https:// URL, got "${v}"`);
  }
  const abs = (p: string) => path.resolve(io.cwd, p);
  return {
    target: values.target,
    ...(values.reference !== undefined ? { reference: values.reference } : {}),
    profileFile: values.profile !== undefined ? abs(values.profile) : defaults.profile(),
    referenceProfileFile:
      values['reference-profile'] !== undefined ? abs(values['reference-profile']) : defaults.profile(),
    insecure: values.insecure ?? false,
    ...(values.ca !== undefined ? { ca: abs(values.ca) } : {}),
    filter: listOption(values.filter),
    ...resolveRunOptions(
      {
        seed: intFromText(values.seed, '--seed'),
        runs: intFromText(values.runs, '--runs'),
        timeoutMs: intFromText(values.timeout, '--timeout'),
        concurrency: intFromText(values.concurrency, '--concurrency'),
      },
      { runs: DIFF_RUNS },
      flagNaming,
    ),
    reportDir: abs(values['report-dir'] ?? 'reports'),
    json: values.json ?? false,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Console text

function showValue(field: string, v: DiffValue): string {
  if (v === null) return '(absent)';
  if (Array.isArray(v)) return `{${v.join(', ')}}`;
  return typeof v === 'string' && field.startsWith('article.') ? JSON.stringify(v) : String(v);
}

function showOutcomes(c: OutcomeCounts): string {
  const parts = (['pass', 'fail', 'error'] as const).filter((k) => c[k] > 0).map((k) => `${c[k]} ${k}`);
  return parts.join(', ') || 'nothing run';
}

/** One difference: where (step, request) and what (field, reference vs target), with how many runs showed it. */
export function formatDifference(d: GroupedDifference, runs: number): string {
  const step = `step ${d.step}${d.stepName ? ` "${d.stepName}"` : ''}${d.exchange > 1 ? ` (${d.method} #${d.exchange})` : ''}`;
  const seen = runs > 1 ? ` (${d.runs.length} of ${runs} runs)` : '';
  const at = d.instance !== undefined ? ` on instance ${d.instance}` : '';
  return `${step} ${d.method} ${d.path}${at}: ${d.field}: reference ${showValue(d.field, d.reference)}, target ${showValue(d.field, d.target)}${seen}`;
}

const MAX_LINES = 12;

/** The console lines of one scenario. */
export function formatScenario(s: ScenarioDiff): string {
  if (s.status === 'skipped') return `  skipped    ${s.id} — ${s.reason ?? ''}\n`;
  const label = s.status === 'same' ? 'same      ' : 'DIFFERENT ';
  const head = `  ${label} ${s.id}  (reference: ${showOutcomes(s.outcomes.reference)}; target: ${showOutcomes(s.outcomes.target)})\n`;
  const lines = s.differences.slice(0, MAX_LINES).map((d) => `      ${formatDifference(d, s.runs)}\n`);
  if (s.differences.length > MAX_LINES)
    lines.push(`      … and ${s.differences.length - MAX_LINES} more (see diff.json)\n`);
  return head + lines.join('');
}

export function formatSummary(r: DiffResult): string {
  const s = r.summary;
  return `Summary: ${s.scenarios} scenarios: ${s.same} same, ${s.different} different (${s.differences} differences), ${s.skipped} skipped · seed ${r.seed} · ${(r.durationMs / 1000).toFixed(1)} s\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// The command

interface Side {
  deps: DiffSideDeps;
  client: HttpClient;
}

function side(
  profile: ResolvedProfile,
  target: string | readonly string[] | undefined,
  client: HttpClient,
  what: string,
): Side {
  const bases = basesFor(target, profile);
  if (!bases) throw new ConformError('CONFORM_USAGE', `no ${what} URL`);
  return { client, deps: { profile, bases, client, authenticator: createAuthenticator({ profile }) } };
}

export async function diffCommand(argv: string[], io: CliIo): Promise<number> {
  const options = parseDiffArgs(argv, io);
  if (options === 'help') {
    io.stdout.write(HELP);
    return 0;
  }
  await assertSignersAgree(defaults.vectors());
  await prepareReportDir(options.reportDir);
  const suite = loadSuiteSync([defaults.specs()], loadRulesSync(defaults.rules()));
  if (selectScenarios(suite.scenarios, options.filter).length === 0) {
    io.stderr.write(
      `conform diff: no scenario selected${options.filter.length ? ` by --filter ${options.filter.join(', ')}` : ''} (${suite.scenarios.length} loaded)\n`,
    );
    return 2;
  }
  const targetProfile = loadProfileSync(options.profileFile, { env: io.env });
  let referenceProfile = loadProfileSync(options.referenceProfileFile, { env: io.env });
  const ca =
    options.ca !== undefined
      ? await readFile(options.ca, 'utf8').catch((err: Error) => {
          throw new ConformError('CONFORM_USAGE', `cannot read --ca ${options.ca}: ${err.message}`);
        })
      : undefined;
  const clientFor = (insecure: boolean, trust: string | undefined) =>
    createHttpClient({ timeoutMs: options.timeoutMs, insecure, ...(trust !== undefined ? { ca: trust } : {}) });

  const server: RunningServer | undefined =
    options.reference === undefined ? await startServer({ port: 0, httpsPort: 0 }) : undefined;
  const clients: HttpClient[] = [];
  try {
    let reference: Side;
    if (server) {
      // A target that lists n instances is compared with the one embedded server reached n times: one server is
      // trivially a correct cluster of itself, so the cluster scenarios run on both sides.
      const own = { http: server.url, ...(server.httpsUrl ? { https: server.httpsUrl } : {}) };
      const instances = targetProfile.target.instances.map(() => ({ ...own }));
      referenceProfile = { ...referenceProfile, target: { ...referenceProfile.target, ...own, instances } };
      reference = side(referenceProfile, undefined, clientFor(false, server.certificate), 'reference');
    } else {
      reference = side(
        referenceProfile,
        options.reference,
        clientFor(options.insecure || referenceProfile.target.insecure, ca),
        'reference',
      );
    }
    clients.push(reference.client);
    const target = side(
      targetProfile,
      options.target,
      clientFor(options.insecure || targetProfile.target.insecure, ca),
      'target',
    );
    clients.push(target.client);

    const onEvent = options.json
      ? undefined
      : (e: DiffEvent) => {
          if (e.type === 'scenario-end') io.stdout.write(formatScenario(e.result));
        };
    if (!options.json) {
      io.stdout.write(
        `conform diff · reference ${reference.deps.bases.primary}${server ? ' (embedded)' : ''} · target ${target.deps.bases.primary} · seed ${options.seed} · ${options.runs} runs\n`,
      );
    }
    const result = await runDiff(suite, reference.deps, target.deps, {
      seed: options.seed,
      runs: options.runs,
      filter: options.filter,
      version: toolVersion(),
      embeddedReference: server !== undefined,
      concurrency: options.concurrency,
      ...(onEvent ? { onEvent } : {}),
    });
    const file = path.join(options.reportDir, 'diff.json');
    const json = `${JSON.stringify(result, null, 2)}\n`;
    await writeAtomic(file, json);
    if (options.json) io.stdout.write(json);
    else io.stdout.write(`${formatSummary(result)}Report: ${path.relative(io.cwd, file) || file}\n`);

    if (result.unreachable) {
      io.stderr.write(
        `conform diff: the ${result.unreachable.side} could not be reached: ${result.unreachable.message}\n`,
      );
      return 3;
    }
    if (result.summary.scenarios === result.summary.skipped) {
      io.stderr.write(
        'conform diff: every selected scenario was skipped on one side or the other; nothing was compared\n',
      );
      return 2;
    }
    return result.summary.differences > 0 ? 1 : 0;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server?.close();
  }
}
