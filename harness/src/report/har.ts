/**
 * The run's exchanges as HAR 1.2 (`conform run --har FILE`), for browser dev tools, proxies and HAR viewers. Built
 * from the run result alone, so it holds what the reports hold: per scenario the exchanges of its failing run (or of
 * its last run), bounded, redacted by the same redactor, and the requests the learning sent.
 */
import { STATUS_CODES } from 'node:http';
import { truncatedLength } from '../runner/transcript.js';
import type { Exchange, RunResult } from '../runner/types.js';

/** A HAR name/value pair (headers, query string). */
interface HarPair {
  name: string;
  value: string;
}

/** What conform adds to each HAR entry (a custom field: HAR allows those starting with `_`). */
export interface HarConformField {
  /** The scenario whose transcript holds the exchange; absent for the learning before the scenarios. */
  scenario?: string;
  status?: string;
  step: number;
  stepName?: string;
  /** `learning`: sent to learn the target's open points; `credentials`: to obtain credentials a step needed. */
  purpose?: 'learning' | 'credentials';
  instance?: number;
  /** The transport error instead of an answer (the entry's response is then status 0). */
  error?: { code: string; message: string };
}

function pairs(h: Record<string, string | string[]>): HarPair[] {
  return Object.entries(h).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value })));
}

function header(h: Record<string, string | string[]>, name: string): string {
  const v = Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** Bytes of a body as sent or received: the length recorded for one the report kept the start of only. */
function size(body: string | undefined): number {
  if (body === undefined) return 0;
  return truncatedLength(body) ?? Buffer.byteLength(body, 'utf8');
}

function query(url: string): HarPair[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function entry(x: Exchange, startedDateTime: string, conform: HarConformField) {
  const req = x.request;
  const res = x.response;
  const wait = res?.durationMs ?? 0;
  const where = conform.scenario ? `scenario ${conform.scenario}` : 'learning';
  return {
    startedDateTime,
    time: wait,
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(req.headers),
      queryString: query(req.url),
      ...(req.body !== undefined
        ? { postData: { mimeType: header(req.headers, 'content-type'), text: req.body } }
        : {}),
      headersSize: -1,
      bodySize: size(req.body),
    },
    response: {
      status: res?.status ?? 0,
      statusText: res ? (STATUS_CODES[res.status] ?? '') : '',
      httpVersion: res ? 'HTTP/1.1' : '',
      cookies: [],
      headers: res ? pairs(res.headers) : [],
      content: {
        size: size(res?.body),
        mimeType: res ? header(res.headers, 'content-type') : '',
        ...(res?.body !== undefined ? { text: res.body } : {}),
      },
      redirectURL: res ? header(res.headers, 'location') : '',
      headersSize: -1,
      bodySize: res ? size(res.body) : -1,
      ...(x.error ? { _error: `${x.error.code}: ${x.error.message}` } : {}),
    },
    cache: {},
    timings: { send: 0, wait, receive: 0 },
    comment: `${where}, step ${x.step}${x.stepName ? ` (${x.stepName})` : ''}${conform.purpose === 'credentials' ? ', to obtain credentials' : ''}`,
    _conform: conform,
  };
}

/**
 * Renders a run's exchanges as a HAR 1.2 log: the learning's requests first, then each scenario's transcript in
 * report order, each entry naming its scenario and step (`comment`, and `_conform`). conform records how long an
 * exchange took, not when it started: every entry's `startedDateTime` is the run's start, and the whole duration
 * is `timings.wait`. Cookies are not split out (their headers are redacted); `headersSize` is unknown (-1).
 *
 * @param run - the run result (already redacted by the runner).
 * @returns the HAR document as JSON text.
 */
export function renderHar(run: RunResult): string {
  const at = run.startedAt;
  const entries = [
    ...(run.learning ?? []).map((x) =>
      entry(x, at, {
        step: x.step,
        purpose: 'learning',
        ...(x.stepName ? { stepName: x.stepName } : {}),
        ...(x.error ? { error: x.error } : {}),
      }),
    ),
    ...run.scenarios.flatMap((s) =>
      s.transcript.map((x) =>
        entry(x, at, {
          scenario: s.id,
          status: s.status,
          step: x.step,
          ...(x.stepName ? { stepName: x.stepName } : {}),
          ...(x.purpose ? { purpose: x.purpose } : {}),
          ...(x.instance !== undefined ? { instance: x.instance } : {}),
          ...(x.error ? { error: x.error } : {}),
        }),
      ),
    ),
  ];
  const log = {
    version: '1.2',
    creator: { name: run.tool.name, version: run.tool.version },
    entries,
    comment: `conform run against ${run.target}, seed ${run.seed}: the exchanges report.json holds (per scenario, its failing run's or its last run's, bounded), redacted as the reports are.`,
  };
  return `${JSON.stringify({ log }, null, 2)}\n`;
}
