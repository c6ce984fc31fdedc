#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, which `npm start` and `npm pack` run first).
import module from 'node:module';

// Node 22.1 and later keep V8's compiled code of the modules on disk (os.tmpdir()/node-compile-cache, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), as TypeScript's tsc does: a later start skips
// compiling them again. It never throws; on Node 20 the function is absent and nothing happens.
module.enableCompileCache?.();
let main;
try {
  ({ main } = await import('../dist/cli/src/main.js'));
} catch (err) {
  // A fresh clone that was never built: say what to do, not a module-resolution stack trace.
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('/dist/')) {
    process.stderr.write('conform is not built yet: run `npm run build` in this folder (`npm start` does it)\n');
    process.exit(2);
  }
  throw err;
}

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
