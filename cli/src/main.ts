/** `conform` command line: argv → resolved options → command → exit code. The only layer that knows the process. */
import { ConformError, InvalidFileError, exitCodeForError } from '../../harness/src/errors.js';
import { diffCommand } from './commands/diff.js';
import { lintCommand } from './commands/lint.js';
import { mergeCommand } from './commands/merge.js';
import { rulesCommand } from './commands/rules.js';
import { runCommand } from './commands/run.js';
import { schemasCommand } from './commands/schemas.js';
import { serveCommand } from './commands/serve.js';
import { signCommand } from './commands/sign.js';
import { toolVersion, type CliIo } from './io.js';

export type { CliIo } from './io.js';

const HELP = `conform — conformance harness for the HTTP resource service spec

Usage: conform <command> [options]

Commands:
  run       Replay the scenarios against a target and write compliance reports
  diff      Replay the same requests against a target and the reference server; report every difference
  serve     Run the bundled reference server
  lint      Validate scenario files, profiles and the rule catalogue
  rules     Print the requirement catalogue with the scenarios covering each rule
  merge     Join the report.json files of a sharded run into one report
  sign      Print the authentication headers for one request (debug a server with curl)
  schemas   Write (or --check) the JSON Schemas generated for editors

Run "conform <command> --help" for a command's options.

Exit codes: 0 pass · 1 a MUST scenario failed or errored · 2 usage or invalid file · 3 target unreachable · 4 internal error
`;

const COMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<number>> = {
  run: runCommand,
  diff: diffCommand,
  serve: serveCommand,
  lint: lintCommand,
  merge: mergeCommand,
  rules: rulesCommand,
  schemas: schemasCommand,
  sign: signCommand,
};

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`${toolVersion()}\n`);
    return 0;
  }
  const handler = COMMANDS[command];
  if (!handler) {
    io.stderr.write(`conform: unknown command "${command}"\n\n${HELP}`);
    return 2;
  }
  try {
    return await handler(rest, io);
  } catch (err) {
    const code = exitCodeForError(err);
    if (err instanceof InvalidFileError) io.stderr.write(`${err.message}\n`);
    else if (err instanceof ConformError && err.code !== 'CONFORM_INTERNAL') io.stderr.write(`conform ${command}: ${err.message}\n`);
    else io.stderr.write(`conform ${command}: internal error (a bug in conform, please report it): ${(err as Error).stack ?? String(err)}\n`);
    return code;
  }
}
