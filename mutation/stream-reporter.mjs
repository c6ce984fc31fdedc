// A Stryker reporter that appends one JSON line per tested mutant to reports/mutation/mutants.jsonl as it is
// tested, so an interrupted or still-running `npm run mutation` can already be read (scripts/mutation-summary.mjs
// falls back to it when mutation.json is missing).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PluginKind, declareFactoryPlugin } from '@stryker-mutator/api/plugin';

const FILE = process.env['MUTATION_STREAM'] ?? path.join('reports', 'mutation', 'mutants.jsonl');

function streamReporter() {
  mkdirSync(path.dirname(FILE), { recursive: true });
  writeFileSync(FILE, '');
  return {
    onMutantTested(m) {
      const { id, fileName, mutatorName, replacement, status, location, statusReason } = m;
      appendFileSync(
        FILE,
        JSON.stringify({
          id,
          file: path.relative(process.cwd(), fileName),
          mutatorName,
          replacement,
          status,
          location,
          statusReason: statusReason?.slice(0, 300),
        }) + '\n',
      );
    },
  };
}
streamReporter.inject = [];

export const strykerPlugins = [declareFactoryPlugin(PluginKind.Reporter, 'stream', streamReporter)];
