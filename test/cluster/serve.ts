/**
 * `conform serve --instances N …` as a real process tree (dist/, as `npm ci` builds it): the balancer's URLs, each
 * instance's pid and URLs as it prints them, the profile it writes (`--profile-out`, listing the instances) and the
 * certificate they all serve. `stop()` sends SIGTERM and waits for the parent; any instance still alive after it is
 * killed by its pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../helpers.js';

export interface ServedInstance {
  instance: number;
  pid: number;
  url: string;
  httpsUrl: string;
}

export interface ServedCluster {
  url: string;
  httpsUrl: string;
  certificate: string;
  /** The profile `--profile-out` wrote (the reference profile with target and target.instances). */
  profileFile: string;
  instances: ServedInstance[];
  /** Everything it printed on stdout. */
  output: string;
  pid: number;
  /** SIGTERM (or `signal`), then waits for every process of the tree to exit; removes the temporary files. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 8_000;

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `conform serve --port 0 --https-port 0 --quiet <args>` and resolves once the balancer listens. */
export async function serveCluster(args: string[]): Promise<ServedCluster> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'conform-cluster-'));
  const profileFile = path.join(dir, 'profile.yaml');
  const certFile = path.join(dir, 'cert.pem');
  const argv = [
    path.join(ROOT, 'bin', 'conform.js'),
    'serve',
    '--port',
    '0',
    '--https-port',
    '0',
    '--quiet',
    '--profile-out',
    profileFile,
    '--cert-out',
    certFile,
    ...args,
  ];
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stderr?.on('data', (d: Buffer) => (errors += d.toString()));
  const instances: ServedInstance[] = [];
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited(child);
    clearTimeout(timer);
    for (const i of instances) if (alive(i.pid)) process.kill(i.pid, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const listening = await new Promise<{ url: string; httpsUrl: string }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`conform serve did not listen within ${START_TIMEOUT_MS} ms:\n${output}${errors}`)),
        START_TIMEOUT_MS,
      );
      child.stdout?.on('data', (d: Buffer) => {
        output += d.toString();
        for (const m of output.matchAll(/^ {2}instance (\d+) \(pid (\d+)\): (http:\/\/\S+) (https:\/\/\S+)$/gm)) {
          if (!instances.some((i) => i.instance === Number(m[1])))
            instances.push({ instance: Number(m[1]), pid: Number(m[2]), url: m[3]!, httpsUrl: m[4]! });
        }
        const m = /listening on (http:\/\/\S+) and (https:\/\/\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve({ url: m[1]!, httpsUrl: m[2]! });
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`conform serve exited (${code ?? signal}) before listening:\n${output}${errors}`));
      });
    });
    const certificate = await readFile(certFile, 'utf8');
    return { ...listening, certificate, profileFile, instances, output, pid: child.pid ?? 0, stop };
  } catch (err) {
    await stop('SIGKILL');
    throw err;
  }
}
