/**
 * The diagnostic of a refused OAuth 1 request (`conform serve --diagnose`): the signature base string the server
 * built (RFC 5849 §3.4.1), and the common mistake whose base string or key the client's `oauth_signature` was
 * computed with, found here with the secrets the server holds. Never a secret, never a signature.
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestRecord } from '../records.js';
import { headerValue } from '../request.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { baseStringUri, hmacSha1Signature, signatureBaseString, type EncodedParam } from '../oauth1/base-string.js';
import { carriesOAuth1Params, isOAuthAuthorization, readOAuth1Params } from '../oauth1/params.js';
import type { Diagnostic } from './diagnose-hmac.js';

/** One way of getting the signature wrong: a base string (or a key) the client may have used instead. */
interface Variant {
  mistake: string;
  explanation: string;
  base: string;
  tokenSecret?: string;
}

/** The diagnostic of an OAuth 1 request, or undefined when it carries no OAuth 1 parameters. */
export function diagnoseOAuth1(req: RequestRecord, state: ServerState, deps: HandlerDeps): Diagnostic | undefined {
  const authorization = headerValue(req, 'authorization');
  const header = authorization !== undefined && isOAuthAuthorization(authorization);
  if (!header && !carriesOAuth1Params(req)) return undefined;
  const read = readOAuth1Params(req);
  if (!read.ok) return { scheme: 'oauth1', explanation: read.reason };
  const { protocol, signed } = read.params;
  const scheme = req.secure ? 'https' : 'http';
  const uri = baseStringUri(scheme, headerValue(req, 'host') ?? '', req.path);
  if (uri === undefined) return { scheme: 'oauth1', explanation: 'the request needs a Host header naming host[:port]' };
  const base = signatureBaseString(req.method, uri, signed);
  const consumer = state.oauth1.consumers.get(protocol.get('oauth_consumer_key') ?? '');
  if (consumer === undefined)
    return { scheme: 'oauth1', signed: base, explanation: 'unknown oauth_consumer_key: no signature can be checked' };
  const now = deps.now().getTime();
  const tokenKey = protocol.get('oauth_token') ?? '';
  const tokenSecret =
    tokenKey === ''
      ? ''
      : (state.oauth1.tokens.get(tokenKey, now)?.secret ?? state.oauth1.temporary.get(tokenKey, now)?.secret);
  if (tokenSecret === undefined)
    return {
      scheme: 'oauth1',
      signed: base,
      explanation: 'unknown or expired oauth_token: no signature can be checked',
    };
  const given = protocol.get('oauth_signature') ?? '';
  const matches = (b: string, secret = tokenSecret) => same(hmacSha1Signature(b, consumer.secret, secret), given);
  if (matches(base))
    return {
      scheme: 'oauth1',
      signed: base,
      digestMatches: true,
      explanation: 'the signature is right: the request was refused for another reason',
    };
  for (const v of variants(req, uri, signed, tokenSecret)) {
    if (matches(v.base, v.tokenSecret))
      return { scheme: 'oauth1', signed: base, digestMatches: false, mistake: v.mistake, explanation: v.explanation };
  }
  return {
    scheme: 'oauth1',
    signed: base,
    digestMatches: false,
    explanation:
      'no common mistake explains oauth_signature: check the consumer and token secrets (key: encoded consumer secret & encoded token secret) and the base string above',
  };
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

function same(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
