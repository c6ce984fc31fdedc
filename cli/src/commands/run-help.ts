/** `conform run --help`. */
import { RUN_OPTION_SPEC } from '../../../harness/src/runner/options.js';
import { DEFAULT_SCENARIO_TIMEOUT_MS } from '../../../harness/src/runner/budget.js';
import { REPORTER_NAMES } from '../../../harness/src/report/registry.js';

export const RUN_HELP = `Usage: conform run [options]

Replays the scenarios against a target and writes compliance reports.

Target:
  --target URL          Base URL of the target (overrides the profile's target.http / target.https by scheme);
                        give it twice for both, one http:// and one https://
  --profile FILE        The target's profile (required with --target: conform never guesses what a server offers;
                        with --embedded the reference server's, reference-server/profile.yaml); - reads it from
                        standard input (e.g. a profile rendered by your CI's secret store); draft one: conform init
  --embedded            Start the bundled reference server in-process on a free loopback port and run against it
  --fault NAME          With --embedded: switch on a reference-server fault mode (repeatable; see conform serve --list-faults)
  --variant NAME        With --embedded: choose an open point of the spec differently (repeatable; see conform serve
                        --list-variants); the profile gets the variant's keys
  --insecure            Accept any TLS certificate
  --ca FILE             Trust this CA certificate (PEM)

Selection:
  --specs PATH          Scenario file or folder (repeatable; default: the bundled specs/)
  --rules FILE          Requirement catalogue (default: specs/rules.yaml)
  --vectors FILE        Known-answer vectors the signers must reproduce before anything is sent
                        (default: specs/vectors/auth.yaml)
  --filter TEXT         Only scenarios whose id, rule id or tag contains TEXT (repeatable)
  --exclude TEXT        Leave out scenarios whose id, rule id or tag contains TEXT (repeatable)
  --level LEVEL         Only scenarios of this level: MUST, SHOULD or MAY (repeatable)
  --rerun-failed FILE   Run again only the scenarios that failed or errored in an earlier report.json, with its seed
                        (unless --seed is given); with --filter/--exclude/--level, only those among them
  --min-coverage PCT    Fail the run (exit 1) when fewer than PCT percent of the selected MUST rules were checked

Properties:
  --seed N              Seed for every generator (default: random; the report records it)
  --runs N              Property runs per property-based scenario (default ${RUN_OPTION_SPEC.runs.default})
  --replay PATH         fast-check path of one counterexample (from the report) to replay directly

Requests:
  --concurrency N       Scenarios in flight at once, each on its own keep-alive connection (default
                        ${RUN_OPTION_SPEC.concurrency.default}; 1 runs them one after another in catalogue order). Verdicts and reports
                        do not depend on it; scenarios marked exclusive run alone
  --timeout MS          Per-request timeout (default ${RUN_OPTION_SPEC.timeoutMs.default})
  --scenario-timeout MS Limit of each scenario's own work (default ${DEFAULT_SCENARIO_TIMEOUT_MS}): once reached, no further property
                        run starts and shrinking stops at the smallest counterexample so far. Waits the scenario
                        declares (a token's lifetime) and waiting for the run's end do not count
  --max-response-bytes N  Largest response body read (default ${RUN_OPTION_SPEC.maxResponseBytes.default})
  --keep                Leave the articles the run creates on the target (default: they are deleted when the run
                        ends, where the target deletes; what cannot be deleted is reported)
  --keep-failed         Leave what a failed or errored scenario created (the articles of its reported run, listed
                        in report.json's keptFailed and the console), so its curl copies and its script in
                        REPORT-DIR/repro/ find them; the rest is deleted as usual
  --no-credential-check Run the scenarios even when the profile's credentials are refused (default: each user's
                        credentials of each scheme are tried once first; a refusal stops the run, exit 2, naming
                        the user, the scheme and the target's answer — a wrong password must not end green)

CI:
  --shard I/N           Run the I-th of N deterministic shards (merge their report.json with conform merge)
  --baseline FILE       Expected failures (YAML list of scenario ids): they do not fail the run, and listed
                        scenarios that now pass are reported so the baseline can shrink
  --write-baseline FILE Write the current failures as a baseline file

Output:
  --report-dir DIR      Where reports go (default reports/); report.json is always written. Checked before
                        anything is sent: a directory that cannot be written is exit 2
  --reporter LIST       Comma-separated reporters: ${REPORTER_NAMES.join(', ')} (default: all)
  --har FILE            Also write the run's exchanges as HAR 1.2 (what report.json holds: per scenario the failing
                        or last run's, bounded, redacted as the reports are); its folder must exist. Checked before
                        anything is sent: a path that cannot be written is exit 2
                        On GitHub Actions ($GITHUB_STEP_SUMMARY set) the Markdown summary is appended there and
                        failures are printed as annotations at the scenario's file and line
  --strict              SHOULD and MAY failures also fail the run
  --quiet               Print failures and the summary only
  --json                Print the verdict, counts, failures and report paths as JSON on stdout (the console
                        output goes to stderr)
  --no-color            No ANSI colours (also: NO_COLOR set, or output not a terminal; FORCE_COLOR=1 forces them)
`;
