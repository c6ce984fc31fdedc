/** Runs the client command of `conform check-client`: its own process group, a deadline, its output line by line. */
import { spawn } from 'node:child_process';

/** How the command ended. */
export interface ChildExit {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
}

/** What {@link runChild} needs. */
export interface ChildOptions {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  /** Each complete line of the command's stdout or stderr (and a last unterminated one). */
  onLine: (stream: 'stdout' | 'stderr', line: string) => void;
}

/** The command could not be started (not found, not executable). */
export class ChildStartError extends Error {}

/**
 * Starts the command in a process group of its own; at the deadline the whole group gets SIGKILL (a shell script's
 * curl children too). Resolves when the command has exited and its output is read.
 */
export function runChild(options: ChildOptions): Promise<ChildExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    const split = (stream: 'stdout' | 'stderr') => {
      let rest = '';
      return {
        data: (chunk: Buffer) => {
          const lines = (rest + chunk.toString('utf8')).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) options.onLine(stream, line);
        },
        end: () => {
          if (rest !== '') options.onLine(stream, rest);
          rest = '';
        },
      };
    };
    const out = split('stdout');
    const err = split('stderr');
    child.stdout.on('data', out.data);
    child.stderr.on('data', err.data);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new ChildStartError(`cannot run ${options.command}: ${error.message}`, { cause: error }));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      out.end();
      err.end();
      // Whatever the command left behind in its group (a backgrounded curl) goes with it.
      killGroup(child.pid);
      resolve({ code, signal, timedOut });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}
