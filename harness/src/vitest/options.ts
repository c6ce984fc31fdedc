/** Options of `defineConformSuite`, their defaults, and the environment variables that override them. */
import { ConformError } from '../errors.js';
import { RUN_OPTION_SPEC, intFromText, resolveRunOptions, type OptionNaming } from '../runner/options.js';
import type { ResolvedProfile } from '../profile/schema.js';

/**
 * A server the suite starts itself (in `beforeAll`) and stops (in `afterAll`). The bundled reference server's
 * `startServer()` result has this shape, and so can a team's own in-process server.
 */
export interface ConformTargetServer {
  /** Base URL of the server, `http://…` (or `https://…` when it only speaks TLS). A path prefix such as `/api` is allowed. */
  url: string;
  /** TLS base URL, when the server also listens with TLS; TLS-only scenarios are skipped without one. */
  httpsUrl?: string;
  /** PEM certificate of the TLS listener, trusted for this suite only (for self-signed test certificates). */
  certificate?: string;
  /** Stops the server; called once in `afterAll`. */
  close(): Promise<void>;
}

/** Starts the target in-process; called once in `beforeAll`. */
export type ConformTargetFactory = () => Promise<ConformTargetServer>;

/** How tests are grouped into `describe` blocks below the suite's own. */
export type ConformGrouping = 'file' | 'tag' | 'none';

/** Options of {@link defineConformSuite}. Everything but `target` is optional. */
export interface ConformSuiteOptions {
  /**
   * The service under test: a base URL (`http://…` or `https://…`, overriding the profile's `target.http` or
   * `target.https` by scheme, like `conform run --target`), or a function that starts the server in-process and
   * resolves to its URLs (then the profile's `target.http`/`target.https` are replaced by what it returns).
   * Omitted: the profile's own `target.http` / `target.https`.
   */
  target?: string | ConformTargetFactory;
  /** Profile file (absolute or relative to the working directory), or an already resolved profile. Default: the bundled reference server's profile. */
  profile?: string | ResolvedProfile;
  /** Scenario files or folders (absolute or relative to the working directory). Default: the bundled `specs/`. */
  specs?: string[];
  /** Requirement catalogue. Default: the bundled `specs/rules.yaml`. */
  rules?: string;
  /** Known-answer vectors the signers must reproduce before anything is sent. Default: the bundled `specs/vectors/auth.yaml`. */
  vectors?: string;
  /** Only scenarios whose id, a rule id or a tag contains one of these texts (like `conform run --filter`). Default: all. */
  filter?: string[];
  /** Run seed. Default: `CONFORM_SEED` from the environment (`random` draws one), else {@link DEFAULT_SEED}. */
  seed?: number;
  /** Property runs per property-based scenario. Default: `CONFORM_RUNS`, else {@link DEFAULT_RUNS}. */
  runs?: number;
  /** SHOULD and MAY scenarios that fail (or error) fail their test too. Default: `CONFORM_STRICT=1`, else false (they pass with a warning). */
  strict?: boolean;
  /** Per-request timeout, ms (like `conform run --timeout`). Default 10 000. */
  timeoutMs?: number;
  /** Largest response body read, bytes. Default 1 MiB. */
  maxResponseBytes?: number;
  /**
   * Scenarios in flight at once (like `conform run --concurrency`): the tests are declared concurrent and admitted
   * by the harness, which runs exclusive scenarios alone. Default: `CONFORM_CONCURRENCY`, else 8; 1 runs them one
   * after another. Vitest's own `maxConcurrency` (default 5) bounds it too.
   */
  concurrency?: number;
  /** Vitest timeout of one scenario's test, ms; shrinking stops early enough to report within it. Default 180 000. */
  testTimeoutMs?: number;
  /** Vitest timeout of the `beforeAll`/`afterAll` hooks (self-test, starting and stopping the target), ms. Default 60 000. */
  hookTimeoutMs?: number;
  /** Accept any TLS certificate. Default: the profile's `target.insecure` (ignored when the started server gives its `certificate`). */
  insecure?: boolean;
  /** Extra CA certificate (PEM text) to trust for TLS. */
  ca?: string;
  /** Name of the outer `describe`. Default `conform`. */
  name?: string;
  /** Inner `describe` per scenario file (default), per first tag, or none. */
  groupBy?: ConformGrouping;
}

