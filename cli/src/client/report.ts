/** Builds the client report (harness/src/report/client/schema.ts) from the judge's verdicts and the recording. */
import type { ClientReport } from '../../../harness/src/report/client/schema.js';
import type { Redactor } from '../../../harness/src/runner/redact.js';
import type { RuleCatalogue } from '../../../harness/src/suite/types.js';
import type { ClientRuleVerdict, ClientViolation, RecordedExchange } from '../../../reference-server/src/index.js';
import type { ChildExit } from './child.js';

/** Everything a client report is made of. */
export interface ClientReportInput {
  verdicts: readonly ClientRuleVerdict[];
  exchanges: readonly RecordedExchange[];
  catalogue: RuleCatalogue;
  redactor: Redactor;
  command: readonly string[];
  /** How the command ended; undefined when no command was run (`conform serve --client-report`). */
  exit: ChildExit | undefined;
  /** Whether the way the command ended counts in the verdict (false under `--ignore-client-exit`). Default true. */
  exitChecked?: boolean;
  server: { url: string; httpsUrl?: string };
  startedAt: Date;
  durationMs: number;
  version: string;
  /** Most requests listed (the judge reads them all). */
  maxRequests: number;
}

/** The report, every text that could hold a secret passed through the redactor. */
export function buildClientReport(input: ClientReportInput): ClientReport {
  const { redactor, catalogue } = input;
  const bySeq = new Map(input.exchanges.map((ex) => [ex.seq, ex]));
  const entry = (x: ClientViolation) => {
    const ex = bySeq.get(x.seq);
    return {
      request: x.seq,
      reason: redactor.text(x.reason),
      ...(x.mistake === undefined ? {} : { mistake: x.mistake }),
      ...(x.signed === undefined ? {} : { signed: redactor.text(x.signed) }),
      ...(x.sent === undefined ? {} : { sent: redactor.text(x.sent) }),
      ...(x.difference === undefined ? {} : { difference: redactor.text(x.difference) }),
      ...(ex === undefined ? {} : { method: redactor.text(ex.method), target: redactor.text(ex.target) }),
    };
  };
  const rules = input.verdicts.map((v) => {
    const rule = catalogue.byId.get(v.rule);
    if (rule === undefined) throw new Error(`client rule ${v.rule} is not in the catalogue`);
    return {
      id: rule.id,
      section: rule.section,
      level: rule.level,
      text: rule.text,
      quote: rule.quote,
      ...(rule.source === undefined ? {} : { source: rule.source }),
      status: v.status,
      exercised: v.exercised,
      violations: v.violations.map(entry),
      ...(v.notJudged === undefined ? {} : { notJudged: v.notJudged.map(entry) }),
    };
  });
  const judged = new Set(rules.map((r) => r.id));
  const unjudged = catalogue.rules
    .filter((r) => r.subject === 'client' && !r.retired && !judged.has(r.id))
    .map((r) => r.id);
  const listed = input.exchanges.slice(0, input.maxRequests);
  const count = (status: string) => rules.filter((r) => r.status === status).length;
  return {
    schemaVersion: 1,
    kind: 'client',
    tool: { name: 'conform', version: input.version },
    command: input.command.map((c) => redactor.text(c)),
    ...(input.exit === undefined ? {} : { exit: { ...input.exit, checked: input.exitChecked ?? true } }),
    server: { http: input.server.url, ...(input.server.httpsUrl ? { https: input.server.httpsUrl } : {}) },
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    summary: {
      total: rules.length,
      passed: count('passed'),
      failed: count('failed'),
      notExercised: count('not exercised'),
      requests: input.exchanges.length,
    },
    rules,
    requests: listed.map((ex) => ({
      seq: ex.seq,
      method: redactor.text(ex.method),
      target: redactor.text(ex.target),
      transport: ex.transport,
      at: new Date(ex.at).toISOString(),
      status: ex.status,
      headers: redactor.headers(ex.headers),
      bodyBytes: ex.body.length,
      ...(ex.detail === undefined ? {} : { detail: redactor.text(ex.detail) }),
    })),
    ...(input.exchanges.length > listed.length ? { requestsDropped: input.exchanges.length - listed.length } : {}),
    ...(unjudged.length > 0 ? { unjudged } : {}),
  };
}
