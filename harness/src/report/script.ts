/**
 * A failed or errored scenario as a bash script that replays its requests in order (create → act → read back) against
 * the target, each authenticated when it is sent — `conform sign` makes a fresh Date, nonce and digest; a single-use
 * credential of the run would not replay — and that says whether the request the run failed at fails again. Built
 * from the report's (redacted) transcript: the script holds no secret, it reads them from the environment.
 */
import { CREDENTIAL_HEADERS, MASK } from '../runner/redact.js';
import { credentialVariable } from '../auth/env.js';
import type { Exchange, RunTls, ScenarioResult } from '../runner/types.js';
import { FRAMING, failingExchange, shellQuote, unsendableBody, withPlaceholders } from './curl.js';
import { reasonsOf } from '../runner/verdict.js';

/** What a script says about the run it comes from, and how it trusts TLS. */
export interface ScriptOptions {
  /** How the run trusted TLS: `-k` (insecure) or `--cacert FILE` on every curl (default: neither). */
  tls?: RunTls;
  seed?: number;
  /** The run's target, as the report names it. */
  target?: string;
  startedAt?: string;
  /** What the run left on the target for this scenario (`--keep-failed`), for the curl copies of the report. */
  kept?: string[];
}

/** The schemes `conform sign` signs afresh. */
const SIGNABLE = new Set(['basic', 'hmac', 'hmac-nonce']);
/** Knobs a fresh signature reproduces: the run's nonce is mapped to a fresh one, the run's Date is sent again. */
const REPRODUCED_KNOBS = new Set(['nonce', 'date']);
/** Most characters of the answer's body the script prints at the failing request. */
const SHOWN_BODY = 2000;

/**
 * Where a scenario's script goes below the report directory: `repro/` and its id as a path (`articles/put-replace` →
 * `repro/articles/put-replace.sh`), each segment reduced to letters, digits, `.`, `_` and `-`.
 */
export function scriptPath(id: string): string {
  const segments = id
    .split('/')
    .map((s) => s.replace(/[^A-Za-z0-9._-]/g, '_'))
    .map((s) => (s === '' || /^\.+$/.test(s) ? s.replace(/\./g, '_') || '_' : s));
  return `repro/${segments.join('/')}.sh`;
}

/** A piece of shell text: a literal (quoted, its masks as placeholders) or a variable expanded as it is. */
type Piece = { text: string } | { variable: string };

/** Pieces as one shell word. */
function word(pieces: readonly Piece[], used: Set<string>): string {
  const out = pieces
    .filter((p) => !('text' in p) || p.text !== '')
    .map((p) => ('text' in p ? withPlaceholders(p.text, used) : `"$${p.variable}"`))
    .join('');
  return out === '' ? "''" : out;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 1000);
const echo = (s: string) => `printf '%s\\n' ${shellQuote(oneLine(s))}`;

function pathOf(url: string): { origin: string; path: string } | undefined {
  try {
    const u = new URL(url);
    return { origin: u.origin, path: url.slice(u.origin.length) || '/' };
  } catch {
    return undefined;
  }
}

