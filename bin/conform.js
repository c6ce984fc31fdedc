#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, which `npm start` and `npm pack` run first).
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
