/** `conform init`: probe a target, write a commented draft profile, check that it lints. */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { credentialVariable } from '../../../harness/src/auth/env.js';
import { ConformError } from '../../../harness/src/errors.js';
import { createHttpClient } from '../../../harness/src/http/client.js';
import { draftProfile, type DraftInput, type InitSecret, type InitUser } from '../../../harness/src/init/draft.js';
import { renderDraft } from '../../../harness/src/init/render.js';
import { checkProfileSource } from '../../../harness/src/profile/load.js';
import { createRedactor } from '../../../harness/src/runner/redact.js';
import { parseYamlSource } from '../../../harness/src/suite/yaml-source.js';
import { intOption, parse } from '../args.js';
import type { CliIo } from '../io.js';

export const INIT_HELP = `Usage: conform init --target URL [--target URL] --user NAME [--user NAME] [options]

Probes a target and writes a draft profile: which base URL answers, which schemes work over which transport, the
header signed requests travel in, whether the query is signed, the media type, whether writes need credentials,
whether PUT creates, the replace status, the /article/{id} alias, OPTIONS per resource and whether its Allow list
depends on credentials, whose records a user may read, OAuth token lifetimes. Above each key: the exchange it was
learned from. What the probes cannot settle is left commented out, with why. The articles it creates are deleted.

  --target URL      A base URL (http:// or https://); give it twice for both (one per scheme)
  --user NAME       A user of the target (twice for the cross-user checks); credentials from the environment:
                      CONFORM_<NAME>_PASSWORD   Basic password (tried over https only: §5)
                      CONFORM_<NAME>_SECRET     signed-request secret
                    NAME upper-cased, every other character than A-Z and 0-9 as _ (alice → CONFORM_ALICE_SECRET)
  --oauth2 PATH     The OAuth 2 token endpoint; with CONFORM_OAUTH2_CLIENT_ID and CONFORM_OAUTH2_CLIENT_SECRET (and
                    CONFORM_OAUTH2_REDIRECT_URI, the client's registered redirect URI, for the code grant); the
                    authorization endpoint is read from RFC 8414 metadata where served
  --oauth1 T,A,K    The OAuth 1 temporary-credential, authorize and token paths; with CONFORM_OAUTH1_CONSUMER_KEY
                    and CONFORM_OAUTH1_CONSUMER_SECRET
  --out FILE        Where to write the draft (default conform.profile.yaml); an existing file needs --force
  --force           Overwrite --out
  --stdout          Print the draft instead of writing it
  --insecure        Accept a self-signed certificate (recorded as target.insecure)
  --ca FILE         Trust this CA certificate (PEM) for the https target
  --timeout MS      Per-request timeout (default 10000)

The draft refers to credentials as \${NAME}: the file holds none, and \`conform run\` reads them from the
environment. Nothing is sent but GET, PUT, POST, OPTIONS and DELETE of the articles it creates.

Exit codes: 0 draft written · 2 usage, or the draft would not lint · 3 no target answered, or an https target not trusted (--ca, --insecure) · 4 internal error

Example:
  CONFORM_ALICE_SECRET=… CONFORM_BOB_SECRET=… conform init --target http://localhost:8080 --user alice --user bob
`;

