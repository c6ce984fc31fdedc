#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script).
import { main } from '../dist/cli/src/main.js';

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
