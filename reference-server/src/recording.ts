/**
 * What the server records of each request it answers, for `conform check-client`: the request as received and the
 * status it got. Built here from the IO shell's records; the judge of client rules (client/judge.ts) reads them.
 */
import type { HeaderMap, RequestRecord, ResponseRecord } from './records.js';

/** One request the server received and the status it answered. */
export interface RecordedExchange {
  /** 1 for the first request received, then 2, 3… */
  seq: number;
  /** Method token exactly as received. */
  method: string;
  /** Request-target exactly as received (path plus `?query`). */
  target: string;
  /** Header fields, names lowercased; repeated ones as arrays. */
  headers: HeaderMap;
  /** The body bytes read (bounded by the server's `maxBodyBytes`). */
  body: Uint8Array;
  transport: 'http' | 'https';
  /** Arrival time by the server's (injectable) clock, ms since 1970. */
  at: number;
  /** The status the server answered. */
  status: number;
  /** The `detail` of a problem+json answer (why a request was refused); absent otherwise. */
  detail?: string;
  /**
   * The body of a form-encoded answer: the OAuth 1 credentials the server issued (`oauth_token`,
   * `oauth_token_secret`), so the judge can check the signatures the client makes with them. Secret: never reported.
   */
  formAnswer?: string;
}

/** Receives every exchange once it has been answered (see `ServerOptions.onExchange`). */
export type ExchangeListener = (exchange: RecordedExchange) => void;

/** Numbers each exchange and hands it to `listener`. */
export function exchangeRecorder(
  listener: ExchangeListener,
): (req: RequestRecord, res: ResponseRecord, at: number) => void {
  let seq = 0;
  return (req, res, at) => {
    seq += 1;
    const detail = problemDetail(res);
    const form = formAnswer(res);
    listener({
      seq,
      method: req.method,
      target: req.target ?? (req.query === '' ? req.path : `${req.path}?${req.query}`),
      headers: req.headers,
      body: req.body,
      transport: req.secure ? 'https' : 'http',
      at,
      status: res.status,
      ...(detail === undefined ? {} : { detail }),
      ...(form === undefined ? {} : { formAnswer: form }),
    });
  };
}

function problemDetail(res: ResponseRecord): string | undefined {
  const type = res.headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/problem+json') || res.body === undefined)
    return undefined;
  try {
    const text = typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
    const parsed = JSON.parse(text) as { detail?: unknown };
    return typeof parsed.detail === 'string' ? parsed.detail : undefined;
  } catch {
    return undefined;
  }
}

function formAnswer(res: ResponseRecord): string | undefined {
  const type = res.headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/x-www-form-urlencoded') || res.body === undefined)
    return undefined;
  return typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
}
