/** Writes the client report files of `conform check-client`; client-report.json always. */
import path from 'node:path';
import {
  renderClientHtml,
  renderClientJunit,
  renderClientMarkdown,
} from '../../../harness/src/report/client/render.js';
import type { ClientReport } from '../../../harness/src/report/client/schema.js';
import { prepareReportDir, writeAtomic } from '../output.js';

/**
 * Writes `client-report.json` and the files of the chosen reporters into `dir` (created when missing); returns the
 * paths written.
 */
export async function writeClientReports(
  report: ClientReport,
  dir: string,
  reporters: readonly string[],
  strict: boolean,
): Promise<string[]> {
  await prepareReportDir(dir);
  const files: Array<[string, string]> = [['client-report.json', `${JSON.stringify(report, null, 2)}\n`]];
  if (reporters.includes('junit')) files.push(['client-junit.xml', renderClientJunit(report, strict)]);
  if (reporters.includes('markdown')) files.push(['client-report.md', renderClientMarkdown(report, strict)]);
  if (reporters.includes('html')) files.push(['client-report.html', renderClientHtml(report, strict)]);
  for (const [name, text] of files) await writeAtomic(path.join(dir, name), text);
  return files.map(([name]) => path.join(dir, name));
}
