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
  /**
   * No named mistake explains it. `sent`: the base string of the request with its parameters as the client encoded
   * them (the one a client that signs its own encoding would have built), when it differs from the server's;
   * `difference`: the first part of the server's base string that differs from it.
   */
  | { kind: 'unexplained'; sent?: string; difference?: string }
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

/** What else the judge knows of where the request could have been sent: the server's listener ports. */
export interface OAuth1Surroundings {
  /** Ports the server listens on (its plain and TLS listeners): a client may sign the other one. */
  ports?: readonly number[];
}

/** Reads the OAuth 1 parameters of a request; undefined when it carries none. */
export function readOAuth1Request(req: RequestRecord, around: OAuth1Surroundings = {}): OAuth1Reading | undefined {
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
    for (const v of variants(req, uri, signed, tokenSecret, around))
      if (matches(v.base, v.tokenSecret)) return { kind: 'mistake', mistake: v.mistake, explanation: v.explanation };
    const sent = asSentBase(req, uri);
    if (sent === undefined || sent === base) return { kind: 'unexplained' };
    return { kind: 'unexplained', sent, difference: firstDifference(base, sent) };
  };
  return { ok: true, base, protocol, explain };
}

function variants(
  req: RequestRecord,
  uri: string,
  signed: readonly EncodedParam[],
  tokenSecret: string,
  around: OAuth1Surroundings,
): Variant[] {
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
  const sentOver = uri.startsWith('https:') ? 'https' : 'http';
  const other = sentOver === 'https' ? `http:${uri.slice(6)}` : `https:${uri.slice(5)}`;
  add(
    'scheme-swapped',
    `signed ${other}, sent over ${sentOver}: the base string URI has the scheme the request was sent with (RFC 5849 §3.4.1.2)`,
    build(other),
  );
  const parts = /^(https?):\/\/(\[[^\]]+\]|[^:/]+)(?::([0-9]+))?(\/.*)$/.exec(uri);
  if (parts) {
    const [, scheme = '', host = '', port, path = ''] = parts;
    const authority = (h: string, p: string | undefined) => `${h}${p === undefined ? '' : `:${p}`}`;
    for (const name of ['localhost', '127.0.0.1', '[::1]'].filter((h) => h !== host)) {
      const wrong = `${scheme}://${authority(name, port)}${path}`;
      add(
        'host-wrong',
        `signed ${wrong}, sent to ${authority(host, port)}: the base string URI names the host of the Host header the request carries (RFC 5849 §3.4.1.2)`,
        build(wrong),
      );
    }
    for (const p of (around.ports ?? []).map(String).filter((p) => p !== port)) {
      const wrong = `${scheme}://${authority(host, p)}${path}`;
      add(
        'port-wrong',
        `signed ${wrong}, sent to port ${port ?? (scheme === 'https' ? 443 : 80)}: the base string URI names the port the request was sent to (RFC 5849 §3.4.1.2)`,
        build(wrong),
      );
    }
  }
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
 * The base string of the request with each parameter as the client encoded it on the wire (query, form body and
 * Authorization header values as sent, `+` kept), sorted as §3.4.1.3.2 sorts: what a client that signs its own
 * encoding would have built. Undefined when a parameter cannot be read.
 */
function asSentBase(req: RequestRecord, uri: string): string | undefined {
  const raw: EncodedParam[] = [];
  const split = (text: string) => {
    for (const pair of text.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (name !== 'oauth_signature') raw.push({ name, value: eq < 0 ? '' : pair.slice(eq + 1) });
    }
  };
  split(req.query);
  if (req.body.byteLength > 0 && /^application\/x-www-form-urlencoded\b/i.test(headerValue(req, 'content-type') ?? ''))
    split(Buffer.from(req.body).toString('latin1'));
  const authorization = headerValue(req, 'authorization');
  if (authorization !== undefined && isOAuthAuthorization(authorization)) {
    for (const m of authorization.matchAll(/([^\s=,"]+)[ \t]*=[ \t]*"([^"]*)"/g)) {
      const [, name = '', value = ''] = m;
      if (name !== 'oauth_signature' && name !== 'realm') raw.push({ name, value });
    }
  }
  return signatureBaseString(req.method, uri, raw);
}

/** The first part (method, URI, or one `name=value` parameter) where the server's base string and the other differ. */
function firstDifference(server: string, other: string): string {
  const parts = (s: string) => {
    const [method = '', uri = '', params = ''] = s.split('&');
    return [
      ['the method', method],
      ['the base string URI', uri],
      ...params.split('%26').map((p) => [`the parameter ${safeDecode(p.split('%3D')[0] ?? '')}`, p]),
    ] as const;
  };
  const a = parts(server);
  const b = parts(other);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]?.[1] !== b[i]?.[1]) return (a[i] ?? b[i])?.[0] ?? 'the parameters';
  }
  return 'nowhere';
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
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
