/**
 * An exchange's request as a `curl` command for bash or zsh, built from the report's (redacted) exchange: what was
 * masked becomes an environment placeholder (`"$CONFORM_AUTHORIZATION"`), never a value.
 */
import { CREDENTIAL_HEADERS, MASK } from '../runner/redact.js';
import { truncatedLength } from '../runner/transcript.js';
import { credentialVariable } from '../auth/env.js';
import type { Exchange, RunTls, ScenarioResult, SentCredential } from '../runner/types.js';

/** How the run trusted TLS (`RunResult.options.tls`): `insecure` is `-k`, `ca` is `--cacert FILE`. */
export type CurlTls = RunTls;

/** Headers curl sets itself from the body it sends. */
export const FRAMING = new Set(['content-length', 'transfer-encoding']);

/**
 * A string as one shell word: single quotes when it holds printable text only, else bash's `$'…'` with escapes for
 * newlines, tabs and other control characters. Non-ASCII text stays literal (UTF-8). NUL cannot be an argument.
 */
export function shellQuote(s: string): string {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  if (!/[\u0000-\u001f\u007f]/.test(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  const escaped = s.replace(/[\\'\u0000-\u001f\u007f]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\\\';
      case "'":
        return "\\'";
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      default:
        return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
    }
  });
  return `$'${escaped}'`;
}

/** The environment variable a placeholder reads: `CONFORM_` and the name in upper case (`x-api-key` → `CONFORM_X_API_KEY`). */
export function placeholderName(name: string): string {
  const cleaned = name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `CONFORM_${cleaned || 'SECRET'}`;
}

/**
 * Text with masked secrets as one shell word: the masks become `"$CONFORM_…"` expansions named after the field they
 * stood in (`access_token=[redacted]` → `$CONFORM_ACCESS_TOKEN`, `"client_secret":"[redacted]"` →
 * `$CONFORM_CLIENT_SECRET`; else `$CONFORM_SECRET`), the rest quoted.
 */
export function withPlaceholders(text: string, used: Set<string>): string {
  if (!text.includes(MASK)) return shellQuote(text);
  const parts = text.split(MASK);
  let out = '';
  parts.forEach((part, i) => {
    if (part !== '') out += shellQuote(part);
    if (i === parts.length - 1) return;
    const field = /([A-Za-z_][\w-]*)(?:=|"\s*:\s*")$/.exec(part)?.[1];
    const name = placeholderName(field ?? 'secret');
    used.add(name);
    out += `"$${name}"`;
  });
  return out;
}

/** Why a body cannot be sent as it was: truncated by the report, or bytes lost (not UTF-8) or not passable (NUL). */
export function unsendableBody(body: string): string | undefined {
  if (truncatedLength(body) !== undefined) return 'the report keeps the first 4096 characters of a body only';
  if (body.includes('\ufffd')) return 'it holds bytes that are not UTF-8, which the report could not keep';
  if (body.includes('\u0000')) return 'it holds a NUL byte, which no shell argument can carry';
  return undefined;
}

/** What to say about a credential header that became a placeholder: where to get a fresh value. */
function credentialHint(header: string, masked: string, req: Exchange['request'], sent?: SentCredential): string {
  if (
    sent &&
    (sent.scheme === 'basic' || sent.scheme.startsWith('hmac')) &&
    sent.header?.toLowerCase() === header.toLowerCase()
  ) {
    // The exchange says how it was signed: the exact command, its secret from the environment.
    const variable = credentialVariable(sent.user, sent.scheme === 'basic' ? 'PASSWORD' : 'SECRET');
    const hash = sent.bodyHash ? ' --body-file FILE --body-hash' : '';
    const fresh = sent.scheme === 'hmac-nonce' ? ' (a fresh Date and nonce: give the Date line it prints too)' : '';
    const path = sent.path !== undefined ? ` --path ${shellQuote(sent.path)}` : '';
    return `${variable}=… conform sign --scheme ${sent.scheme} --user ${shellQuote(sent.user)} --method ${req.method}${path}${hash} --header ${shellQuote(header)} prints it${fresh}${sent.altered ? `; the run altered it on purpose (${sent.altered.join(', ')})` : ''}`;
  }
  const scheme = /^\s*([A-Za-z][\w-]*)\s/.exec(masked)?.[1]?.toLowerCase();
  const target = (() => {
    try {
      const u = new URL(req.url);
      return `${u.pathname}${u.search}`;
    } catch {
      return '/';
    }
  })();
  const sign = (s: string) =>
    `conform sign --scheme ${s} --user NAME --profile FILE --method ${req.method} --path ${shellQuote(target)}${header.toLowerCase() === 'authentication' ? '' : ` --header ${shellQuote(header)}`}`;
  if (scheme === 'basic') return `a Basic credential: ${sign('basic')} prints one`;
  if (scheme === 'hmac')
    return `a signature: signed requests carry a single-use nonce and a date, so the one sent would not replay; ${sign('hmac-nonce')} (or --scheme hmac) prints a fresh one`;
  if (scheme === 'bearer') return 'an OAuth access token: obtain a fresh one from the token endpoint';
  if (scheme === 'oauth') return 'an OAuth 1.0a signature: a fresh one is signed with a new nonce and timestamp';
  return `the value sent was redacted; a signed value would not replay (conform sign prints fresh credentials)`;
}

/**
 * The request of an exchange as a `curl` command (bash/zsh): method, URL, headers, body (`--data-binary $'…'`), `-k` /
 * `--cacert` as the run trusted TLS. Credential headers (Authorization, Authentication, Cookie, X-Api-Key, …) and any
 * header, URL or body part the redactor masked become environment placeholders, each explained by a `#` line above
 * the command; a body the report could not keep exactly is left out, with a `#` line saying why.
 *
 * @param request - the exchange's request, as the report holds it (already redacted).
 * @param tls - how the run trusted TLS (default: neither `-k` nor `--cacert`).
 * @param sent - how the request was authenticated (the exchange's `credential`): its hint names the exact
 *   `conform sign` command.
 * @returns the command, comment lines first, continued with `\` over several lines.
 */
export function curlCommand(request: Exchange['request'], tls: CurlTls = {}, sent?: SentCredential): string {
  const comments: string[] = [];
  const used = new Set<string>();
  const hasBody = request.body !== undefined && request.body !== '';
  // curl waits for a body after `-X HEAD`: `--head` asks for the headers alone.
  const args: string[] =
    request.method === 'HEAD'
      ? ['--head']
      : request.method === 'GET' && !hasBody
        ? []
        : [`-X ${shellQuote(request.method)}`];
  if (tls.insecure) args.push('-k');
  if (tls.ca !== undefined) args.push(`--cacert ${shellQuote(tls.ca)}`);
  const names = Object.keys(request.headers).map((k) => k.toLowerCase());
  for (const [name, value] of Object.entries(request.headers)) {
    // curl computes the framing of the body it sends.
    if (FRAMING.has(name.toLowerCase())) continue;
    (Array.isArray(value) ? value : [value]).forEach((v, line) => {
      if (CREDENTIAL_HEADERS.has(name.toLowerCase()) || v.includes(MASK)) {
        // A field sent more than once gets a placeholder per line: the lines may differ.
        const variable = `${placeholderName(name)}${line > 0 ? `_${line + 1}` : ''}`;
        if (!used.has(variable)) comments.push(`# $${variable}: ${credentialHint(name, v, request, sent)}`);
        used.add(variable);
        args.push(`-H ${shellQuote(`${name}: `)}"$${variable}"`);
      } else if (v === '') {
        // curl drops `Name:` (it removes a header it would send); `Name;` sends it empty.
        args.push(`-H ${shellQuote(`${name};`)}`);
      } else args.push(`-H ${shellQuote(`${name}: ${v}`)}`);
    });
  }
  const fromText = new Set<string>();
  const url = withPlaceholders(request.url, fromText);
  if (hasBody) {
    const why = unsendableBody(request.body ?? '');
    if (why) comments.push(`# The body is left out: ${why}.`);
    else {
      // --data-binary reads a file for a body starting with @; --data-raw never does, and sends the text as it is.
      const flag = request.body?.startsWith('@') ? '--data-raw' : '--data-binary';
      args.push(`${flag} ${withPlaceholders(request.body ?? '', fromText)}`);
      // Without a Content-Type of its own, curl would add application/x-www-form-urlencoded; the request had none.
      if (!names.includes('content-type')) args.push(`-H 'Content-Type:'`);
    }
  }
  for (const variable of fromText)
    if (!used.has(variable))
      comments.push(
        `# $${variable}: ${/SIGNATURE/.test(variable) ? 'a signature over a single-use nonce and a timestamp, redacted: the one sent would not replay, sign afresh' : 'a secret or token the report redacted; set it before running this'}`,
      );
  return [...comments, `curl -sS -i ${args.concat(url).join(' \\\n  ')}`].join('\n');
}

/**
 * The request a failed or errored scenario failed at, from its transcript: the last exchange of the failing step (of
 * a failed setup step, when errored), else the last one that met a transport error, else the last exchange.
 *
 * @param result - a scenario result.
 * @returns the exchange, or `undefined` when the scenario passed or was skipped, or recorded no exchange.
 */
export function failingExchange(result: ScenarioResult): Exchange | undefined {
  const own = result.transcript.filter((x) => x.purpose === undefined);
  const lastOf = (step: number) => own.filter((x) => x.step === step).at(-1);
  switch (result.status) {
    case 'failed':
      return lastOf(result.failure.step) ?? result.transcript.at(-1);
    case 'errored':
      return (
        (result.precondition ? lastOf(result.precondition.step) : undefined) ??
        result.transcript.filter((x) => x.error).at(-1) ??
        result.transcript.at(-1)
      );
    case 'passed':
    case 'skipped':
      return undefined;
    default: {
      const never: never = result;
      throw new Error(`unknown status ${JSON.stringify(never)}`);
    }
  }
}
