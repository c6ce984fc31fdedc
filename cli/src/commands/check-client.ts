/**
 * `conform check-client [options] -- COMMAND…`: runs a client against the bundled reference server, records every
 * request the server receives, and judges the recording against the client rules of specs/rules.yaml.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConformError } from '../../../harness/src/errors.js';
import { commandFailed, renderClientConsole, rulesVerdict } from '../../../harness/src/report/client/render.js';
import { loadRulesSync } from '../../../harness/src/suite/load.js';
import { parseVariantNames, type RecordedExchange } from '../../../reference-server/src/index.js';
import { startReferenceServer } from '../api/reference-server.js';
import { faultList, intOption, parse } from '../args.js';
import { ChildStartError, runChild } from '../client/child.js';
import { clientEnvironment } from '../client/env.js';
import { judgeRecording, profileRedactor } from '../client/finish.js';
import { writeClientReports } from '../client/write.js';
import { defaults, type CliIo } from '../io.js';
import { prepareReportDir } from '../output.js';

const HELP = `Usage: conform check-client [options] -- COMMAND [ARG…]

Starts the bundled reference server (plain HTTP and TLS on free 127.0.0.1 ports, as conform serve), runs COMMAND
(your client, its tests, a script) with the variables below, records every request the server receives, then judges
them against the client rules of specs/rules.yaml (conform rules; docs/clients.md): the nonce changes on every
request, no Basic or OAuth over plain HTTP, the Date and its <date_text>, the signed message, the clock within the
window, OAuth 1 signatures (RFC 5849 §3.4), OAuth 2 client authentication (RFC 6749 §2.3), the grants (a code used
once, the password over TLS only, no secret in the authorization request, the refresh token replaced, PKCE with
S256 and its verifier) and bearer token use (RFC 6750 §2.1). Each rule is passed, failed (with the requests that
broke it) or not exercised.

Refused signed requests carry a diagnostic in their problem+json body (what the server signed, and the common
mistake that explains your digest; never a secret): see conform serve --diagnose. --no-diagnose turns it off.

  --timeout S        Deadline of COMMAND, seconds (default 60); then its process group gets SIGKILL (exit 3).
                     COMMAND is done when it exits: its process group is killed, and output a process it left
                     in a session of its own still holds open is read for 2 s more, no longer
  --ignore-client-exit  Judge the requests alone: COMMAND exiting non-zero or killed by a signal does not fail
                     the check (by default it does: exit 5)
  --report-dir DIR   Where the reports go (default reports/): client-report.json (whenever COMMAND ran, timed
                     out or not), client-junit.xml, client-report.md, client-report.html
  --reporter LIST    Comma-separated: console, json, junit, markdown, html (default: all)
  --strict           SHOULD and MAY rules that failed also fail the check
  --no-diagnose      Bare refusals, as conform serve answers by default
  --body-hash MODE   Whether signed PUT and POST sign the body hash (§5.2 rule 6: extra data "may be added";
                     docs/auth.md): optional (default: both messages are accepted and pass), required, or off
  --variant NAME     Start the server with a variant (conform serve --list-variants; repeatable or comma-
                     separated) and judge the client by its choices: path-without-query (the path is signed
                     without its query), window-300, date-month-any-case, date-formats-extra, digest-decoded…
  --max-requests N   Most requests listed in the report (default 1000; all are judged)
  --token-ttl S      OAuth 2 access token lifetime, seconds (default 300)

COMMAND gets, besides the caller's environment:
  CONFORM_HTTP_URL, CONFORM_HTTPS_URL   base URLs of the two listeners
  CONFORM_CA_FILE                       the TLS listener's self-signed certificate (PEM), to trust
  CONFORM_USER, CONFORM_PASSWORD, CONFORM_SECRET      a user: Basic password, HMAC shared secret
  CONFORM_USER2, CONFORM_PASSWORD2, CONFORM_SECRET2   a second user
  CONFORM_WINDOW (seconds), CONFORM_BODY_HASH (1: PUT and POST sign the body hash, 0: they do not, optional:
                                        either is accepted; docs/auth.md)
  CONFORM_OAUTH2_TOKEN_URL, CONFORM_OAUTH2_CLIENT_ID, CONFORM_OAUTH2_CLIENT_SECRET, CONFORM_OAUTH2_AUTHORIZE_URL,
  CONFORM_OAUTH2_REDIRECT_URI           the grant is the server's: client credentials, or with --variant
                                        oauth2-password-only the password grant, oauth2-code-pkce-only the code
                                        grant with PKCE (the owner approves with CONFORM_USER's Basic credentials)
  CONFORM_OAUTH1_CONSUMER_KEY, CONFORM_OAUTH1_CONSUMER_SECRET, CONFORM_OAUTH1_REQUEST_TOKEN_URL,
  CONFORM_OAUTH1_AUTHORIZE_URL, CONFORM_OAUTH1_ACCESS_TOKEN_URL

Exit codes: 0 every MUST client rule COMMAND exercised passed (and it exercised at least one), and COMMAND exited 0
· 1 a MUST client rule failed (with --strict: any) · 2 usage error, or no MUST client rule exercised · 3 the server
could not start, COMMAND could not be run, or it ran past --timeout · 4 internal error · 5 COMMAND itself failed
(exited non-zero or was killed by a signal) while no MUST client rule failed; --ignore-client-exit turns this off

Example:
  conform check-client -- ./my-client-tests.sh
  conform check-client --timeout 120 --report-dir out -- python3 -m pytest tests/integration
`;

const OPTIONS = {
  timeout: { type: 'string' },
  'report-dir': { type: 'string' },
  reporter: { type: 'string' },
  strict: { type: 'boolean' },
  'ignore-client-exit': { type: 'boolean' },
  'no-diagnose': { type: 'boolean' },
  'max-requests': { type: 'string' },
  'token-ttl': { type: 'string' },
  'body-hash': { type: 'string' },
  variant: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function checkClientCommand(argv: string[], io: CliIo): Promise<number> {
  const dash = argv.indexOf('--');
  const { values } = parse(dash < 0 ? argv : argv.slice(0, dash), OPTIONS);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const command = dash < 0 ? [] : argv.slice(dash + 1);
  const [program, ...args] = command;
  if (program === undefined) throw new ConformError('CONFORM_USAGE', 'give the client command after --');
  const timeoutMs = (intOption(values.timeout, 'timeout', 1, 86400) ?? 60) * 1000;
  const maxRequests = intOption(values['max-requests'], 'max-requests', 0, 1_000_000) ?? 1000;
  const tokenTtl = intOption(values['token-ttl'], 'token-ttl', 1, 86400) ?? 300;
  const reporters = reporterList(values.reporter);
  const ignoreExit = values['ignore-client-exit'] ?? false;
  const bodyHash = bodyHashMode(values['body-hash']);
  const variants = parseVariantNames(faultList(values.variant, parseVariantNames));
  const dir = path.resolve(io.cwd, values['report-dir'] ?? 'reports');
  await prepareReportDir(dir);
  const catalogue = loadRulesSync(defaults.rules());
  const exchanges: RecordedExchange[] = [];
  const started = new Date();
  const server = await startReferenceServer({
    tokenTtl,
    bodyHash,
    variants,
    // Every choice a correct client may make is accepted: PLAINTEXT over TLS too (RFC 5849 §3.4.4).
    oauth1Plaintext: true,
    diagnose: !values['no-diagnose'],
    onExchange: (ex) => exchanges.push(ex),
  }).catch((err: unknown) => {
    io.stderr.write(`conform check-client: the reference server could not start: ${(err as Error).message}\n`);
    return undefined;
  });
  if (server === undefined) return 3;
  const redactor = profileRedactor(server.profile);
  const temp = await mkdtemp(path.join(tmpdir(), 'conform-client-'));
  try {
    let caFile: string | undefined;
    if (server.certificate !== undefined) {
      caFile = path.join(temp, 'ca.pem');
      await writeFile(caFile, server.certificate);
    }
    const env = { ...io.env, ...clientEnvironment(server.profile, server, caFile, bodyHash) };
    const exit = await runChild({
      command: program,
      args,
      env,
      cwd: io.cwd,
      timeoutMs,
      onLine: (stream, line, end) => io[stream].write(`${redactor.text(line)}${end ? '\n' : ''}`),
    }).catch((err: unknown) => {
      if (err instanceof ChildStartError) {
        io.stderr.write(`conform check-client: ${redactor.text(err.message)}\n`);
        return undefined;
      }
      throw err;
    });
    if (exit === undefined) return 3;
    const report = judgeRecording({
      exchanges,
      profile: server.profile,
      catalogue,
      redactor,
      command,
      exit,
      exitChecked: !ignoreExit,
      bodyHash,
      variants,
      server,
      startedAt: started,
      maxRequests,
    });
    const strict = values.strict ?? false;
    const written = await writeClientReports(report, dir, reporters, strict);
    if (reporters.includes('console')) {
      io.stdout.write(renderClientConsole(report, strict));
      io.stdout.write(`reports: ${written.map((f) => path.relative(io.cwd, f)).join(', ')}\n`);
    }
    if (exit.timedOut) {
      io.stderr.write(`conform check-client: ${program} ran past --timeout (${timeoutMs / 1000} s) and was killed\n`);
      return 3;
    }
    if (exit.outputHeld)
      io.stderr.write(
        `conform check-client: ${program} exited, but a process it left running outside its process group still held its output open; stopped reading it\n`,
      );
    const verdict = rulesVerdict(report, strict);
    if (verdict === 'failed') return 1;
    if (commandFailed(report)) {
      const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited ${exit.code ?? '?'}`;
      io.stderr.write(
        `conform check-client: ${program} ${how}: the check fails (exit 5); --ignore-client-exit judges the requests alone\n`,
      );
      return 5;
    }
    if (verdict === 'nothing checked')
      io.stderr.write(
        `conform check-client: no MUST client rule was exercised (${exchanges.length} request(s), none signed or carrying Basic or OAuth credentials): nothing to pass\n`,
      );
    return verdict === 'passed' ? 0 : 2;
  } finally {
    await server.close();
    await rm(temp, { recursive: true, force: true });
  }
}

/** `--body-hash`: optional (the default), required or off. */
function bodyHashMode(value: string | undefined): boolean | 'optional' {
  if (value === undefined || value === 'optional') return 'optional';
  if (value === 'required') return true;
  if (value === 'off') return false;
  throw new ConformError('CONFORM_USAGE', `--body-hash takes optional, required or off, not "${value}"`);
}

const REPORTERS = ['console', 'json', 'junit', 'markdown', 'html'] as const;

function reporterList(value: string | undefined): string[] {
  if (value === undefined) return [...REPORTERS];
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const r of list)
    if (!(REPORTERS as readonly string[]).includes(r))
      throw new ConformError('CONFORM_USAGE', `--reporter: unknown reporter "${r}" (${REPORTERS.join(', ')})`);
  return list;
}
