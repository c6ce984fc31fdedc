/** `conform serve`: the bundled reference server, optionally with fault modes. Runs until SIGINT/SIGTERM. */
import { FAULTS, parseFaultNames, startServer } from '../../../reference-server/src/index.js';
import { faultList, intOption, parse } from '../args.js';
import type { CliIo } from '../io.js';

const HELP = `Usage: conform serve [--port N] [--host H] [--fault NAME]… [--list-faults] [--quiet]

Runs the bundled reference server (the implementation that passes every scenario).
  --port N          Port (default 8080; 0 picks a free one)
  --host H          Interface (default 127.0.0.1)
  --fault NAME      Switch on a named defect (repeatable or comma-separated), to see the harness catch it
  --list-faults     Print the fault modes and exit
  --max-body N      Largest request body accepted, bytes (default 65536)
  --max-articles N  Most articles stored; creating more answers 507 (default 10000)
  --quiet           No access log on stderr
`;

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    fault: { type: 'string', multiple: true },
    'list-faults': { type: 'boolean' },
    'max-body': { type: 'string' },
    'max-articles': { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (values['list-faults']) {
    const faults = FAULTS as Readonly<Record<string, string>>;
    const width = Math.max(...Object.keys(faults).map((k) => k.length));
    for (const [name, description] of Object.entries(faults)) io.stdout.write(`${name.padEnd(width)}  ${description}\n`);
    return 0;
  }
  const faults = parseFaultNames(faultList(values.fault, parseFaultNames));
  const maxBodyBytes = intOption(values['max-body'], 'max-body', 1, 1024 ** 3);
  const maxArticles = intOption(values['max-articles'], 'max-articles', 1, 100_000_000);
  const server = await startServer({
    host: values.host ?? '127.0.0.1',
    port: intOption(values.port, 'port', 0, 65535) ?? 8080,
    faults,
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    ...(maxArticles !== undefined ? { maxArticles } : {}),
    log: values.quiet ? () => {} : (line) => io.stderr.write(`${line}\n`),
  });
  io.stdout.write(`conform reference server listening on ${server.url}${faults.length ? ` with fault${faults.length > 1 ? 's' : ''} ${faults.join(', ')}` : ''}\n`);
  await (io.untilSignal ?? untilSignal)();
  await server.close();
  return 0;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
