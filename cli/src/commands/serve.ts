/** `conform serve`: the bundled reference server, optionally with fault modes. Runs until SIGINT/SIGTERM. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConformError } from '../../../harness/src/errors.js';
import { FAULTS, ReferenceServerError, VARIANTS, parseFaultNames, parseVariantNames, startServer } from '../../../reference-server/src/index.js';
import { defaults } from '../io.js';
import { variantProfileText } from '../variant-profile.js';
import { faultList, intOption, parse } from '../args.js';
import type { CliIo } from '../io.js';

const HELP = `Usage: conform serve [--port N] [--https-port N] [--host H] [--data DIR] [--fault NAME]… [--list-faults]
       [--variant NAME]… [--list-variants] [--profile-out FILE] [--quiet]

Runs the bundled reference server (the implementation that passes every scenario): plain HTTP and, beside it,
TLS with a self-signed certificate made at start (or --cert/--key).
  --port N          Plain-HTTP port (default 8080; 0 picks a free one)
  --https-port N    TLS port (default 8443; 0 picks a free one; "off" for none)
  --cert FILE       TLS certificate (PEM); with --key. Default: self-signed for 127.0.0.1 and localhost
  --key FILE        TLS private key (PEM)
  --cert-out FILE   Write the certificate in use (PEM), for clients to trust (curl --cacert, conform run --ca)
  --host H          Interface (default 127.0.0.1)
  --window S        Accepted clock difference for signed requests, seconds (default 600)
  --body-hash on|off  Require the body hash in signed PUT/POST (docs/auth.md; default on)
  --token-ttl S     OAuth 2 access token lifetime, seconds (default 5, short so expiry can be tested; raise it
                    for manual use)
  --fault NAME      Switch on a named defect (repeatable or comma-separated), to see the harness catch it
  --list-faults     Print the fault modes and exit
  --variant NAME    Choose an open point of the spec differently (repeatable or comma-separated): still a
                    correct server, which the whole suite passes with the variant's profile
  --list-variants   Print the variants and exit
  --profile-out FILE  Write the profile of this server (the reference profile with the variants' keys and the
                    listening URLs), for conform run --profile
  --data DIR        Keep articles and nonces in DIR (an fsynced append-only journal): every answer goes out
                    only once its changes are on disk, so a restart, even after kill -9, loses no acknowledged
                    write and still refuses replayed nonces. Default: memory only
Limits (see the README's "Limits" section):
  --max-body N      Largest request body accepted, bytes; larger → 413 (default 65536)
  --max-header N    Largest request head, bytes; larger → 431 (default 16384)
  --max-articles N  Most articles stored; creating more answers 507 (default 10000)
  --nonce-capacity N  Most nonces remembered; when full, signed requests get 503 + Retry-After (default 1000000)
  --token-capacity N  Most live OAuth credentials per store; when full, 503 + Retry-After (default 100000)
  --request-timeout MS  Time to receive a whole request; then 408 (default 5000)
  --keep-alive-timeout MS  Idle keep-alive connections are closed after this (default 5000)
  --quiet           No access log on stderr
`;

/** Errors of the machine rather than of conform: a port taken, a data directory that cannot be used. */
const ENVIRONMENT_ERRORS = new Set(['EADDRINUSE', 'EADDRNOTAVAIL', 'EACCES', 'EPERM', 'ENOTDIR', 'EROFS', 'ENOSPC', 'EISDIR', 'EEXIST']);

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    fault: { type: 'string', multiple: true },
    'list-faults': { type: 'boolean' },
    variant: { type: 'string', multiple: true },
    'list-variants': { type: 'boolean' },
    'profile-out': { type: 'string' },
    'max-body': { type: 'string' },
    'max-articles': { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
    'https-port': { type: 'string' },
    cert: { type: 'string' },
    key: { type: 'string' },
    'cert-out': { type: 'string' },
    window: { type: 'string' },
    'body-hash': { type: 'string' },
    'token-ttl': { type: 'string' },
    data: { type: 'string' },
    'max-header': { type: 'string' },
    'nonce-capacity': { type: 'string' },
    'token-capacity': { type: 'string' },
    'request-timeout': { type: 'string' },
    'keep-alive-timeout': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (values['list-faults'] || values['list-variants']) {
    const entries: [string, string][] = values['list-faults'] ? Object.entries(FAULTS) : Object.entries(VARIANTS).map(([name, v]) => [name, v.description]);
    const width = Math.max(...entries.map(([k]) => k.length));
    for (const [name, description] of entries) io.stdout.write(`${name.padEnd(width)}  ${description}\n`);
    return 0;
  }
  const faults = parseFaultNames(faultList(values.fault, parseFaultNames));
  const variants = parseVariantNames(faultList(values.variant, parseVariantNames));
  const maxBodyBytes = intOption(values['max-body'], 'max-body', 1, 1024 ** 3);
  const maxArticles = intOption(values['max-articles'], 'max-articles', 1, 100_000_000);
  const limits = {
    maxHeaderBytes: intOption(values['max-header'], 'max-header', 1024, 1024 ** 2),
    nonceCapacity: intOption(values['nonce-capacity'], 'nonce-capacity', 1, 100_000_000),
    tokenCapacity: intOption(values['token-capacity'], 'token-capacity', 1, 100_000_000),
    requestTimeoutMs: intOption(values['request-timeout'], 'request-timeout', 100, 3_600_000),
    keepAliveTimeoutMs: intOption(values['keep-alive-timeout'], 'keep-alive-timeout', 100, 3_600_000),
  };
  const httpsPort = values['https-port'] === 'off' ? undefined : (intOption(values['https-port'], 'https-port', 0, 65535) ?? 8443);
  if ((values.cert === undefined) !== (values.key === undefined)) throw new ConformError('CONFORM_USAGE', '--cert and --key go together');
  const readPem = async (file: string) => readFile(path.resolve(io.cwd, file), 'utf8').catch((err: Error) => {
    throw new ConformError('CONFORM_USAGE', `cannot read ${file}: ${err.message}`);
  });
  const tls = values.cert !== undefined && values.key !== undefined ? { cert: await readPem(values.cert), key: await readPem(values.key) } : undefined;
  const window = intOption(values.window, 'window', 1, 10 * 365 * 86_400);
  const tokenTtl = intOption(values['token-ttl'], 'token-ttl', 1, 365 * 86_400);
  const bodyHash = values['body-hash'] === undefined ? undefined : values['body-hash'] === 'on' ? true : values['body-hash'] === 'off' ? false : undefined;
  if (values['body-hash'] !== undefined && bodyHash === undefined) throw new ConformError('CONFORM_USAGE', '--body-hash takes on or off');
  const server = await startServer({
    ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    ...(values.data !== undefined ? { dataDir: path.resolve(io.cwd, values.data) } : {}),
    ...(httpsPort !== undefined ? { httpsPort } : {}),
    ...(tls ? { tls } : {}),
    ...(window !== undefined ? { window } : {}),
    ...(tokenTtl !== undefined ? { tokenTtl } : {}),
    ...(bodyHash !== undefined ? { bodyHash } : {}),
    host: values.host ?? '127.0.0.1',
    port: intOption(values.port, 'port', 0, 65535) ?? 8080,
    faults,
    variants,
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    ...(maxArticles !== undefined ? { maxArticles } : {}),
    log: values.quiet ? () => {} : (line) => io.stderr.write(`${line}\n`),
  }).catch((err: unknown) => {
    if (err instanceof ReferenceServerError) throw new ConformError(err.code === 'REF_JOURNAL_WRITE_FAILED' ? 'CONFORM_IO' : 'CONFORM_USAGE', err.message, { cause: err });
    if (ENVIRONMENT_ERRORS.has(String((err as NodeJS.ErrnoException).code))) throw new ConformError('CONFORM_IO', (err as Error).message);
    throw err;
  });
  if (values['cert-out'] && server.certificate) await writeFile(path.resolve(io.cwd, values['cert-out']), server.certificate);
  if (values['profile-out']) {
    const target = { http: server.url, https: server.httpsUrl ?? null, insecure: server.httpsUrl !== undefined };
    const header = `# Profile of: conform serve${variants.map((v) => ` --variant ${v}`).join('')}\n`;
    await writeFile(path.resolve(io.cwd, values['profile-out']), header + variantProfileText(defaults.profile(), variants, { target }));
  }
  const urls = [server.url, server.httpsUrl].filter(Boolean).join(' and ');
  io.stdout.write(`conform reference server listening on ${urls}${faults.length ? ` with fault${faults.length > 1 ? 's' : ''} ${faults.join(', ')}` : ''}${variants.length ? ` (variant${variants.length > 1 ? 's' : ''} ${variants.join(', ')})` : ''}\n`);
  await (io.untilSignal ?? untilSignal)();
  await server.close();
  return 0;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
