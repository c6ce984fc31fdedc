import { ConformError } from '../../harness/src/errors.js';
import { bundledPaths } from '../../harness/src/paths.js';

/** Everything a command may touch of the process, injected so commands are testable in-process. */
export interface CliIo {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves when the user asks to stop (SIGINT/SIGTERM); used by `serve`. */
  untilSignal?: () => Promise<void>;
  /** Standard input as text (`--profile -`); default: the process's, bounded. */
  stdin?: () => Promise<string>;
  /** Aborted when the user interrupts a run (default: the process's SIGINT and SIGTERM, in `conform run`). */
  signal?: AbortSignal;
}

/** The package's own folder (works from `dist/` and from sources under vitest). */
export function packageRoot(): string {
  return bundledPaths().root;
}

export function toolVersion(): string {
  return bundledPaths().version;
}

export const defaults = {
  specs: () => bundledPaths().specs,
  rules: () => bundledPaths().rules,
  profile: () => bundledPaths().profile,
  vectors: () => bundledPaths().vectors,
};

/** The most `--profile -` reads from standard input. */
export const MAX_STDIN_BYTES = 1024 * 1024;

/** Standard input as text: `io.stdin` when given, else the process's, at most {@link MAX_STDIN_BYTES}. */
export async function readStdin(io: Pick<CliIo, 'stdin'>): Promise<string> {
  if (io.stdin) return io.stdin();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_STDIN_BYTES)
      throw new ConformError('CONFORM_USAGE', `standard input is over ${MAX_STDIN_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
