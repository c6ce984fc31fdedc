/**
 * OAuth 1 signatures (RFC 5849 §3.4) of a request as received: the base string the server builds, and, given the
 * consumer and token secrets, whether `oauth_signature` is right, one of the common mistakes, or unexplained. Shared by
 * the diagnostic refusals (`conform serve --diagnose`) and the judge of client rules. Never a secret, never a
 * signature in what it returns.
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestRecord } from '../records.js';
import { headerValue } from '../request.js';
import {
  baseStringUri,
  hmacSha1Signature,
  signatureBaseString,
  signingKey,
  type EncodedParam,
} from '../oauth1/base-string.js';
import { carriesOAuth1Params, isOAuthAuthorization, readOAuth1Params } from '../oauth1/params.js';

/** One way of getting the signature wrong: a base string (or a key) the client may have used instead. */
interface Variant {
  mistake: string;
  explanation: string;
  base: string;
  tokenSecret?: string;
}

/** What `oauth_signature` says, checked with the secrets by the method the request names. */
export type SignatureFinding =
  | { kind: 'right' }
  | { kind: 'mistake'; mistake: string; explanation: string }
  | { kind: 'unexplained' }
  /** A signature method the judge does not implement (RSA-SHA1, HMAC-SHA256…): neither right nor wrong here. */
  | { kind: 'unsupported'; method: string };

/** The signature methods the judge checks (RFC 5849 §3.4.2, §3.4.4). */
export const JUDGED_METHODS = ['HMAC-SHA1', 'PLAINTEXT'] as const;

/** An OAuth 1 request read: malformed (why), or its base string, protocol parameters and a way to explain it. */
export type OAuth1Reading =
  | { ok: false; reason: string }
  | {
      ok: true;
      /** The signature base string of the request as received (RFC 5849 §3.4.1). */
      base: string;
      protocol: ReadonlyMap<string, string>;
      explain(consumerSecret: string, tokenSecret: string): SignatureFinding;
    };

/** Reads the OAuth 1 parameters of a request; undefined when it carries none. */
export function readOAuth1Request(req: RequestRecord): OAuth1Reading | undefined {
  const authorization = headerValue(req, 'authorization');
  const header = authorization !== undefined && isOAuthAuthorization(authorization);
  if (!header && !carriesOAuth1Params(req)) return undefined;
  const read = readOAuth1Params(req);
  if (!read.ok) return { ok: false, reason: read.reason };
  const { protocol, signed } = read.params;
  const uri = baseStringUri(req.secure ? 'https' : 'http', headerValue(req, 'host') ?? '', req.path);
  if (uri === undefined) return { ok: false, reason: 'the request needs a Host header naming host[:port]' };
  const base = signatureBaseString(req.method, uri, signed);
  const given = protocol.get('oauth_signature') ?? '';
  const method = protocol.get('oauth_signature_method') ?? '';
  const explain = (consumerSecret: string, tokenSecret: string): SignatureFinding => {
    if (method === 'PLAINTEXT') return explainPlaintext(given, consumerSecret, tokenSecret);
    if (method !== 'HMAC-SHA1') return { kind: 'unsupported', method };
    const matches = (b: string, secret = tokenSecret) => same(hmacSha1Signature(b, consumerSecret, secret), given);
    if (matches(base)) return { kind: 'right' };
    for (const v of variants(req, uri, signed, tokenSecret))
      if (matches(v.base, v.tokenSecret)) return { kind: 'mistake', mistake: v.mistake, explanation: v.explanation };
    return { kind: 'unexplained' };
  };
  return { ok: true, base, protocol, explain };
}

function variants(req: RequestRecord, uri: string, signed: readonly EncodedParam[], tokenSecret: string): Variant[] {
  const out: Variant[] = [];
  const add = (mistake: string, explanation: string, base: string, secret?: string) =>
    out.push({ mistake, explanation, base, ...(secret === undefined ? {} : { tokenSecret: secret }) });
  const build = (u: string, params: readonly EncodedParam[] = signed) => signatureBaseString(req.method, u, params);
  if (req.query !== '') {
    const withoutQuery = readOAuth1Params(req, { ignoreQuery: true });
    if (withoutQuery.ok)
      add(
        'query-left-out',
        'the query parameters are left out of the signed parameters (RFC 5849 §3.4.1.3.1)',
        build(uri, withoutQuery.params.signed),
      );
    add(
      'query-in-uri',
      'the base string URI keeps the ?query: it must not (RFC 5849 §3.4.1.2)',
      build(`${uri}?${req.query}`),
    );
  }
  if (req.body.byteLength > 0) {
    const withoutBody = readOAuth1Params({ ...req, body: new Uint8Array() });
    if (withoutBody.ok)
      add(
        'form-left-out',
        'the form body parameters are left out of the signed parameters (RFC 5849 §3.4.1.3.1)',
        build(uri, withoutBody.params.signed),
      );
  }
  const port = /^(https?:\/\/[^/]+):[0-9]+(\/.*)$/.exec(uri);
  if (port)
    add(
      'port-left-out',
      'the base string URI leaves out the port: a port other than 80 or 443 is kept (RFC 5849 §3.4.1.2)',
      build(`${port[1]}${port[2]}`),
    );
  const other = uri.startsWith('https:') ? `http:${uri.slice(6)}` : `https:${uri.slice(5)}`;
  add(
    'scheme-swapped',
    'the base string URI has the wrong scheme: it is the one the request was sent with',
    build(other),
  );
  if (tokenSecret !== '')
    add(
      'token-secret-left-out',
      'the signing key leaves out the token secret: it is consumer secret & token secret',
      build(uri),
      '',
    );
  return out;
}

/**
 * RFC 5849 §3.4.4: a PLAINTEXT `oauth_signature` is the key itself, `enc(consumer secret)&enc(token secret)`; the
 * mistakes named are the token secret left out and the secrets not encoded.
 */
function explainPlaintext(given: string, consumerSecret: string, tokenSecret: string): SignatureFinding {
  if (same(given, signingKey(consumerSecret, tokenSecret))) return { kind: 'right' };
  if (tokenSecret !== '' && same(given, signingKey(consumerSecret, '')))
    return {
      kind: 'mistake',
      mistake: 'token-secret-left-out',
      explanation: 'the PLAINTEXT signature leaves out the token secret: it is consumer secret & token secret',
    };
  if (same(given, `${consumerSecret}&${tokenSecret}`))
    return {
      kind: 'mistake',
      mistake: 'plaintext-not-encoded',
      explanation:
        'the PLAINTEXT signature joins the secrets without percent-encoding them: it is enc(consumer secret)&enc(token secret) (RFC 5849 §3.4.4)',
    };
  return { kind: 'unexplained' };
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
