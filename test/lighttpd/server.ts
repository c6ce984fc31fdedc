/**
 * Starts Debian's lighttpd (packages lighttpd, lighttpd-mod-webdav, lighttpd-mod-openssl) as a test target on two
 * free loopback ports, with everything it needs in a fresh temporary directory that `close()` removes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generateSelfSignedCertificate } from '../../reference-server/src/tls/certificate.js';
import { htpasswd, lighttpdConfig } from './config.js';

const BINARY = process.env['LIGHTTPD'] ?? '/usr/sbin/lighttpd';
const MODULE_DIR = '/usr/lib/lighttpd';
const MODULES = ['mod_webdav', 'mod_openssl', 'mod_auth', 'mod_authn_file'];
export const INSTALL = 'apt-get install lighttpd lighttpd-mod-webdav lighttpd-mod-openssl';

/** Why lighttpd cannot be started here, or undefined when it can. */
export function lighttpdMissing(): string | undefined {
  if (!existsSync(BINARY)) return `lighttpd not installed (no ${BINARY}): ${INSTALL}`;
  const absent = MODULES.filter((m) => !existsSync(path.join(MODULE_DIR, `${m}.so`)));
  if (absent.length > 0) return `lighttpd modules missing (${absent.join(', ')} in ${MODULE_DIR}): ${INSTALL}`;
  return undefined;
}

export interface LighttpdUser {
  name: string;
  password: string;
}

export interface LighttpdServer {
  url: string;
  httpsUrl: string;
  /** PEM certificate of the TLS listener (self-signed). */
  certificate: string;
  /** The document root, for looking at what WebDAV wrote. */
  documentRoot: string;
  /** What lighttpd wrote to its error log so far. */
  errorLog(): Promise<string>;
  close(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const POLL_MS = 50;
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 3_000;

async function waitForListeners(child: ChildProcess, ports: number[], log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`lighttpd exited (${child.exitCode ?? child.signalCode}) before listening:\n${log()}`);
    if ((await Promise.all(ports.map(accepts))).every(Boolean)) return;
    if (Date.now() > deadline)
      throw new Error(`lighttpd did not listen on ${ports.join(', ')} within ${START_TIMEOUT_MS} ms:\n${log()}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Writes the configuration, certificate, users and documents to a temporary directory and starts lighttpd there. */
export async function startLighttpd(users: LighttpdUser[]): Promise<LighttpdServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'conform-lighttpd-'));
  let child: ChildProcess | undefined;
  try {
    const root = path.join(dir, 'root');
    await mkdir(path.join(root, 'articles'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), '<service name="conform lighttpd target"/>\n');
    for (const u of users) {
      await mkdir(path.join(root, 'users', u.name), { recursive: true });
      await writeFile(path.join(root, 'users', u.name, 'financialrecords'), `<records owner="${u.name}"/>\n`);
    }
    const { cert, key } = generateSelfSignedCertificate();
    const files = {
      cert: path.join(dir, 'cert.pem'),
      key: path.join(dir, 'key.pem'),
      users: path.join(dir, 'htpasswd'),
      conf: path.join(dir, 'lighttpd.conf'),
      log: path.join(dir, 'error.log'),
    };
    await writeFile(files.cert, cert);
    await writeFile(files.key, key, { mode: 0o600 });
    await writeFile(files.users, htpasswd(users), { mode: 0o600 });
    const [httpPort, httpsPort] = [await freePort(), await freePort()] as const;
    await writeFile(
      files.conf,
      lighttpdConfig({
        documentRoot: root,
        userFile: files.users,
        certFile: files.cert,
        keyFile: files.key,
        errorLog: files.log,
        httpPort,
        httpsPort,
        users: users.map((u) => u.name),
      }),
    );
    let output = '';
    const started = spawn(BINARY, ['-D', '-f', files.conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    started.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await waitForListeners(started, [httpPort, httpsPort], () => output);
    return {
      url: `http://127.0.0.1:${httpPort}`,
      httpsUrl: `https://127.0.0.1:${httpsPort}`,
      certificate: cert,
      documentRoot: root,
      errorLog: () => readFile(files.log, 'utf8').catch(() => ''),
      close: async () => {
        await stop(started);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    if (child) await stop(child);
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}
