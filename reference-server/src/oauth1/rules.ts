/**
 * How OAuth 1 requests are verified and its credentials handed out, as settings and strategies:
 * {@link OAUTH1_RULES} are those of docs/oauth.md (RFC 5849); the faults (faults/oauth.ts) patch copies of them once.
 */
import { textEqual } from '../auth/compare.js';
import type { PendingNonce } from '../auth/verification.js';
import { withinWindow } from '../auth/window.js';
import type { OAuth1Consumer } from '../oauth/accounts.js';
import type { OAuth1State, TemporaryCredentials, TokenCredentials } from '../oauth/state.js';
import type { CredentialStore } from '../store/interfaces.js';
import { signatureBaseString, signatureFor } from './base-string.js';
import type { OAuth1Params } from './params.js';

/** What a signature is checked against. */
export interface SignatureCheck {
  method: string;
  /** The base string URI (RFC 5849 §3.4.1.2). */
  uri: string;
  params: OAuth1Params;
  /** The secret of the consumer the request names (a dummy for an unknown one). */
  consumerSecret: string;
  consumers: ReadonlyMap<string, OAuth1Consumer>;
  /** The secret of the credentials `oauth_token` names (a dummy for unknown ones; empty for the temporary request). */
  tokenSecret: string;
  /** The temporary-credential request, which carries no token. */
  temporary: boolean;
}

/** The settings and strategies of OAuth 1. */
export interface OAuth1Rules {
  /** Query parameters are protocol parameters and part of the signature base string (RFC 5849 §3.4.1.3.1). */
  readsQuery: boolean;
  /** The query's other parameters are signed also when the protocol parameters travel in the query (§3.5.3). */
  signsQueryBesideProtocol: boolean;
  /** Protocol parameters every request carries. */
  required: readonly string[];
  /**
   * Whether the `realm` a request names (undefined: none, RFC 5849 §3.5.1 makes it OPTIONAL) is accepted by a server
   * configured with `configured` (undefined: none, so any realm is taken as the client's label).
   */
  realmAccepted(sent: string | undefined, configured: string | undefined): boolean;
  /** Signature methods accepted: `HMAC-SHA1` only (a server started with `oauth1Plaintext` adds `PLAINTEXT`). */
  signatureMethods: readonly string[];
  /** Whether `oauth_timestamp` lies within the window of the clock (the §5.2 rule). */
  withinWindow(timestampMs: number, nowMs: number, windowSeconds: number): boolean;
  /** The authority of the base string URI, from the Host header as received: all of it, port included. */
  baseHost(host: string): string;
  /**
   * Whether the signature is right for the method the request names, compared in constant time: HMAC-SHA1 over the
   * base string keyed with both secrets; PLAINTEXT (only where `signatureMethods` lists it) the key itself,
   * `enc(consumer secret)&enc(token secret)` (RFC 5849 §3.4.4).
   */
  signatureVerifies(check: SignatureCheck): boolean;
  /** The nonce a verified request spends: every request's, the temporary-credential request's too. */
  nonce(pending: PendingNonce, temporary: boolean): PendingNonce | undefined;
  /** Where a resource request's `oauth_token` is looked up: the token credentials. */
  resourceTokens(oauth1: OAuth1State): Pick<CredentialStore<TokenCredentials>, 'get'>;
  /** Token credentials work only with the consumer they were issued to. */
  tokensBound: boolean;
  /**
   * Who approving temporary credentials the token credentials will act for: the approving owner when they may
   * approve (the consumer's user; anyone with `anyApprover`, the `oauth1-any-approver` variant), else undefined.
   */
  approval(consumerUser: string, owner: string, anyApprover: boolean): string | undefined;
  /** Temporary credentials are approved once. */
  approvesOnce: boolean;
  /** Whether an `oauth_verifier` is the one issued at approval: compared in constant time. */
  verifierMatches(given: string, expected: string): boolean;
  /** What exchanging temporary credentials does to them: they are forgotten, so they and the verifier work once. */
  spendTemporary(temporary: CredentialStore<TemporaryCredentials>, key: string): void;
}

/** The rules of docs/oauth.md. */
export const OAUTH1_RULES: OAuth1Rules = {
  readsQuery: true,
  signsQueryBesideProtocol: true,
  required: ['oauth_consumer_key', 'oauth_signature_method', 'oauth_signature', 'oauth_timestamp', 'oauth_nonce'],
  realmAccepted: (sent, configured) => sent === undefined || configured === undefined || sent === configured,
  signatureMethods: ['HMAC-SHA1'],
  withinWindow,
  baseHost: (host) => host,
  signatureVerifies: (c) => {
    const given = c.params.protocol.get('oauth_signature') ?? '';
    const method = c.params.protocol.get('oauth_signature_method') ?? '';
    const expected = signatureFor(
      method,
      signatureBaseString(c.method, c.uri, c.params.signed),
      c.consumerSecret,
      c.tokenSecret,
    );
    return expected !== undefined && textEqual(given, expected);
  },
  nonce: (pending) => pending,
  resourceTokens: (oauth1) => oauth1.tokens,
  tokensBound: true,
  approval: (consumerUser, owner, anyApprover) => (anyApprover || consumerUser === owner ? owner : undefined),
  approvesOnce: true,
  verifierMatches: textEqual,
  spendTemporary: (temporary, key) => void temporary.delete(key),
};
