import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConnectionMemory } from './records.js';
import type { HeaderMap, RequestRecord, ResponseRecord } from './records.js';

/** Splits a request target into raw path and query. Absolute-form targets lose their scheme and authority. */
export function splitTarget(target: string): { path: string; query: string } {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  const rest = authority ? target.slice(authority[0].length) : target;
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  return { path: path === '' ? '/' : path, query: q < 0 ? '' : rest.slice(q + 1) };
}

/**
 * The request-target in origin form exactly as sent: unchanged, except that an absolute-form target loses its
 * scheme and authority (and an empty path becomes `/`).
 */
export function originTarget(target: string): string {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
}

/** Fields whose every line the handler sees: the credentials, and Host (RFC 9112 §3.2: more than one is a 400). */
const DISTINCT_FIELDS = ['authorization', 'authentication', 'host'] as const;

/**
 * Builds the pure request record from a node request and its fully read body. `connection` is passed only
 * under the `connection-remembers` fault.
 */
export function toRequestRecord(
  req: IncomingMessage,
  body: Uint8Array,
  secure: boolean,
  connection?: ConnectionMemory,
): RequestRecord {
  const headers: HeaderMap = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = value;
  }
  // Node keeps the first line of a repeated Authorization or Host and joins repeated unknown fields with ", ": either
  // way the handler could not tell a field sent twice. It sees every line of these fields.
  for (const name of DISTINCT_FIELDS) {
    const lines = req.headersDistinct[name];
    if (lines !== undefined && lines.length > 1) headers[name] = lines;
  }
  const target = req.url ?? '/';
  const record: RequestRecord = {
    method: req.method ?? '',
    ...splitTarget(target),
    target: originTarget(target),
    headers,
    body,
    secure,
  };
  if (connection !== undefined) record.connection = connection;
  return record;
}

/** Declared Content-Length of a request, or undefined when absent or not a plain number. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  return value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : undefined;
}

/** Result of {@link readBody}. */
export type BodyRead = { kind: 'body'; body: Uint8Array } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Reads a request body, stopping as soon as it exceeds `cap` bytes (the rest is left unread; the caller answers
 * 413 with `Connection: close`).
 */
export function readBody(req: IncomingMessage, cap: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: BodyRead): void => {
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size > cap) {
        req.pause();
        settle({ kind: 'too-large' });
      } else chunks.push(chunk);
    };
    const onEnd = (): void => settle({ kind: 'body', body: Buffer.concat(chunks, size) });
    const onAbort = (): void => settle({ kind: 'aborted' });
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
  });
}

/** Writes a response record to a node response. */
export function writeResponse(res: ServerResponse, record: ResponseRecord): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(record.status, record.headers);
  res.end(record.body);
}
