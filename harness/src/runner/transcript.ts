/** Exchanges as reports keep them: credentials masked, secrets removed in every encoding, bodies bounded. */
import type { Redactor } from './redact.js';
import type { Exchange } from './types.js';
import type { RawExchange } from './exec-types.js';
import type { SendResult } from '../http/client.js';
import type { BuiltRequest } from './instances.js';

function bodyText(body: Uint8Array, max = 4096): string {
  const s = Buffer.from(body.subarray(0, max * 4)).toString('utf8');
  return s.length > max ? `${s.slice(0, max)}… (${body.length} bytes)` : s;
}

/**
 * The length in bytes of a body the report keeps the start of only (`… (N bytes)` at its end, as written here), or
 * `undefined` for a body kept whole.
 */
export function truncatedLength(body: string): number | undefined {
  const m = /… \((\d+) bytes\)$/.exec(body);
  return m ? Number(m[1]) : undefined;
}

/** The report form of an exchange: credentials masked, secrets removed in every encoding, bodies bounded. */
export function redactExchange(x: RawExchange, redactor: Redactor): Exchange {
  return {
    step: x.step,
    ...(x.stepName ? { stepName: x.stepName } : {}),
    ...(x.instance !== undefined ? { instance: x.instance } : {}),
    ...(x.purpose !== undefined ? { purpose: x.purpose } : {}),
    ...(x.credential
      ? {
          credential: {
            ...x.credential,
            user: redactor.text(x.credential.user),
            ...(x.credential.path !== undefined ? { path: redactor.text(x.credential.path) } : {}),
          },
        }
      : {}),
    request: {
      method: x.request.method,
      url: redactor.text(x.request.url),
      headers: redactor.headers(x.request.headers),
      ...(x.request.body !== undefined ? { body: redactor.text(bodyText(Buffer.from(x.request.body))) } : {}),
    },
    ...(x.response
      ? {
          response: {
            status: x.response.status,
            headers: redactor.headers(x.response.headers),
            body: redactor.text(bodyText(x.response.body)),
            durationMs: Math.round(x.response.durationMs),
          },
        }
      : {}),
    ...(x.error ? { error: { code: x.error.code, message: redactor.text(x.error.message) } } : {}),
  };
}

/**
 * A step's exchange for the transcript, its fields in the report's order. Assigned one by one: this runs for every
 * request, and an object literal of conditional spreads costs V8 several times more.
 */
export function exchangeOf(at: { index: number; name?: string }, built: BuiltRequest, sent: SendResult): RawExchange {
  const x: RawExchange = { step: at.index } as RawExchange;
  if (at.name) x.stepName = at.name;
  if (built.instance !== undefined) x.instance = built.instance;
  if (built.credential) x.credential = built.credential;
  x.request = built.request;
  if (sent.ok) x.response = sent.response;
  else x.error = sent.error;
  return x;
}

/** An exchange a step sent to obtain credentials or an approval (OAuth steps), for the transcript. */
export function tokenExchangeOf(
  at: { index: number; name?: string },
  x: { request: RawExchange['request']; response?: RawExchange['response']; error?: RawExchange['error'] },
): RawExchange {
  const out: RawExchange = { step: at.index } as RawExchange;
  if (at.name) out.stepName = at.name;
  out.request = x.request;
  if (x.response) out.response = x.response;
  if (x.error) out.error = x.error;
  return out;
}