/** Seed used when neither the `seed` option nor `CONFORM_SEED` is set: runs are reproducible by default. */
export const DEFAULT_SEED = 12345;
/** Property runs per property-based scenario when neither `runs` nor `CONFORM_RUNS` is set (as `conform run`). */
export const DEFAULT_RUNS: number = RUN_OPTION_SPEC.runs.default;
/** Default vitest timeout of one scenario's test, ms. */
export const DEFAULT_TEST_TIMEOUT_MS = 180_000;
/** Default vitest timeout of the suite's hooks, ms. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
/** Default per-request timeout, ms. */
export const DEFAULT_REQUEST_TIMEOUT_MS: number = RUN_OPTION_SPEC.timeoutMs.default;

/** Where the seed came from: the failure message's replay command sets `CONFORM_SEED` only when it matters. */
export type SeedSource = 'option' | 'env' | 'default';

/** Options with every default filled from the environment and the constants above. */
export interface ResolvedSuiteSettings {
  seed: number;
  seedSource: SeedSource;
  runs: number;
  strict: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  concurrency: number;
  testTimeoutMs: number;
  hookTimeoutMs: number;
  /** Scenario id → fast-check path, from `CONFORM_REPLAY`. */
  replay: ReadonlyMap<string, string>;
}

function checkInt(n: number | undefined, name: string, min: number, max: number): number | undefined {
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConformError(
      'CONFORM_USAGE',
      `defineConformSuite: ${name} must be a whole number between ${min} and ${max}, got ${n}`,
    );
  return n;
}

/**
 * Parses `CONFORM_REPLAY`: comma-separated `scenario-id=fast-check-path` pairs (the form failure messages print),
 * each replaying one scenario's counterexample directly.
 */
export function parseReplayEnv(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0 || eq === part.length - 1)
      throw new ConformError('CONFORM_USAGE', `CONFORM_REPLAY expects scenario-id=path pairs, got "${part}"`);
    out.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return out;
}

/** Fills defaults; option values win over the environment, which wins over the constants. Throws on bad values. */
export function resolveSettings(
  options: ConformSuiteOptions,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedSuiteSettings {
  const seedEnv = env['CONFORM_SEED']?.trim();
  const seedSource: SeedSource = options.seed !== undefined ? 'option' : seedEnv ? 'env' : 'default';
  // CONFORM_SEED=random leaves the seed out, so resolveRunOptions draws one.
  const seed =
    options.seed ??
    (seedEnv ? (seedEnv === 'random' ? undefined : intFromText(seedEnv, 'CONFORM_SEED')) : DEFAULT_SEED);
  const runsEnv = env['CONFORM_RUNS']?.trim();
  const concurrencyEnv = env['CONFORM_CONCURRENCY']?.trim();
  const naming: OptionNaming = (key) => `defineConformSuite: ${key}`;
  const run = resolveRunOptions(
    {
      seed,
      runs: options.runs ?? (runsEnv ? intFromText(runsEnv, 'CONFORM_RUNS') : undefined),
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      concurrency:
        options.concurrency ?? (concurrencyEnv ? intFromText(concurrencyEnv, 'CONFORM_CONCURRENCY') : undefined),
    },
    {},
    naming,
  );
  const strictEnv = env['CONFORM_STRICT']?.trim().toLowerCase();
  return {
    ...run,
    seedSource,
    strict: options.strict ?? (strictEnv === '1' || strictEnv === 'true'),
    testTimeoutMs: checkInt(options.testTimeoutMs, 'testTimeoutMs', 1, 24 * 3_600_000) ?? DEFAULT_TEST_TIMEOUT_MS,
    hookTimeoutMs: checkInt(options.hookTimeoutMs, 'hookTimeoutMs', 1, 24 * 3_600_000) ?? DEFAULT_HOOK_TIMEOUT_MS,
    replay: parseReplayEnv(env['CONFORM_REPLAY']),
  };
}
