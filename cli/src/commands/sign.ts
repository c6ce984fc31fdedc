/** `conform sign`: prints the authentication headers the harness would send, to debug a server with curl. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  basicHeader,
  bodyHash,
  formatSpecDate,
  hmacDigest,
  hmacHeader,
  signedMessage,
} from '../../../harness/src/auth/signers.js';
import { credentialVariable } from '../../../harness/src/auth/env.js';
import { ConformError } from '../../../harness/src/errors.js';
import { loadProfileSync } from '../../../harness/src/profile/load.js';
import { parse } from '../args.js';
import type { CliIo } from '../io.js';

const HELP = `Usage: conform sign --scheme basic|hmac|hmac-nonce --user NAME [options]

Prints the headers that authenticate one request (docs/auth.md), and the message that was signed.
  --scheme S        basic, hmac (simple form) or hmac-nonce (date-and-nonce form)
  --user NAME       User name
  --password P      Basic password        } or take them from a profile: --profile FILE,
  --secret S        HMAC shared secret    } or from CONFORM_<USER>_PASSWORD / CONFORM_<USER>_SECRET
                    (USER upper-cased, every character other than A-Z and 0-9 as _, as conform init names them)
  --method VERB     Request method (default GET)
  --path PATH       Request-target as sent, with any ?query (default /)
  --date TEXT       Date for hmac-nonce (default: now, "DD Mon YYYY hh:mm:ss" UTC)
  --nonce DIGITS    Nonce for hmac-nonce (default: derived from the clock)
  --body TEXT | --body-file FILE   Body, for the body-hash extension (PUT and POST)
  --body-hash       Add the body hash to the message (as a profile with auth.bodyHash: true does)
  --header NAME     Header for hmac credentials (default Authentication)
  --curl URL        Also print a curl command for URL

Example:
  conform sign --scheme hmac-nonce --user alice --secret alice-secret-1 --path /users/alice/financialrecords
`;

export async function signCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    scheme: { type: 'string' },
    user: { type: 'string' },
    password: { type: 'string' },
    secret: { type: 'string' },
    profile: { type: 'string' },
    method: { type: 'string' },
    path: { type: 'string' },
    date: { type: 'string' },
    nonce: { type: 'string' },
    body: { type: 'string' },
    'body-file': { type: 'string' },
    'body-hash': { type: 'boolean' },
    header: { type: 'string' },
    curl: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const scheme = values.scheme;
  if (scheme !== 'basic' && scheme !== 'hmac' && scheme !== 'hmac-nonce')
    throw new ConformError('CONFORM_USAGE', '--scheme must be basic, hmac or hmac-nonce');
  if (!values.user) throw new ConformError('CONFORM_USAGE', '--user is required');
  const profile = values.profile ? loadProfileSync(path.resolve(io.cwd, values.profile), { env: io.env }) : undefined;
  const fromProfile = profile?.users.find((u) => u.name === values.user);
  if (profile && !fromProfile) throw new ConformError('CONFORM_USAGE', `the profile has no user "${values.user}"`);
  const method = (values.method ?? 'GET').toUpperCase();
  const target = values.path ?? '/';
  if (!target.startsWith('/')) throw new ConformError('CONFORM_USAGE', '--path must start with "/"');
  const headers: Array<[string, string]> = [];
  let message: string | undefined;
  if (scheme === 'basic') {
    const variable = credentialVariable(values.user, 'PASSWORD');
    const password = values.password ?? fromProfile?.password ?? io.env[variable];
    if (password === undefined)
      throw new ConformError(
        'CONFORM_USAGE',
        `basic needs --password, --profile with the user's password, or ${variable} in the environment`,
      );
    headers.push(['Authorization', basicHeader(values.user, password)]);
  } else {
    const variable = credentialVariable(values.user, 'SECRET');
    const secret = values.secret ?? fromProfile?.secret ?? io.env[variable];
    if (secret === undefined)
      throw new ConformError(
        'CONFORM_USAGE',
        `${scheme} needs --secret, --profile with the user's secret, or ${variable} in the environment`,
      );
    const body =
      values['body-file'] !== undefined ? await readFile(path.resolve(io.cwd, values['body-file'])) : values.body;
    const withHash =
      (values['body-hash'] ?? profile?.auth.bodyHash ?? false) && (method === 'PUT' || method === 'POST');
    const nonce = scheme === 'hmac-nonce' ? (values.nonce ?? String(Date.now()) + '000') : undefined;
    if (nonce !== undefined && !/^\d{1,20}$/.test(nonce))
      throw new ConformError('CONFORM_USAGE', '--nonce must be 1 to 20 digits');
    const date = scheme === 'hmac-nonce' ? (values.date ?? formatSpecDate(new Date())) : undefined;
    message = signedMessage({
      method,
      path: target,
      ...(nonce !== undefined ? { nonce, date: date ?? '' } : {}),
      ...(withHash ? { bodyHash: bodyHash(body) } : {}),
    });
    const headerName = values.header ?? profile?.auth.hmacHeader ?? 'Authentication';
    headers.push([headerName, hmacHeader(values.user, hmacDigest(secret, message), nonce)]);
    if (date !== undefined) headers.push(['Date', date]);
  }
  for (const [k, v] of headers) io.stdout.write(`${k}: ${v}\n`);
  if (message !== undefined) io.stderr.write(`signed message: ${message}\n`);
  if (values.curl) {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const parts = ['curl', '-i', '-X', method, ...headers.flatMap(([k, v]) => ['-H', q(`${k}: ${v}`)])];
    if (values.body !== undefined) parts.push('--data-binary', q(values.body));
    if (values['body-file'] !== undefined) parts.push('--data-binary', q(`@${values['body-file']}`));
    parts.push(q(values.curl.replace(/\/$/, '') + target));
    io.stdout.write(`${parts.join(' ')}\n`);
  }
  return 0;
}