export async function initCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    target: { type: 'string', multiple: true },
    user: { type: 'string', multiple: true },
    oauth2: { type: 'string' },
    oauth1: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    stdout: { type: 'boolean' },
    insecure: { type: 'boolean' },
    ca: { type: 'string' },
    timeout: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(INIT_HELP);
    return 0;
  }
  const targets = resolveTargets(values.target ?? []);
  const env = io.env;
  const secret = (name: string): InitSecret | undefined => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : { value, ref: `\${${name}}` };
  };
  const users: InitUser[] = (values.user ?? []).map((name) => {
    const password = secret(credentialVariable(name, 'PASSWORD'));
    const key = secret(credentialVariable(name, 'SECRET'));
    if (!password && !key)
      throw new ConformError(
        'CONFORM_USAGE',
        `--user ${name}: set ${credentialVariable(name, 'PASSWORD')} (Basic) or ${credentialVariable(name, 'SECRET')} (signed requests) in the environment; conform never invents credentials`,
      );
    return { name, ...(password ? { password } : {}), ...(key ? { secret: key } : {}) };
  });
  if (users.length === 0)
    io.stderr.write('conform init: no --user given: only what needs no credentials can be learned\n');
  const required = (name: string, flag: string): InitSecret => {
    const s = secret(name);
    if (!s) throw new ConformError('CONFORM_USAGE', `${flag} needs ${name} in the environment`);
    return s;
  };
  const input: Omit<DraftInput, 'client'> = {
    targets,
    insecure: values.insecure === true,
    users,
    uniq: () => randomBytes(6).toString('hex'),
    ...(values.oauth2 !== undefined
      ? {
          oauth2: {
            tokenEndpoint: pathOption(values.oauth2, '--oauth2'),
            clientId: required('CONFORM_OAUTH2_CLIENT_ID', '--oauth2'),
            clientSecret: required('CONFORM_OAUTH2_CLIENT_SECRET', '--oauth2'),
            ...(io.env['CONFORM_OAUTH2_REDIRECT_URI'] ? { redirectUri: io.env['CONFORM_OAUTH2_REDIRECT_URI'] } : {}),
          },
        }
      : {}),
    ...(values.oauth1 !== undefined ? { oauth1: oauth1Option(values.oauth1, required) } : {}),
  };
  const out = path.resolve(io.cwd, values.out ?? 'conform.profile.yaml');
  const ca =
    values.ca === undefined
      ? undefined
      : await readFile(path.resolve(io.cwd, values.ca), 'utf8').catch((err: Error) => {
          throw new ConformError('CONFORM_USAGE', `cannot read --ca ${values.ca}: ${err.message}`);
        });
  const client = createHttpClient({
    timeoutMs: intOption(values.timeout, 'timeout', 100, 600_000) ?? 10_000,
    insecure: values.insecure === true,
    ...(ca !== undefined ? { ca } : {}),
  });
  try {
    const draft = await draftProfile({ ...input, client });
    const redactor = createRedactor(draft.secrets);
    for (const b of draft.bases) io.stderr.write(redactor.text(`${b.answered ? '✓' : '✗'} ${b.url}: ${b.how}\n`));
    // An https base that was given but is not trusted is a mistake to fix, not a base to leave out: a draft without it
    // would run green with every TLS scenario skipped (issue 35).
    const untrusted = draft.bases.filter((b) => b.untrusted);
    if (untrusted.length > 0) {
      io.stderr.write(
        `conform init: the TLS handshake with ${untrusted.map((b) => b.url).join(' and ')} failed (a self-signed certificate? give --ca FILE to trust it, or --insecure); nothing was drafted\n`,
      );
      return 3;
    }
    if (!draft.bases.some((b) => b.answered)) {
      io.stderr.write('conform init: no target answered; nothing was drafted\n');
      return 3;
    }
    // Every flag it was given (none holds a secret: credentials come from the environment).
    const command = [
      'conform',
      'init',
      ...argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)),
    ].join(' ');
    const text = renderDraft(draft, { command, date: new Date().toISOString().slice(0, 10) });
    // The draft must lint as written (its ${NAME} references left as they are).
    const { issues } = checkProfileSource(parseYamlSource(out, text), { env: false });
    if (issues.length > 0)
      throw new ConformError(
        'CONFORM_INTERNAL',
        `the draft does not lint:\n${issues.map((i) => i.message).join('\n')}\n${text}`,
      );
    for (const k of draft.keys.filter((x) => !x.off && x.value !== undefined))
      io.stderr.write(redactor.text(`  learned ${k.key}: ${JSON.stringify(k.value)}\n`));
    if (draft.leftovers.length > 0)
      io.stderr.write(
        `conform init: could not delete what it created (the target refused DELETE): ${draft.leftovers.join(', ')}\n`,
      );
    if (values.stdout) {
      io.stdout.write(text);
      return 0;
    }
    await writeFile(out, text, { flag: values.force ? 'w' : 'wx' }).catch((err: NodeJS.ErrnoException) => {
      throw new ConformError(
        'CONFORM_USAGE',
        err.code === 'EEXIST'
          ? `${values.out ?? 'conform.profile.yaml'} exists: give --force to overwrite it, or --out FILE`
          : `cannot write ${out}: ${err.message}`,
      );
    });
    const rel = path.relative(io.cwd, out) || out;
    io.stdout.write(`Wrote ${rel}. Read it, then: conform run --profile ${rel}\n`);
    return 0;
  } finally {
    await client.close();
  }
}

function resolveTargets(list: string[]): DraftInput['targets'] {
  if (list.length === 0) throw new ConformError('CONFORM_USAGE', 'give --target URL (twice for http:// and https://)');
  const out: DraftInput['targets'] = {};
  for (const t of list) {
    let url: URL;
    try {
      url = new URL(t);
    } catch {
      throw new ConformError('CONFORM_USAGE', `--target ${t} is not a URL`);
    }
    const scheme = url.protocol === 'http:' ? 'http' : url.protocol === 'https:' ? 'https' : undefined;
    if (scheme === undefined) throw new ConformError('CONFORM_USAGE', `--target ${t}: http:// or https:// expected`);
    if (out[scheme] !== undefined)
      throw new ConformError('CONFORM_USAGE', `--target given twice for ${scheme}://: one per scheme`);
    out[scheme] = t.replace(/\/$/, '');
  }
  return out;
}

function pathOption(value: string, flag: string): string {
  if (!value.startsWith('/'))
    throw new ConformError('CONFORM_USAGE', `${flag} ${value}: a path starting with / expected`);
  return value;
}

function oauth1Option(
  value: string,
  required: (name: string, flag: string) => InitSecret,
): NonNullable<DraftInput['oauth1']> {
  const paths = value.split(',').map((p) => p.trim());
  if (paths.length !== 3)
    throw new ConformError('CONFORM_USAGE', '--oauth1 expects three paths: temporary,authorize,token');
  const [temporaryEndpoint, authorizeEndpoint, tokenEndpoint] = paths.map((p) => pathOption(p, '--oauth1')) as [
    string,
    string,
    string,
  ];
  return {
    temporaryEndpoint,
    authorizeEndpoint,
    tokenEndpoint,
    consumerKey: required('CONFORM_OAUTH1_CONSUMER_KEY', '--oauth1'),
    consumerSecret: required('CONFORM_OAUTH1_CONSUMER_SECRET', '--oauth1'),
  };
}
