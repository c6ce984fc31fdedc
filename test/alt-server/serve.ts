/**
 * Runs the alternative server on its own, to point `conform run` at it:
 *   npx tsc --outDir /tmp/alt-build --rootDir . test/alt-server/serve.ts --module NodeNext --target ES2022 --skipLibCheck
 *   node /tmp/alt-build/test/alt-server/serve.js --port 0
 * It prints its URL on the first line and stops on SIGINT or SIGTERM.
 */
import { startAltServer } from './server.js';

const at = process.argv.indexOf('--port');
const port = at >= 0 ? Number(process.argv[at + 1]) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write('usage: serve [--port N]\n');
  process.exit(2);
}
const server = await startAltServer({ port });
process.stdout.write(`${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
