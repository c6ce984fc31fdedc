/**
 * JUnit XML, built with fast-xml-parser's XMLBuilder (no string pasting): one <testsuite> per scenario file, one
 * <testcase> per scenario, classified by the one verdict rule (runner/verdict.ts): a failing verdict is a <failure>
 * (reason, seed, shrunk counterexample, replay command), an erroring one an <error>, a skipped one <skipped>; a
 * warning (a SHOULD or MAY scenario that failed or errored, without --strict) or a baselined result is a passing
 * testcase with the text in <system-out>. Id, rule ids, level and section are in the testcase name (the common schema has no testcase properties);
 * the scenario's file and line, the seed and the target are in the suite's properties and the failure text.
 */
import { createRequire } from 'node:module';
import type * as Fxp from 'fast-xml-parser';
import type { RunResult, ScenarioResult } from '../runner/types.js';
import { scenarioVerdict, reasonsOf } from '../runner/verdict.js';

let builder: Fxp.XMLBuilder | undefined;

/**
 * A document as JUnit XML, for the server and the client reports (attributes as `@name`, entities escaped). The
 * builder is made on the first call, from the package's CommonJS build: one bundled file that Node loads in about
 * 12 ms, against about 60 ms for the ~30 modules of its ESM build. A run that writes no junit.xml loads neither.
 */
export function buildJunitXml(doc: unknown): string {
  if (!builder) {
    const fxp = createRequire(import.meta.url)('fast-xml-parser') as typeof Fxp;
    builder = new fxp.XMLBuilder({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      format: true,
      indentBy: '  ',
      suppressEmptyNode: true,
      processEntities: true,
    });
  }
  return String(builder.build(doc));
}

/** XML 1.0 cannot carry control characters even escaped; they are shown as \uXXXX. */
const clean = (s: string) =>
  s.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

function details(r: ScenarioResult, seed: number): string {
  const lines = [...reasonsOf(r)];
  lines.push(`rules: ${r.rules.join(', ')} (${r.level})`, `scenario: ${r.file}:${r.line}`, `seed: ${seed}`);
  if (r.counterexample) {
    lines.push(
      `counterexample (seed ${r.counterexample.seed}, path ${r.counterexample.path}, ${r.counterexample.shrinks} shrinks): ${JSON.stringify(r.counterexample.values)}`,
    );
  }
  if (r.replay) lines.push(`replay: ${r.replay}`);
  return clean(lines.join('\n'));
}

function sectionsOf(r: ScenarioResult, run: RunResult): string {
  const sections = new Set(
    r.rules.map((id) => run.rules.find((x) => x.id === id)?.section).filter((s): s is string => !!s),
  );
  return [...sections].join(', ');
}

function testcase(r: ScenarioResult, run: RunResult): Record<string, unknown> {
  const tc: Record<string, unknown> = {
    '@name': clean(`${r.id} [${r.level} ${r.rules.join(' ')} §${sectionsOf(r, run)}] ${r.title}`),
    '@classname': r.file.replace(/\.ya?ml$/, '').replace(/[\\/]/g, '.'),
    '@time': ((r.durationMs ?? 0) / 1000).toFixed(3),
  };
  const verdict = scenarioVerdict(r, run.options);
  switch (verdict) {
    case 'pass':
      break;
    case 'skip':
      tc['skipped'] = { '@message': clean(r.reason ?? 'skipped') };
      break;
    case 'error':
      tc['error'] = { '@message': clean(r.reason ?? 'errored'), '@type': 'errored', '#text': details(r, run.seed) };
      break;
    case 'fail':
      tc['failure'] = { '@message': clean(r.reason ?? 'failed'), '@type': r.level, '#text': details(r, run.seed) };
      break;
    case 'warn':
      tc['system-out'] = `WARNING (${r.level}${r.status === 'errored' ? ', errored' : ''})\n${details(r, run.seed)}`;
      break;
    case 'baselined':
      tc['system-out'] = `EXPECTED ${r.status === 'failed' ? 'FAILURE' : 'ERROR'} (baseline)\n${details(r, run.seed)}`;
      break;
    default: {
      const never: never = verdict;
      throw new Error(`unknown verdict ${String(never)}`);
    }
  }
  return tc;
}

export function renderJunit(run: RunResult): string {
  const byFile = new Map<string, ScenarioResult[]>();
  for (const s of run.scenarios) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  const counted = (list: ScenarioResult[]) => {
    const verdicts = list.map((s) => scenarioVerdict(s, run.options));
    const count = (v: string) => verdicts.filter((x) => x === v).length;
    return {
      '@tests': list.length,
      '@failures': count('fail'),
      '@errors': count('error'),
      '@skipped': count('skip'),
      '@time': (list.reduce((a, s) => a + (s.durationMs ?? 0), 0) / 1000).toFixed(3),
    };
  };
  const suites = [...byFile.entries()].map(([file, list]) => ({
    '@name': file,
    ...counted(list),
    '@timestamp': run.startedAt.replace(/Z$/, ''),
    properties: {
      property: [
        { '@name': 'target', '@value': run.target },
        { '@name': 'seed', '@value': String(run.seed) },
      ],
    },
    testcase: list.map((s) => testcase(s, run)),
  }));
  const doc = {
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    testsuites: { '@name': `conform ${run.tool.version}`, ...counted(run.scenarios), testsuite: suites },
  };
  return buildJunitXml(doc);
}
