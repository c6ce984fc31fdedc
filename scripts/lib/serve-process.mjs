// `conform serve` in its own process, as a target is, for the benchmark and load scripts.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Starts `node [nodeArgs] bin/conform.js serve [serveArgs]` and resolves once it listens.
 * @param {{ serveArgs: string[], nodeArgs?: string[], onLine?: (line: string) => void }} options `onLine` gets
 *   every line of its stdout.
 * @returns {Promise<{ url: string, child: import('node:child_process').ChildProcess, stop: () => Promise<void> }>}
 *   `stop` sends SIGTERM, then SIGKILL if it has not gone within 3 s; safe to call more than once.
 */
export async function startConformServe({ serveArgs, nodeArgs = [], onLine = () => {} }) {
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'bin', 'conform.js'), 'serve', ...serveArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let pending = '';
    child.stdout.on('data', (d) => {
      pending += d;
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        onLine(line);
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m) resolve(m[1]);
      }
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`conform serve exited (code ${code}, signal ${signal}) before listening`)),
    );
    child.once('error', reject);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await gone;
    clearTimeout(timer);
  };
  return { url, child, stop };
}
