/**
 * Starts Debian's redis-server (package redis-server) for a test on a free loopback port, with persistence off
 * (`--save ''`, `--appendonly no`) in a fresh temporary directory that `close()` removes after stopping the server by
 * its pid. Found on PATH only, so a PATH without it shows the skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BINARY = process.env['REDIS_SERVER'] ?? 'redis-server';
/** The command that installs what these tests need (Debian, Ubuntu); `.ci/run` runs it. */
export const REDIS_INSTALL = 'apt-get install redis-server';

/** Why redis-server cannot be started here, or undefined when it can. */
export function redisMissing(): string | undefined {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8', timeout: 5000 });
  if (probe.error !== undefined || probe.status !== 0)
    return `redis-server not installed (not on PATH): ${REDIS_INSTALL}`;
  return undefined;
}

export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after 3 s) and removes its directory. Safe to call twice. */
  close(): Promise<void>;
  /** Stops the server only (the directory stays): for tests of what happens while Redis is down. */
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
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

/** Starts redis-server on a free port of 127.0.0.1 (or on `port`, to restart one on the same port). */
export async function startRedis(options: { port?: number; extraArgs?: string[] } = {}): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'conform-redis-'));
  const port = options.port ?? (await freePort());
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const close = async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`redis-server exited (${child.exitCode ?? child.signalCode}) before listening:\n${output}`);
      if (await accepts(port)) break;
      if (Date.now() > deadline)
        throw new Error(`redis-server did not listen on ${port} within ${START_TIMEOUT_MS} ms:\n${output}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid ?? 0, close, stop: () => stop(child) };
}
