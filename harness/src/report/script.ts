/**
 * A failed or errored scenario as a bash script that replays its requests in order (create → act → read back) against
 * the target, each authenticated when it is sent — `conform sign` makes a fresh Date, nonce and digest; a single-use
 * credential of the run would not replay — and that says whether the request the run failed at fails again. Built
 * from the report's (redacted) transcript: the script holds no secret, it reads them from the environment.
 */
import { CREDENTIAL_HEADERS, MASK } from '../runner/redact.js';
import { credentialVariable } from '../auth/env.js';
import type { Exchange, ScenarioResult } from '../runner/types.js';
import { FRAMING, failingExchange, shellQuote, unsendableBody, withPlaceholders } from './curl.js';
import { PRELUDE, oneLine, placeholderWhat, scriptHeader, type ScriptOptions } from './script-prelude.js';

export type { ScriptOptions } from './script-prelude.js';
import { chosenIds, pathOf, pathPieces, serverChosen, word } from './script-paths.js';
import { reasonsOf } from '../runner/verdict.js';

/** A command printing `s` on a line. */
const echo = (s: string) => `printf '%s\\n' ${shellQuote(oneLine(s))}`;

/** The schemes `conform sign` signs afresh. */
const SIGNABLE = new Set(['basic', 'hmac', 'hmac-nonce']);
/** Knobs a fresh signature reproduces: the run's nonce is mapped to a fresh one, the run's Date is sent again. */
const REPRODUCED_KNOBS = new Set(['nonce', 'date']);

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
    ...scriptHeader(result, options, messages, needs, used, origins),
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
