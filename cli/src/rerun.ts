/** `conform run --rerun-failed report.json`: the failed and errored scenarios of an earlier run, and its seed. */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConformError } from '../../harness/src/errors.js';

const EarlierReport = z.object({
  seed: z.number().int(),
  scenarios: z.array(z.object({ id: z.string(), status: z.string() })),
});

/** The ids that failed or errored in `file`'s report, and the seed it ran with; exit 2 for a file that is not one. */
export async function failedOf(file: string): Promise<{ ids: string[]; seed: number }> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new ConformError('CONFORM_USAGE', `--rerun-failed ${file}: ${(err as Error).message}`);
  }
  const parsed = EarlierReport.safeParse(data);
  if (!parsed.success)
    throw new ConformError(
      'CONFORM_USAGE',
      `--rerun-failed ${file}: not a conform report.json (no seed and scenarios)`,
    );
  return {
    ids: parsed.data.scenarios.filter((s) => s.status === 'failed' || s.status === 'errored').map((s) => s.id),
    seed: parsed.data.seed,
  };
}
