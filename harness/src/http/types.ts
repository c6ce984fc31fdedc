/** What the harness's HTTP layer sends and gets back: requests, responses, transport errors as data. */
/** A request as the harness sends it: method, absolute URL, header fields (a list repeats a field), body bytes. */
export interface HttpRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Lowercase names. A list sends the field once per value, in order (targets are tested with repeated fields). */
  headers: Record<string, string | string[]>;
  body?: string | Uint8Array;
}

/** A response as the harness judges it: status, header fields by lower-case name, body bytes (bounded). */
export interface HttpResponse {
  status: number;
  /** Lowercased names; repeated headers are arrays. */
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  durationMs: number;
}

export type TransportErrorCode =
  | 'TIMEOUT'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_RESET'
  | 'RESPONSE_TOO_LARGE'
  | 'BAD_RESPONSE'
  | 'TLS'
  | 'DNS'
  | 'OTHER';

export interface TransportError {
  code: TransportErrorCode;
  message: string;
  /** Underlying library code, e.g. `UND_ERR_HEADERS_TIMEOUT` or `ECONNREFUSED`. */
  cause?: string;
}

/** Whether a transport error says the other end is not an HTTP server at all (an SSH or SMTP banner, random bytes). */
export function notHttp(error: TransportError): boolean {
  return error.code === 'BAD_RESPONSE' && error.message.startsWith('the target does not speak HTTP');
}

/** The outcome of a send: the response, or the transport error (timeout, refused, reset, TLS, too large). */
export type SendResult = { ok: true; response: HttpResponse } | { ok: false; error: TransportError };
