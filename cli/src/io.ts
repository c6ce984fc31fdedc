import { bundledPaths } from '../../harness/src/paths.js';

/** Everything a command may touch of the process, injected so commands are testable in-process. */
export interface CliIo {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves when the user asks to stop (SIGINT/SIGTERM); used by `serve`. */
  untilSignal?: () => Promise<void>;
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
