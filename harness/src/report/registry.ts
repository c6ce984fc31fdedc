/** Reporters that write files, by name. `json` (report.json) is always written. */
import type { RunResult } from '../runner/types.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';

/** A reporter that renders a finished run to a file of `--report-dir`. */
export interface FileReporter {
  file: string;
  render(run: RunResult): string;
}

/** The file reporters by name (`--reporter`): json, junit, html, markdown. */
export const FILE_REPORTERS: Readonly<Record<string, FileReporter>> = {
  json: { file: 'report.json', render: renderJson },
  html: { file: 'report.html', render: renderHtml },
  junit: { file: 'junit.xml', render: renderJunit },
  markdown: { file: 'summary.md', render: renderMarkdown },
};

/** `console` prints; every other name must be a file reporter. */
export const REPORTER_NAMES = ['console', ...Object.keys(FILE_REPORTERS)];
