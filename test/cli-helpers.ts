/** Running the CLI in-process, as a user would from a shell, with captured output. */
import { main } from '../cli/src/main.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export async function runCli(cwd: string, argv: string[], env: Record<string, string> = {}): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (out += s), isTTY: false },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    env,
    cwd,
    untilSignal: () => Promise.resolve(),
  });
  return { code, out, err };
}