/** The id (last path segment) of each article a PUT of the transcript created: the script makes it fresh. */
function chosenIds(xs: readonly Exchange[]): string[] {
  const seen = new Set<string>();
  const ids = new Set<string>();
  for (const x of xs) {
    const p = pathOf(x.request.url)?.path.replace(/[?#].*$/s, '');
    if (p === undefined) continue;
    const status = x.response?.status ?? 0;
    const id = p.split('/').at(-1) ?? '';
    if (x.request.method === 'PUT' && !seen.has(p) && id !== '' && status >= 200 && status < 300) ids.add(id);
    seen.add(p);
  }
  return [...ids];
}

/** Where a POST's answer named a server-chosen URL (a Location other than the request's own path). */
function serverChosen(x: Exchange): string | undefined {
  const location = [x.response?.headers['location'] ?? []].flat()[0];
  if (location === undefined) return undefined;
  let path: string;
  try {
    const u = new URL(location, x.request.url);
    path = `${u.pathname}${u.search}`;
  } catch {
    return undefined;
  }
  const own = pathOf(x.request.url)?.path;
  return path === own || path === '/' ? undefined : path;
}

/** A path as pieces: earlier Locations captured afresh (`$LOC_k`), client-chosen ids with `$SUFFIX`. */
function pathPieces(
  path: string,
  locations: ReadonlyArray<{ k: number; path: string }>,
  ids: readonly string[],
): Piece[] {
  for (const loc of [...locations].reverse()) {
    const rest = path.slice(loc.path.length);
    if (path.startsWith(loc.path) && (rest === '' || /^[/?#]/.test(rest)))
      return [{ variable: `LOC_${loc.k}` }, ...pathPieces(rest, [], ids)];
  }
  const out: Piece[] = [];
  let rest = path;
  for (;;) {
    let best: { at: number; id: string } | undefined;
    for (const id of ids) {
      let from = 0;
      for (;;) {
        const at = rest.indexOf(`/${id}`, from);
        if (at < 0) break;
        const after = rest[at + id.length + 1];
        if (after === undefined || after === '/' || after === '?' || after === '#') {
          if (!best || at < best.at) best = { at, id };
          break;
        }
        from = at + 1;
      }
    }
    if (!best) break;
    const end = best.at + best.id.length + 1;
    out.push({ text: rest.slice(0, end) }, { variable: 'SUFFIX' });
    rest = rest.slice(end);
  }
  out.push({ text: rest });
  return out;
}

/** The status the run got, as the script compares it: the number, or `error` when no answer came. */
const runAnswer = (x: Exchange) => (x.response ? String(x.response.status) : 'error');

/** The header lines of a request as `-H` arguments, leaving out what curl frames and what is signed afresh. */
function headerArgs(x: Exchange, resigned: Set<string>, used: Set<string>, comments: string[]): string[] {
  const args: string[] = [];
  for (const [name, value] of Object.entries(x.request.headers)) {
    const lower = name.toLowerCase();
    if (FRAMING.has(lower) || resigned.has(lower)) continue;
    (Array.isArray(value) ? value : [value]).forEach((v) => {
      if (lower === 'authorization' && /^\s*bearer\s/i.test(v)) {
        used.add('CONFORM_ACCESS_TOKEN');
        args.push(`-H ${shellQuote(`${name}: Bearer `)}"$CONFORM_ACCESS_TOKEN"`);
      } else if (CREDENTIAL_HEADERS.has(lower)) {
        const variable = `CONFORM_${lower.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
        if (!used.has(variable))
          comments.push(`# $${variable}: the ${name} the run sent, which the report redacted (${oneLine(v)})`);
        used.add(variable);
        args.push(`-H ${shellQuote(`${name}: `)}"$${variable}"`);
      } else if (v === '') args.push(`-H ${shellQuote(`${name};`)}`);
      else args.push(`-H ${withPlaceholders(`${name}: ${v}`, used)}`);
    });
  }
  return args;
}

/**
 * The bash script that replays a failed or errored scenario's transcript (see the module comment): each request
 * with its step, its answer beside the run's, the run's failure at the request it failed at, and an exit status —
 * 1 when that request gets the run's answer again (the failure reproduces; with a check of the body failed, the body
 * must be the run's too), 0 when it gets another, 2 when it could not be replayed (a variable unset, conform sign or
 * curl failed, an OAuth 1 request).
 *
 * @returns the script, or `undefined` for a scenario that passed, was skipped or sent nothing.
 */
export function renderScript(result: ScenarioResult, options: ScriptOptions = {}): string | undefined {
  const failing = failingExchange(result);
  if (!failing) return undefined;
  const xs = result.transcript;
  const failingAt = xs.indexOf(failing);
  const messages = reasonsOf(result).map(oneLine);
  const statusOnly = messages.length > 0 && messages.every((m) => /expected status /.test(m));
  const used = new Set<string>();
  const needs = new Map<string, string>();
  const origins = new Map<string, string>();
  const originVariable = (origin: string): string => {
    let v = origins.get(origin);
    if (v === undefined) {
      const taken = new Set(origins.values());
      v = origin.startsWith('https:') ? 'HTTPS_URL' : 'HTTP_URL';
      if (taken.has(v)) v = `ORIGIN_${origins.size + 1}`;
      origins.set(origin, v);
    }
    return v;
  };
  const ids = chosenIds(xs);
  const locations: Array<{ k: number; path: string }> = [];
  const tlsArgs = [
    ...(options.tls?.insecure ? ['-k'] : []),
    ...(options.tls?.ca !== undefined ? [`--cacert ${shellQuote(options.tls.ca)}`] : []),
  ];
  const body: string[] = [];
  /** Credential lines signed earlier, by the redacted credential header and Date: a replayed request reuses them. */
  const signedBefore = new Map<string, number>();
  const nonces = new Map<string, string>();
  let unreplayable = false;
  xs.forEach((x, i) => {
    const k = i + 1;
    const label = `step ${x.step}${x.stepName ? ` (${x.stepName})` : ''} ${x.request.method}`;
    if (x.purpose === 'credentials') {
      body.push(
        `# ${label} ${oneLine(x.request.url)}: the run obtained an OAuth token here; the script uses $CONFORM_ACCESS_TOKEN instead`,
        '',
      );
      return;
    }
    const at = pathOf(x.request.url);
    if (!at) return;
    const c = x.credential;
    const lines: string[] = [`# ${label} ${oneLine(at.path)} — in the run: ${runAnswer(x)}`];
    if (c?.scheme === 'oauth1') {
      lines.push(
        echo(
          `${label} ${at.path}: not replayed — an OAuth 1.0a request needs the token the run obtained and an HMAC-SHA1 signature over it, which bash and curl alone cannot make (report.html has it as curl)`,
        ),
      );
      if (i === failingAt) unreplayable = true;
      body.push(...lines, '');
      return;
    }
    const pathWord = word(pathPieces(at.path, locations, ids), used);
    const url = `"$${originVariable(at.origin)}"${pathWord}`;
    const args: string[] = [...tlsArgs];
    args.push(x.request.method === 'HEAD' ? '--head' : `-X ${shellQuote(x.request.method)}`);
    const resigned = new Set<string>();
    const signable = c !== undefined && SIGNABLE.has(c.scheme) && c.header !== undefined;
    const hasBody = x.request.body !== undefined && x.request.body !== '';
    const bodyFile = `"$tmp/${k}.request"`;
    if (hasBody) {
      const why = unsendableBody(x.request.body ?? '');
      if (why)
        lines.push(
          `# The body is left out: ${why}.`,
          echo(`${label}: its body is left out (${why}): the answer may differ`),
        );
      else {
        lines.push(`printf '%s' ${word([{ text: x.request.body ?? '' }], used)} >${bodyFile}`);
        args.push(`--data-binary @${bodyFile}`, `-H 'Expect:'`);
        const names = Object.keys(x.request.headers).map((n) => n.toLowerCase());
        if (!names.includes('content-type')) args.push(`-H 'Content-Type:'`);
      }
    }
    if (signable && c) {
      const header = c.header!;
      const values = [x.request.headers[header.toLowerCase()] ?? x.request.headers[header] ?? []].flat();
      const date = [x.request.headers['date'] ?? []].flat();
      const altered = (c.altered ?? []).filter((a) => !REPRODUCED_KNOBS.has(a));
      if (values.length > 1) altered.push(`${header} sent ${values.length} times`);
      resigned.add(header.toLowerCase());
      if (c.scheme === 'hmac-nonce') resigned.add('date');
      const key = `${values.join('\n')}\n${date.join('\n')}`;
      const earlier = c.scheme === 'hmac-nonce' ? signedBefore.get(key) : undefined;
      if (earlier !== undefined) {
        lines.push(
          `# The run sent request ${earlier}'s credentials again here (the same nonce and Date): so does the script`,
        );
        lines.push(`CRED_${k}=$CRED_${earlier} DATE_${k}=$DATE_${earlier}`);
      } else {
        const variable = credentialVariable(c.user, c.scheme === 'basic' ? 'PASSWORD' : 'SECRET');
        needs.set(variable, `${c.scheme === 'basic' ? 'the Basic password' : 'the signing secret'} of user ${c.user}`);
        const signPath = word(pathPieces(c.path ?? at.path, locations, ids), used);
        const extra: string[] = [];
        if (c.bodyHash && hasBody) extra.push(`--body-file ${bodyFile}`, '--body-hash');
        else if (c.bodyHash) extra.push('--body-hash');
        const runNonce = c.altered?.includes('nonce') ? /:(\d+):/.exec(values[0] ?? '')?.[1] : undefined;
        const nonceVar = runNonce !== undefined ? nonces.get(runNonce) : undefined;
        if (nonceVar) extra.push(`--nonce "$${nonceVar}"`);
        if (c.altered?.includes('date') && date[0] !== undefined) extra.push(`--date ${shellQuote(date[0])}`);
        lines.push(
          `sign ${[c.scheme, c.user, header, x.request.method].map(shellQuote).join(' ')} ${signPath}${extra.length ? ` ${extra.join(' ')}` : ''}`,
          `CRED_${k}=$CRED DATE_${k}=$DATE`,
        );
        if (runNonce !== undefined && !nonceVar) {
          nonces.set(runNonce, `NONCE_${k}`);
          lines.push(
            `NONCE_${k}=$(nonce_of "$CRED")   # the run used its nonce ${runNonce} more than once: so does the script`,
          );
        }
        if (c.scheme === 'hmac-nonce') signedBefore.set(key, k);
      }
      if (altered.length > 0)
        lines.push(
          echo(
            `${label}: the run altered its credentials on purpose (${altered.join(', ')}); the script sends correct ones, so this step checks something else than the run did`,
          ),
        );
      args.push(`-H "$CRED_${k}"`);
      if (c.scheme === 'hmac-nonce' && !(c.altered ?? []).includes('omitDate')) args.push(`-H "$DATE_${k}"`);
    }
    args.push(...headerArgs(x, resigned, used, lines));
    args.push(url);
    lines.push(`send ${k} ${shellQuote(oneLine(`${label} ${at.path}`))} ${runAnswer(x)} \\\n  ${args.join(' \\\n  ')}`);
    const chosen = x.request.method === 'POST' ? serverChosen(x) : undefined;
    if (chosen !== undefined) {
      lines.push(
        `LOC_${k}=$(location_of "$tmp/${k}.headers")   # the URL the target chose (the run's: ${oneLine(chosen)})`,
        `[ -n "$LOC_${k}" ] || LOC_${k}=${shellQuote(chosen)}`,
      );
      locations.push({ k, path: chosen });
    }
    if (i === failingAt) lines.push(...verdictLines(x, k, label, messages, statusOnly, result.status));
    body.push(...lines, '');
  });
  if (failingAt < 0) unreplayable = true;
  return [
    ...header(result, options, messages, needs, used, origins),
    ...PRELUDE,
    ...[...origins].map(([origin, v]) => `${v}=\${CONFORM_${v}:-${shellQuote(origin)}}`),
    ...[...needs].map(([n, what]) => `need ${n} ${shellQuote(what)}`),
    ...[...used].map((n) => `need ${n} ${shellQuote(placeholderWhat(n))}`),
    'REPRODUCED=unknown',
    '',
    ...body,
    unreplayable
      ? `${echo('the request the run failed at could not be replayed: nothing to tell')}\nexit 2`
      : 'case $REPRODUCED in yes) exit 1 ;; no) exit 0 ;; *) exit 2 ;; esac',
    '',
  ].join('\n');
}

/** What a placeholder variable must hold. */
function placeholderWhat(name: string): string {
  if (name === 'CONFORM_ACCESS_TOKEN') return 'a fresh OAuth 2 access token for the client the run used';
  return 'a value the report redacted';
}

/** The comment block at the top: what the script replays, what it needs, how it ends. */
function header(
  result: ScenarioResult,
  options: ScriptOptions,
  messages: readonly string[],
  needs: ReadonlyMap<string, string>,
  used: ReadonlySet<string>,
  origins: ReadonlyMap<string, string>,
): string[] {
  const where =
    result.status === 'failed'
      ? `failed at step ${result.failure.step}${result.failure.stepName ? ` (${result.failure.stepName})` : ''}`
      : `errored${result.precondition ? ` at step ${result.precondition.step}` : ''}`;
  const run = [
    options.startedAt ? `of ${options.startedAt}` : '',
    options.seed !== undefined ? `(seed ${options.seed})` : '',
    options.target ? `against ${options.target}` : '',
  ].filter(Boolean);
  const vars = [
    ...[...needs].map(([n, what]) => `#   ${n}: ${what} (conform sign reads it)`),
    ...[...used].map((n) => `#   ${n}: ${placeholderWhat(n)}`),
  ];
  return [
    '#!/usr/bin/env bash',
    `# conform: scenario ${result.id} ${where} in the run${run.length ? ` ${run.join(' ')}` : ''}.`,
    `#   ${oneLine(result.title)}`,
    ...messages.map((m) => `#   ${m}`),
    '#',
    "# Replays the scenario's requests in order (those of its failing run, as report.json holds them), each",
    '# authenticated when it is sent: conform sign makes a fresh Date, nonce and digest (a signature of the run would',
    '# not replay). Needs bash and curl; signing runs $CONFORM (default: npx conform).',
    '#',
    '# Secrets are not in this file: they are read from the environment, as conform init names them.',
    ...(vars.length > 0 ? vars : ['#   (none: no request of this scenario carried credentials the script makes)']),
    '# OAuth 1 requests are not replayed: their signature needs the token the run obtained (three-legged flow).',
    '#',
    '# Article ids the scenario chose get $CONFORM_SUFFIX appended (default: fresh on every run of the script), so it',
    "# runs again, and beside what the run kept; CONFORM_SUFFIX= sends the run's paths. A URL the target chose (a",
    "# POST's Location) is taken from the script's own answers. The target: " +
      [...origins].map(([o, v]) => `CONFORM_${v} (default ${o})`).join(', ') +
      '.',
    ...(options.kept && options.kept.length > 0
      ? [`# What the run kept on the target for this scenario (--keep-failed): ${options.kept.join(', ')}`]
      : []),
    '#',
    "# Exit status: 1 when the request the run failed at gets the run's answer again (the failure reproduces), 0 when",
    '# it gets another, 2 when it could not be replayed.',
    '',
  ];
}

/** After the request the run failed at: the run's failure, and whether the answer is the run's again. */
function verdictLines(
  x: Exchange,
  k: number,
  label: string,
  messages: readonly string[],
  statusOnly: boolean,
  status: ScenarioResult['status'],
): string[] {
  const run = runAnswer(x);
  const lines = [`# The run ${status} here: ${messages.join('; ')}`];
  lines.push(echo(`  the run ${status} at this request: ${messages.join('; ')}`));
  const runBody = x.response?.body ?? '';
  const comparable =
    !statusOnly && x.response !== undefined && unsendableBody(runBody) === undefined && !runBody.includes(MASK);
  const same = comparable
    ? `[ "$STATUS" = ${run} ] && [ "$(<"$tmp/${k}.body")" = ${shellQuote(runBody.replace(/\n+$/, ''))} ]`
    : `[ "$STATUS" = ${shellQuote(run)} ]`;
  const what = comparable ? `${run} and the body the run got` : run;
  lines.push(
    `show_body ${k}`,
    `if ${same}; then`,
    `  REPRODUCED=yes`,
    `  ${echo(`REPRODUCED: ${label} answered ${what} again, as in the run`)}`,
    'else',
    '  REPRODUCED=no',
    `  ${echo(`NOT REPRODUCED: ${label} did not answer ${what} this time, as it did in the run`)}`,
    'fi',
  );
  return lines;
}

/** The functions every script defines: `need`, `sign`, `nonce_of`, `send`, `location_of`, `show_body`. */
const PRELUDE = [
  'CONFORM=${CONFORM:-npx conform}',
  'SUFFIX=${CONFORM_SUFFIX-r$$$RANDOM}',
  'tmp=$(mktemp -d "${TMPDIR:-/tmp}/conform-repro.XXXXXX") || exit 2',
  'trap \'rm -rf "$tmp"\' EXIT',
  '',
  '# need VARIABLE WHAT: stops (exit 2) when VARIABLE is not set.',
  'need() {',
  '  if [ -z "${!1+x}" ]; then',
  '    printf \'set %s (%s) and run again\\n\' "$1" "$2" >&2',
  '    exit 2',
  '  fi',
  '}',
  '',
  '# sign SCHEME USER HEADER METHOD PATH [conform sign options…]: CRED is the credential line, DATE the Date line.',
  'sign() {',
  '  local out line',
  "  CRED='' DATE=''",
  '  out=$($CONFORM sign --scheme "$1" --user "$2" --header "$3" --method "$4" --path "$5" "${@:6}" 2>"$tmp/sign.err") || {',
  '    printf \'conform sign failed for %s (%s); CONFORM is: %s\\n%s\\n\' "$2" "$1" "$CONFORM" "$(<"$tmp/sign.err")" >&2',
  '    exit 2',
  '  }',
  '  while IFS= read -r line; do',
  '    case $line in',
  '      Date:*) DATE=$line ;;',
  '      ?*) [ -n "$CRED" ] || CRED=$line ;;',
  '    esac',
  '  done <<EOF',
  '$out',
  'EOF',
  '}',
  '',
  '# nonce_of LINE: the nonce of an hmac credential line (NAME: hmac USER:NONCE:DIGEST).',
  'nonce_of() {',
  '  local v=${1#*: }',
  '  v=${v#* }',
  '  v=${v#*:}',
  '  printf \'%s\' "${v%%:*}"',
  '}',
  '',
  "# send K LABEL RUN_ANSWER curl-arguments…: sends request K, prints its answer beside the run's; STATUS is it.",
  'send() {',
  '  local k=$1 label=$2 run=$3 rc',
  '  shift 3',
  '  STATUS=$(curl -sS --path-as-is -g -o "$tmp/$k.body" -D "$tmp/$k.headers" -w \'%{http_code}\' "$@")',
  '  rc=$?',
  '  if [ $rc -ne 0 ]; then',
  '    STATUS=error',
  '    printf \'%s → no answer (curl exit %s); the run got %s\\n\' "$label" "$rc" "$run"',
  '  elif [ "$STATUS" = "$run" ]; then',
  '    printf \'%s → %s, as in the run\\n\' "$label" "$STATUS"',
  '  else',
  '    printf \'%s → %s; the run got %s\\n\' "$label" "$STATUS" "$run"',
  '  fi',
  '}',
  '',
  '# location_of FILE: the path of the Location header in the answer headers FILE (its origin left out).',
  'location_of() {',
  "  local line v=''",
  '  while IFS= read -r line || [ -n "$line" ]; do',
  "    line=${line%$'\\r'}",
  '    case $line in',
  '      [Ll][Oo][Cc][Aa][Tt][Ii][Oo][Nn]:*) v=${line#*:} ;;',
  '    esac',
  '  done <"$1"',
  '  v=${v#"${v%%[! ]*}"}',
  '  case $v in',
  '    http://*/* | https://*/*) v=${v#*://}; v=/${v#*/} ;;',
  '    http://* | https://*) v=/ ;;',
  '  esac',
  '  printf \'%s\' "$v"',
  '}',
  '',
  "# show_body K: the start of request K's answer body.",
  'show_body() {',
  '  local b',
  '  b=$(<"$tmp/$1.body")',
  `  [ -z "$b" ] || printf '  its body: %s\\n' "\${b:0:${SHOWN_BODY}}"`,
  '}',
  '',
];
