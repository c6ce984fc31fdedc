/** Writing reports: every selected file reporter under the report dir (atomically), and GitHub's summary/annotations. */
import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { githubAnnotations, renderMarkdown } from '../../harness/src/report/markdown.js';
import { FILE_REPORTERS } from '../../harness/src/report/registry.js';
import type { RunResult } from '../../harness/src/runner/types.js';
import type { CliIo } from './io.js';

export async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
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
 * On GitHub Actions: appends the Markdown summary to $GITHUB_STEP_SUMMARY and prints each failure as an annotation
 * at its scenario's file and line (relative to $GITHUB_WORKSPACE; none for a file outside it).
 */
export async function githubOutputs(run: RunResult, io: CliIo): Promise<void> {
  const summary = io.env['GITHUB_STEP_SUMMARY'];
  if (!summary) return;
  await appendFile(summary, renderMarkdown(run));
  io.stdout.write(githubAnnotations(run, io.env['GITHUB_WORKSPACE']));
}
