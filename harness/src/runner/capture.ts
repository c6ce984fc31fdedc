/** Captures: values a step takes from an answer (headers, Location, Allow, status, JSON and form fields). */
import type { HttpResponse } from '../http/client.js';
import { formField } from '../http/form.js';
import type { StepData } from '../suite/schema.js';
import { headerValue, parseAllow } from './response-parts.js';
import { locationPath } from './location.js';
import type { Redactor } from './redact.js';

/** A value at a dotted path of a JSON text; undefined when the text is not JSON or the path is absent. */
export function jsonPath(text: string, dotted: string): unknown {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const seg of dotted.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}

export function capture(
  step: StepData,
  res: HttpResponse,
  requestUrl: string,
  baseUrl: string,
  scope: Record<string, unknown>,
  redactor: Redactor,
): void {
  if (step.capture === undefined) return;
  for (const [name, c] of Object.entries(step.capture)) {
    if ('header' in c) scope[name] = headerValue(res, c.header);
    else if ('json' in c || 'form' in c) {
      const value =
        'json' in c
          ? jsonPath(Buffer.from(res.body).toString('utf8'), c.json)
          : formField(Buffer.from(res.body).toString('utf8'), c.form);
      scope[name] = value;
      if (c.secret && typeof value === 'string') redactor.add(value);
    } else if ('location' in c) {
      const loc = headerValue(res, 'location');
      const r = loc === undefined ? undefined : locationPath(loc, requestUrl, baseUrl);
      scope[name] = r && 'path' in r ? r.path : undefined;
    } else if ('allow' in c) scope[name] = parseAllow(headerValue(res, 'allow') ?? '').methods;
    else if ('status' in c) scope[name] = res.status;
    else if ('body' in c) scope[name] = Buffer.from(res.body).toString('utf8');
  }
}
