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

/** Longest piece of output passed on without a newline, characters. */
const MAX_LINE = 65536;

/** The command could not be started (not found, not executable). */
export class ChildStartError extends Error {}

/**
 * Starts the command in a process group of its own; at the deadline, or when conform gets SIGINT or SIGTERM, the whole
 * group gets SIGKILL (a shell script's curl children too). Resolves when the command has exited and its output is read.
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
    // The command runs in a group of its own, out of reach of the terminal's Ctrl-C: a stop asked of conform stops it.
    const stop = () => killGroup(child.pid);
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const settle = () => {
      clearTimeout(timer);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    const split = (stream: 'stdout' | 'stderr') => {
      let rest = '';
      return {
        data: (chunk: Buffer) => {
          const lines = (rest + chunk.toString('utf8')).split('\n');
          rest = lines.pop() ?? '';
          // A line that never ends is passed on in pieces, so the buffer stays bounded.
          if (rest.length > MAX_LINE) {
            lines.push(rest);
            rest = '';
          }
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
      settle();
      reject(new ChildStartError(`cannot run ${options.command}: ${error.message}`, { cause: error }));
    });
    child.once('close', (code, signal) => {
      settle();
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
