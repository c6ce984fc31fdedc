/**
 * What every replay script (report/script.ts) starts with: the comment block that says what it replays, needs and
 * exits with, and its bash functions (bash 3.2 or later, macOS's own).
 */
import type { RunTls, ScenarioResult } from '../runner/types.js';

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

/** Most characters of the answer's body a script prints at the failing request. */
const SHOWN_BODY = 2000;

/** Text on one line of a comment or an echo, bounded. */
export const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 1000);

/** What a placeholder variable must hold. */
export function placeholderWhat(name: string): string {
  if (name === 'CONFORM_ACCESS_TOKEN') return 'a fresh OAuth 2 access token for the client the run used';
  return 'a value the report redacted';
}

/** The comment block at the top: what the script replays, what it needs, how it ends. */
export function scriptHeader(
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
    "# POST's Location) is taken from the script's own answers. CONFORM_CURL_OPTIONS adds options to every curl (-k for a\n" +
      '# self-signed certificate the run trusted in memory, as --embedded does). The target: ' +
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

/** The functions every script defines: `need`, `sign`, `nonce_of`, `send`, `location_of`, `show_body`. */
export const PRELUDE = [
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
  '  # shellcheck disable=SC2086 # CONFORM_CURL_OPTIONS is split into words on purpose',
  '  STATUS=$(curl -sS --path-as-is -g $CONFORM_CURL_OPTIONS -o "$tmp/$k.body" -D "$tmp/$k.headers" -w \'%{http_code}\' "$@")',
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
