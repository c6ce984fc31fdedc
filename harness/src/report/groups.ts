/**
 * Failures that share their first failing request: one cause (POST not supported) shown once, with the scenarios it
 * broke, instead of as seven separate failures (issue 26). The request is the one each failure or error is charged
 * to (curl.ts `failingExchange`), written as method, path (generated ids as `{id}`) and what came back.
 */
import type { RunResult } from '../runner/types.js';
import { failingExchange } from './curl.js';

/** A request that several failed or errored scenarios first failed at, and those scenarios. */
export interface FailureGroup {
  /** `POST /articles → 405`, `PUT /articles/{id} → no answer (TIMEOUT)`. */
  request: string;
  ids: string[];
}

/** A path with the segments that look generated (ids, slugs with digits) as `{id}`. */
export function pathShape(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return url;
  }
  return pathname
    .split('/')
    .map((seg) => (/^[0-9a-f-]{8,}$/i.test(seg) || (/[0-9]/.test(seg) && seg.length >= 6) ? '{id}' : seg))
    .join('/');
}

/** The failing requests shared by at least `min` failed or errored scenarios, the largest group first. */
export function failureGroups(run: Pick<RunResult, 'scenarios'>, min = 2): FailureGroup[] {
  const groups = new Map<string, string[]>();
  for (const s of run.scenarios) {
    if (s.status !== 'failed' && s.status !== 'errored') continue;
    const x = failingExchange(s);
    if (!x) continue;
    const outcome = x.response ? String(x.response.status) : `no answer (${x.error?.code ?? 'error'})`;
    const key = `${x.request.method} ${pathShape(x.request.url)} → ${outcome}`;
    groups.set(key, [...(groups.get(key) ?? []), s.id]);
  }
  return [...groups]
    .filter(([, ids]) => ids.length >= min)
    .map(([request, ids]) => ({ request, ids }))
    .sort((a, b) => b.ids.length - a.ids.length);
}
