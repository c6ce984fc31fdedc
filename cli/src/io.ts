import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Everything a command may touch of the process, injected so commands are testable in-process. */
export interface CliIo {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves when the user asks to stop (SIGINT/SIGTERM); used by `serve`. */
  untilSignal?: () => Promise<void>;
}

let root: string | undefined;
/** The package's own folder (works from `dist/` and from sources under vitest). */
export function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'conform') return (root = dir);
    dir = path.dirname(dir);
  }
  throw new Error('cannot find the conform package folder');
}

export function toolVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export const defaults = {
  specs: () => path.join(packageRoot(), 'specs'),
  rules: () => path.join(packageRoot(), 'specs', 'rules.yaml'),
  profile: () => path.join(packageRoot(), 'reference-server', 'profile.yaml'),
  vectors: () => path.join(packageRoot(), 'specs', 'vectors', 'auth.yaml'),
};
