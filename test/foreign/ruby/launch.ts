/**
 * Starts the foreign Ruby service (test/foreign/ruby: written from docs/spec.md alone by someone who never read this
 * repository; its README states its choices) on free loopback ports, with a fresh self-signed certificate and a
 * configuration of this test's users and clients in a temporary directory that `close()` removes. The process is
 * stopped by its pid. Needs Debian's ruby and the packages its README names; `rubyMissing()` says why not.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSelfSignedCertificate } from '../../../reference-server/src/tls/certificate.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const RUBY_INSTALL =
  'apt-get install ruby ruby-webrick ruby-rack ruby-nokogiri ruby-oauth ruby-rack-oauth2 (the service README)';
const LIBRARIES = ['webrick', 'rack', 'nokogiri', 'oauth', 'rack/oauth2'];

/** Why the service cannot be started here, or undefined when it can. */
export function rubyMissing(): string | undefined {
  const probe = spawnSync('ruby', ['-e', LIBRARIES.map((l) => `require '${l}'`).join('; ')], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (probe.error) return `ruby not found: ${RUBY_INSTALL}`;
  if (probe.status !== 0) return `ruby libraries missing (${probe.stderr.trim().split('\n')[0]}): ${RUBY_INSTALL}`;
  return undefined;
}

/** The users and clients the tests configure, with the credentials a profile gives. */
export const FOREIGN_CONFIG = {
  realm: 'article-service',
  lifetimes: { oauth2_access_token: 5 },
  users: [
    { username: 'alice', password: 'alice:pässword', hmac_secret: 'alice-hmac-secret', financialrecords: [] },
    { username: 'bob', password: 'bob-password', hmac_secret: 'bob-hmac-secret', financialrecords: [] },
  ],
  oauth1_consumers: [{ key: 'conform-consumer', secret: 'conform-consumer-secret', callback_uris: [] }],
  oauth2_clients: [
    {
      client_id: 'conform-client',
      client_secret: 'conform-client-secret',
      redirect_uris: ['https://client.example/callback'],
      grant_types: ['authorization_code', 'password', 'client_credentials', 'refresh_token'],
      scopes: ['articles', 'records'],
    },
  ],
};

export interface ForeignServer {
  url: string;
  httpsUrl: string;
  certificate: string;
  /** What the service wrote to stderr so far. */
  log(): string;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

/** Starts the service (with the defects named in `defects`, its DEFECTS.md) and resolves when it printed READY. */
export async function startForeignRuby(defects: readonly string[] = []): Promise<ForeignServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'conform-foreign-ruby-'));
  const { cert, key } = generateSelfSignedCertificate();
  const files = { cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem'), config: path.join(dir, 'c.json') };
  await writeFile(files.cert, cert);
  await writeFile(files.key, key, { mode: 0o600 });
  await writeFile(files.config, JSON.stringify(FOREIGN_CONFIG), { mode: 0o600 });
  let stderr = '';
  const child: ChildProcess = spawn('ruby', [path.join(HERE, 'server.rb')], {
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      BIND: '127.0.0.1',
      HTTP_PORT: '0',
      HTTPS_PORT: '0',
      TLS_CERT: files.cert,
      TLS_KEY: files.key,
      CONFIG: files.config,
      ...(defects.length > 0 ? { DEFECT: defects.join(',') } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (b: Buffer) => {
    if (stderr.length < 200_000) stderr += b.toString('utf8');
  });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  try {
    const ready = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`no READY within ${START_TIMEOUT_MS} ms:\n${stderr}`)),
        START_TIMEOUT_MS,
      );
      child.stdout?.on('data', (b: Buffer) => {
        out += b.toString('utf8');
        const line = /^READY (\S+) (\S+)\s*$/m.exec(out);
        if (line) {
          clearTimeout(timer);
          resolve(line[0]);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the service exited (${code ?? signal}) before READY:\n${stderr}`));
      });
    });
    const [, url, httpsUrl] = /^READY (\S+) (\S+)/.exec(ready)!;
    return {
      url: url!,
      httpsUrl: httpsUrl!,
      certificate: cert,
      log: () => stderr,
      close: async () => {
        await stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await stop();
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}
