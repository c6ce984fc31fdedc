/** Writes the client report files of `conform check-client`; client-report.json always. */
import path from 'node:path';
import {
  renderClientHtml,
  renderClientJunit,
  renderClientMarkdown,
} from '../../../harness/src/report/client/render.js';
import type { ClientReport } from '../../../harness/src/report/client/schema.js';
import { prepareReportDir, writeAtomic } from '../output.js';

/** Writes `client-report.json` and the files of the chosen reporters into `dir` (created when missing). */
export async function writeClientReports(
  report: ClientReport,
  dir: string,
  reporters: readonly string[],
  strict: boolean,
): Promise<void> {
  await prepareReportDir(dir);
  await writeAtomic(path.join(dir, 'client-report.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (reporters.includes('junit'))
    await writeAtomic(path.join(dir, 'client-junit.xml'), renderClientJunit(report, strict));
  if (reporters.includes('markdown'))
    await writeAtomic(path.join(dir, 'client-report.md'), renderClientMarkdown(report, strict));
  if (reporters.includes('html'))
    await writeAtomic(path.join(dir, 'client-report.html'), renderClientHtml(report, strict));
}
