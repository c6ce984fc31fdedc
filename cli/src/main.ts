/** `conform` command line: argv → resolved options → command → exit code. The only layer that knows the process. */
import { ConformError, InvalidFileError, exitCodeForError } from '../../harness/src/errors.js';
import { closest } from './args.js';
import { toolVersion, type CliIo } from './io.js';

export type { CliIo } from './io.js';

const HELP = `conform — conformance harness for the HTTP resource service spec

Usage: conform <command> [options]

Commands:
  init      Probe a target and write a commented draft profile for it
  run       Replay the scenarios against a target and write compliance reports
  diff      Replay the same requests against a target and the reference server; report every difference
  serve     Run the bundled reference server
  lint      Validate scenario files, profiles and the rule catalogue
  rules     Print the requirement catalogue with the scenarios covering each rule
  merge     Join the report.json files of a sharded run into one report
  sign      Print the authentication headers for one request (debug a server with curl)
  check-client  Run your client against the reference server and judge its requests against the client rules
  schemas   Write (or --check) the generated JSON Schemas and the docs pages (rules, profile keys)

Run "conform <command> --help" (or "conform help <command>") for a command's options.

Exit codes: 0 pass · 1 a MUST scenario failed or errored · 2 usage, invalid file or credentials refused · 3 target unreachable · 4 internal error · 5 check-client: the client command failed · 6 incomplete: what the profile describes was not all exercised · 130 interrupted (run: a partial report)
`;

type Command = (argv: string[], io: CliIo) => Promise<number>;

/** Each command's code is loaded when it runs: `conform --help` and every command start without the others' graphs. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  init: async () => (await import('./commands/init.js')).initCommand,
  run: async () => (await import('./commands/run.js')).runCommand,
  diff: async () => (await import('./commands/diff.js')).diffCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  lint: async () => (await import('./commands/lint.js')).lintCommand,
  merge: async () => (await import('./commands/merge.js')).mergeCommand,
  rules: async () => (await import('./commands/rules.js')).rulesCommand,
  schemas: async () => (await import('./commands/schemas.js')).schemasCommand,
  sign: async () => (await import('./commands/sign.js')).signCommand,
  'check-client': async () => (await import('./commands/check-client.js')).checkClientCommand,
  // Not listed in the help: one instance of `conform serve --instances N`, started by it over IPC.
  'serve-instance': async () => (await import('./commands/serve-instance.js')).serveInstanceCommand,
};

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [first, ...afterFirst] = argv;
  // `conform help run` is `conform run --help`.
  const helpFor = first === 'help' && afterFirst[0] !== undefined ? afterFirst[0] : undefined;
  const command = helpFor ?? first;
  const rest = helpFor !== undefined ? ['--help'] : afterFirst;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`${toolVersion()}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    const near = closest(
      command,
      Object.keys(COMMANDS).filter((c) => c !== 'serve-instance'),
    );
    io.stderr.write(`conform: unknown command "${command}"${near ? ` (did you mean "${near}"?)` : ''}\n\n${HELP}`);
    return 2;
  }
  try {
    const handler = await load();
    return await handler(rest, io);
  } catch (err) {
    const code = exitCodeForError(err);
    if (err instanceof InvalidFileError) io.stderr.write(`${err.message}\n`);
    else if (err instanceof ConformError && err.code !== 'CONFORM_INTERNAL')
      io.stderr.write(`conform ${command}: ${err.message}\n`);
    else
      io.stderr.write(
        `conform ${command}: internal error (a bug in conform, please report it): ${(err as Error).stack ?? String(err)}\n`,
      );
    return code;
  }
}
