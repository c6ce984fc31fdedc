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
  /**
   * The `Location` of a redirect: under the authorization code grant, the code the server issued (RFC 6749 §4.1.2),
   * so the judge can tie its exchange to the authorization request. Secret: never reported.
   */
  location?: string;
  /**
   * The `refresh_token` of a JSON token answer (RFC 6749 §5.1), so the judge can tell a client that keeps using the
   * refresh token a refresh replaced (§6). Secret: never reported.
   */
  refreshToken?: string;
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
    const location = res.status >= 300 && res.status < 400 ? res.headers['location'] : undefined;
    const refresh = refreshToken(res);
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
      ...(typeof location === 'string' ? { location } : {}),
      ...(refresh === undefined ? {} : { refreshToken: refresh }),
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

function refreshToken(res: ResponseRecord): string | undefined {
  const type = res.headers['content-type'];
  if (res.status !== 200 || typeof type !== 'string' || !type.startsWith('application/json') || res.body === undefined)
    return undefined;
  try {
    const text = typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
    const parsed = JSON.parse(text) as { refresh_token?: unknown };
    return typeof parsed.refresh_token === 'string' ? parsed.refresh_token : undefined;
  } catch {
    return undefined;
  }
}
