/** Writing reports: every selected file reporter under the report dir (atomically), and GitHub's summary/annotations. */
import { appendFile, chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { githubAnnotations, renderMarkdown } from '../../harness/src/report/markdown.js';
import { FILE_REPORTERS } from '../../harness/src/report/registry.js';
import { renderScript, scriptPath } from '../../harness/src/report/script.js';
import type { RunResult } from '../../harness/src/runner/types.js';
import { ConformError } from '../../harness/src/errors.js';
import type { CliIo } from './io.js';

/**
 * `mkdir -p` with a bound: each missing ancestor made in turn, non-recursively. (Node's own recursive mkdir never
 * returns for a path under /proc that cannot exist: it retries the parent forever at full CPU.)
 */
export async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const exists = await stat(d).then(
      (st) =>
        st.isDirectory() || Promise.reject(Object.assign(new Error(`${d} is not a directory`), { code: 'ENOTDIR' })),
      (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? false : Promise.reject(err)),
    );
    if (exists) break;
    missing.unshift(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing) {
    await mkdir(d).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  }
}

export async function writeAtomic(file: string, text: string): Promise<void> {
  await makeDirectory(path.dirname(file));
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/**
 * Makes sure the reports can be written, before anything is sent to a target: the directory is created and a file
 * written in it and removed. A directory that cannot be made or written (an existing file, `/dev/stdout`, a read-only
 * or missing parent) is a usage error now, not an internal error after the whole run.
 */
export async function prepareReportDir(dir: string, option = '--report-dir'): Promise<void> {
  const probe = path.join(dir, `.conform-write-check.${process.pid}`);
  try {
    await makeDirectory(dir);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EEXIST' || e.code === 'ENOTDIR' ? 'it is not a directory' : e.message;
    throw new ConformError('CONFORM_USAGE', `${option} ${dir}: cannot write reports there (${why})`);
  }
}

/**
 * Makes sure a file can be written, before anything is sent to a target (as {@link prepareReportDir} does for the
 * report directory): its folder must exist, and the path must not be a directory. A probe file is written beside it
 * and removed; the file itself is not touched.
 */
export async function prepareOutputFile(file: string, option: string): Promise<void> {
  const dir = path.dirname(file);
  const probe = path.join(dir, `.conform-write-check.${process.pid}`);
  try {
    const st = await stat(file).catch((err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' ? undefined : Promise.reject(err),
    );
    if (st?.isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
    const parent = await stat(dir).catch((err: NodeJS.ErrnoException) =>
      Promise.reject(
        err.code === 'ENOENT' ? Object.assign(new Error(`its folder ${dir} does not exist`), { code: 'ENOENT' }) : err,
      ),
    );
    if (!parent.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (err) {
    throw new ConformError('CONFORM_USAGE', `${option} ${file}: cannot write there (${(err as Error).message})`);
  }
}

/** Writes `report.json` and every other selected file reporter; returns the paths written (relative to cwd). */
export async function writeReports(
  run: RunResult,
  reporters: readonly string[],
  dir: string,
  io: CliIo,
): Promise<string[]> {
  const written: string[] = [];
  for (const name of new Set(['json', ...reporters.filter((r) => r !== 'console')])) {
    const reporter = FILE_REPORTERS[name];
    if (!reporter) continue;
    const file = path.join(dir, reporter.file);
    await writeAtomic(file, reporter.render(run));
    written.push(path.relative(io.cwd, file) || file);
  }
  return written;
}

/**
 * Writes each failed or errored scenario's replay script under `dir/repro/` (executable; see report/script.ts),
 * after removing the scripts of an earlier run there; returns the paths written (relative to cwd).
 */
export async function writeScripts(run: RunResult, dir: string, io: CliIo): Promise<string[]> {
  await rm(path.join(dir, 'repro'), { recursive: true, force: true });
  const written: string[] = [];
  for (const r of run.scenarios) {
    const text = renderScript(r, {
      ...(run.options.tls ? { tls: run.options.tls } : {}),
      seed: run.seed,
      target: run.target,
      startedAt: run.startedAt,
      ...(run.keptFailed?.[r.id] ? { kept: run.keptFailed[r.id] } : {}),
    });
    if (text === undefined) continue;
    const file = path.join(dir, scriptPath(r.id));
    await writeAtomic(file, text);
    await chmod(file, 0o755);
    written.push(path.relative(io.cwd, file) || file);
  }
  return written;
}

/**
 * On GitHub Actions: appends the Markdown summary to $GITHUB_STEP_SUMMARY and prints each failure as an annotation
 * at its scenario's file and line (relative to $GITHUB_WORKSPACE; none for a file outside it).
 */
export async function githubOutputs(run: RunResult, io: CliIo): Promise<void> {
  const summary = io.env['GITHUB_STEP_SUMMARY'];
  if (!summary) return;
  await appendFile(summary, renderMarkdown(run));
  io.stdout.write(githubAnnotations(run, io.env['GITHUB_WORKSPACE']));
}
