/**
 * The parameters a request carries in its body whatever its Content-Type: the judge of client rules looks for
 * credentials wherever a client put them (a bearer token in the body of a GET sent as text/plain is still a token in
 * clear over plain HTTP), where the server reads a form body only when it is labelled as one.
 */
import type { RecordedExchange } from '../recording.js';
import { first } from './hmac-rules.js';

/** Parameter names that carry a credential, wherever they travel. */
export const CREDENTIAL_PARAMS = [
  'access_token',
  'refresh_token',
  'client_secret',
  'password',
  'oauth_signature',
  'oauth_consumer_key',
] as const;

/** Where a body's parameters were found, and how the body was labelled. */
export interface BodyParams {
  /** Every name and value read from the body: as a form (any label), or the top-level members of a JSON object. */
  params: URLSearchParams;
  /** How they were read. */
  shape: 'form' | 'json' | 'none';
  /** The Content-Type as sent (lowercased media type, parameters dropped); '' when absent. */
  mediaType: string;
  /** Whether the body is ASCII only (RFC 6750 §2.2: "entirely of ASCII characters"). */
  ascii: boolean;
}

/** Reads the body of an exchange as parameters, whatever its Content-Type says. */
export function bodyParams(ex: RecordedExchange): BodyParams {
  const mediaType = (first(ex.headers['content-type']) ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const bytes = Buffer.from(ex.body);
  const ascii = bytes.every((b) => b < 0x80);
  const none = { params: new URLSearchParams(), shape: 'none' as const, mediaType, ascii };
  if (bytes.byteLength === 0) return none;
  const text = bytes.toString('utf8');
  const json = jsonMembers(text);
  if (json !== undefined) return { params: json, shape: 'json', mediaType, ascii };
  // Text without '=' holds no parameter; binary bodies (a NUL) are not forms.
  if (!text.includes('=') || text.includes('\u0000')) return none;
  return { params: new URLSearchParams(text.trim()), shape: 'form', mediaType, ascii };
}

function jsonMembers(text: string): URLSearchParams | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const params = new URLSearchParams();
    for (const [name, member] of Object.entries(value as Record<string, unknown>))
      if (typeof member === 'string' || typeof member === 'number') params.append(name, String(member));
    return params;
  } catch {
    return undefined;
  }
}
