/**
 * `conform serve --client-report DIR`: the server records what it receives while it runs, and on stop judges it
 * against the client rules and writes the client report into DIR (as `conform check-client`, without a command).
 */
import path from 'node:path';
import { renderClientConsole } from '../../../harness/src/report/client/render.js';
import { loadRulesSync } from '../../../harness/src/suite/load.js';
import type { RecordedExchange, VariantName } from '../../../reference-server/src/index.js';
import { defaults, type CliIo } from '../io.js';
import { prepareReportDir } from '../output.js';
import { loadVariantProfile } from '../variant-profile.js';
import { judgeRecording, profileRedactor } from './finish.js';
import { writeClientReports } from './write.js';

/** Most requests a long-running server records for its client report; later ones are not judged. */
export const SERVE_RECORDING_LIMIT = 100_000;

/** A recording that ends in a client report. */
export interface ServeClientReport {
  onExchange(exchange: RecordedExchange): void;
  /** Judges what was recorded and writes the reports; prints the console summary to stderr. */
  finish(server: { url: string; httpsUrl?: string }): Promise<void>;
}

/** What the judge must know of the server `conform serve` started beyond its bundled profile. */
export interface ServeJudgeSettings {
  variants: readonly VariantName[];
  window?: number;
  bodyHash?: boolean;
}

/** Checks that DIR can be written, then starts recording. */
export async function serveClientReport(
  dir: string,
  argv: readonly string[],
  settings: ServeJudgeSettings,
  io: CliIo,
): Promise<ServeClientReport> {
  await prepareReportDir(dir, '--client-report');
  const exchanges: RecordedExchange[] = [];
  let dropped = 0;
  const started = new Date();
  return {
    onExchange: (ex) => {
      if (exchanges.length < SERVE_RECORDING_LIMIT) exchanges.push(ex);
      else dropped++;
    },
    finish: async (server) => {
      const base = loadVariantProfile(defaults.profile(), settings.variants);
      const profile = {
        ...base,
        auth: {
          ...base.auth,
          ...(settings.window === undefined ? {} : { window: settings.window }),
          ...(settings.bodyHash === undefined ? {} : { bodyHash: settings.bodyHash }),
        },
      };
      const report = judgeRecording({
        exchanges,
        profile,
        catalogue: loadRulesSync(defaults.rules()),
        redactor: profileRedactor(profile),
        command: ['conform', 'serve', ...argv],
        exit: undefined,
        server,
        startedAt: started,
        maxRequests: 1000,
        variants: settings.variants,
      });
      await writeClientReports(report, dir, ['json', 'junit', 'markdown', 'html'], false);
      io.stderr.write(renderClientConsole(report));
      if (dropped > 0)
        io.stderr.write(
          `conform serve: ${dropped} request(s) after the first ${SERVE_RECORDING_LIMIT} were not judged\n`,
        );
      io.stderr.write(`conform serve: client report written to ${path.relative(io.cwd, dir) || '.'}\n`);
    },
  };
}
