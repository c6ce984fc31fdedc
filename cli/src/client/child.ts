/** Runs the client command of `conform check-client`: its own process group, a deadline, its output line by line. */
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

/** How the command ended. */
export interface ChildExit {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  /**
   * After the command exited, a process it left behind (one outside its process group: its own session) still held
   * its output open; conform stopped reading after the drain. Absent otherwise.
   */
  outputHeld?: boolean;
}

/** What {@link runChild} needs. */
export interface ChildOptions {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  /**
   * Each complete line of the command's stdout or stderr, without its newline (`end: true`), and a last unterminated
   * one; a line longer than {@link MAX_LINE} comes in pieces, each but the last with `end: false`.
   */
  onLine: (stream: 'stdout' | 'stderr', line: string, end: boolean) => void;
  /** How long the output is still read once the command has exited, ms. Default {@link DRAIN_MS}. */
  drainMs?: number;
}

/** Longest piece of output held while waiting for its newline, characters: past it, the piece is passed on. */
export const MAX_LINE = 1 << 20;

/** Default of {@link ChildOptions.drainMs}: output still in the pipes when the command exits is read for this long. */
export const DRAIN_MS = 2000;

/** The command could not be started (not found, not executable). */
export class ChildStartError extends Error {}

/**
 * Starts the command in a process group of its own; at the deadline, or when conform gets SIGINT or SIGTERM, the whole
 * group gets SIGKILL (a shell script's curl children too). The command is done when it exits: its group is killed
 * (what it left running in the background goes with it), then its output is read until both pipes close or the drain
 * ends, whichever comes first — a process in a session of its own, out of the group's reach, cannot hold conform.
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
    const out = lineReader('stdout', child.stdout, options.onLine);
    const err = lineReader('stderr', child.stderr, options.onLine);
    child.once('error', (error) => {
      settle();
      reject(new ChildStartError(`cannot run ${options.command}: ${error.message}`, { cause: error }));
    });
    child.once('exit', (code, signal) => {
      settle();
      // Whatever the command left behind in its group (a backgrounded curl) goes with it.
      killGroup(child.pid);
      let drain: NodeJS.Timeout | undefined;
      const finish = (held: boolean) => {
        if (drain !== undefined) clearTimeout(drain);
        out.finish();
        err.finish();
        resolve({ code, signal, timedOut, ...(held ? { outputHeld: true } : {}) });
      };
      void Promise.all([out.closed, err.closed]).then(() => finish(false));
      drain = setTimeout(() => finish(true), options.drainMs ?? DRAIN_MS);
    });
  });
}

/** Reads one output stream as UTF-8 (a character split across chunks is kept whole) and hands on its lines. */
export function lineReader(
  name: 'stdout' | 'stderr',
  stream: Readable,
  onLine: ChildOptions['onLine'],
): { closed: Promise<void>; finish(): void } {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let done = false;
  const take = (text: string) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(name, line, true);
    // A line that never ends is passed on in pieces, so the buffer stays bounded.
    while (rest.length > MAX_LINE) {
      onLine(name, rest.slice(0, MAX_LINE), false);
      rest = rest.slice(MAX_LINE);
    }
  };
  stream.on('data', (chunk: Buffer) => {
    if (!done) take(decoder.write(chunk));
  });
  const closed = new Promise<void>((resolve) => {
    stream.once('close', resolve);
    stream.once('end', resolve);
  });
  return {
    closed,
    finish: () => {
      if (done) return;
      done = true;
      take(decoder.end());
      if (rest !== '') onLine(name, rest, true);
      rest = '';
      stream.destroy();
    },
  };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}
