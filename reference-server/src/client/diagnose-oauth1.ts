/**
 * The diagnostic of a refused OAuth 1 request (`conform serve --diagnose`): the signature base string the server
 * built (RFC 5849 §3.4.1), and the common mistake whose base string or key the client's `oauth_signature` was
 * computed with, found here with the secrets the server holds. Never a secret, never a signature.
 */
import type { RequestRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import type { Diagnostic } from './diagnose-hmac.js';
import { JUDGED_METHODS, readOAuth1Request } from './oauth1-mistakes.js';

/** The diagnostic of an OAuth 1 request, or undefined when it carries no OAuth 1 parameters. */
export function diagnoseOAuth1(req: RequestRecord, state: ServerState, deps: HandlerDeps): Diagnostic | undefined {
  const read = readOAuth1Request(req);
  if (read === undefined) return undefined;
  if (!read.ok) return { scheme: 'oauth1', explanation: read.reason };
  const { base, protocol } = read;
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
  const finding = read.explain(consumer.secret, tokenSecret);
  if (finding.kind === 'unsupported')
    return {
      scheme: 'oauth1',
      explanation: `oauth_signature_method ${JSON.stringify(finding.method)} is not supported here: sign with ${JUDGED_METHODS.join(' or ')}`,
    };
  if (finding.kind === 'right')
    return {
      scheme: 'oauth1',
      signed: base,
      digestMatches: true,
      explanation: 'the signature is right: the request was refused for another reason',
    };
  if (finding.kind === 'mistake')
    return {
      scheme: 'oauth1',
      signed: base,
      digestMatches: false,
      mistake: finding.mistake,
      explanation: finding.explanation,
    };
  return {
    scheme: 'oauth1',
    signed: base,
    digestMatches: false,
    explanation:
      'no common mistake explains oauth_signature: check the consumer and token secrets (key: encoded consumer secret & encoded token secret) and the base string above',
  };
}
