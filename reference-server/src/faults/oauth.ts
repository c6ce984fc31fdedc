/**
 * Faults of OAuth 2 and OAuth 1 (docs/oauth.md): wrong comparisons, lifetimes, lookups and bindings, each a patch of
 * the OAuth rules (oauth2/rules.ts, oauth1/rules.ts) made once at start; and a token endpoint that answers a replay
 * with the credentials it issued before, a rewrite with its own memory.
 */
import { hostProblem } from '../request.js';
import type { ResponseRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import { OAUTH_PATHS } from '../routes/oauth.js';
import { isRequest } from './define.js';
import type { FaultGroup } from './define.js';

/** Shortest token prefix the `oauth2-token-prefix` fault accepts. */
const MIN_PREFIX = 16;
/** Most answers the `oauth1-token-endpoint-replay` fault remembers. */
const MAX_ANSWERED = 256;

export const OAUTH_FAULTS = {
  'oauth2-expired-accepted': { rules: { oauth2: () => ({ tokenLifetime: () => Infinity }) } },
  'oauth2-token-over-http': { rules: { tlsOnly: () => ({ bearer: false }) } },
  'oauth2-wrong-client-secret': { rules: { oauth2: () => ({ secretMatches: () => true }) } },
  'oauth2-secret-optional': { rules: { oauth2: () => ({ secretless: true }) } },
  'oauth2-token-prefix': {
    rules: {
      oauth2: (prev) => ({
        findToken: (tokens, token, nowMs) => {
          const exact = prev.findToken(tokens, token, nowMs);
          if (exact !== undefined || token.length < MIN_PREFIX) return exact;
          return tokens.live(nowMs).find(([key]) => key.startsWith(token))?.[1];
        },
      }),
    },
  },
  'oauth2-revoked-accepted': { rules: { oauth2: () => ({ revoke: () => {} }) } },
  'oauth2-basic-undecoded': { rules: { oauth2: () => ({ clientBasic: (part) => part }) } },
  'oauth2-any-grant': { rules: { oauth2: () => ({ grantAccepted: () => true }) } },
  'oauth2-password-unchecked': {
    rules: { oauth2: () => ({ ownerPasswordMatches: (_given, account) => account !== undefined }) },
  },
  'oauth2-code-reusable': { rules: { oauth2: () => ({ codeReusable: true }) } },
  'oauth2-code-reuse-keeps-tokens': { rules: { oauth2: () => ({ codeReused: () => {} }) } },
  'oauth2-code-redirect-unchecked': { rules: { oauth2: () => ({ redirectMatches: () => true }) } },
  'oauth2-pkce-unchecked': { rules: { oauth2: () => ({ verifierMatches: () => true }) } },
  'oauth2-refresh-refused': { rules: { oauth2: () => ({ refreshBound: () => false }) } },
  'oauth2-refresh-any-client': { rules: { oauth2: () => ({ refreshBound: () => true }) } },
  'oauth2-refresh-rotation-keeps-old': { rules: { oauth2: () => ({ rotate: () => {} }) } },
  'oauth2-refresh-revocation-ignored': { rules: { oauth2: () => ({ revokeRefresh: () => {} }) } },
  'oauth2-client-token-acts-for-user': { rules: { oauth2: () => ({ clientTokenUser: (client) => client.user }) } },
  'oauth1-ignores-query': { rules: { oauth1: () => ({ readsQuery: false }) } },
  'oauth1-query-placement-others-unsigned': { rules: { oauth1: () => ({ signsQueryBesideProtocol: false }) } },
  'oauth1-realm-required': {
    rules: {
      oauth1: (prev) => ({
        realmAccepted: (sent, configured) => sent !== undefined && prev.realmAccepted(sent, configured),
      }),
    },
  },
  'oauth1-nonce-unchecked': { rules: { oauth1: () => ({ nonce: () => undefined }) } },
  'oauth1-temporary-replay': {
    rules: {
      oauth1: (prev) => ({ nonce: (pending, temporary) => (temporary ? undefined : prev.nonce(pending, temporary)) }),
    },
  },
  'oauth1-timestamp-unchecked': { rules: { oauth1: () => ({ withinWindow: () => true }) } },
  'oauth1-verifier-reusable': { rules: { oauth1: () => ({ spendTemporary: () => {} }) } },
  'oauth1-verifier-unchecked': {
    rules: {
      oauth1: (prev) => ({
        verifierMatches: (given, expected) => prev.verifierMatches(given, expected) || given !== '',
      }),
    },
  },
  'oauth1-temporary-as-token': {
    // Failing token credentials, temporary ones are looked up, as if they acted for their consumer's user.
    rules: {
      oauth1: (prev) => ({
        resourceTokens: (oauth1) => {
          const tokens = prev.resourceTokens(oauth1);
          return {
            get: (key, nowMs) => {
              const found = tokens.get(key, nowMs);
              if (found !== undefined) return found;
              const t = oauth1.temporary.get(key, nowMs);
              return t === undefined
                ? undefined
                : { consumer: t.consumer, secret: t.secret, user: oauth1.consumers.get(t.consumer)?.user ?? '' };
            },
          };
        },
      }),
    },
  },
  'oauth1-token-any-consumer': { rules: { oauth1: () => ({ tokensBound: false }) } },
  'oauth1-token-secret-ignored': {
    rules: {
      oauth1: (prev) => ({
        signatureVerifies: (check) => {
          const match = prev.signatureVerifies(check);
          return prev.signatureVerifies({ ...check, tokenSecret: '' }) || match;
        },
      }),
    },
  },
  'oauth1-base-uri-no-port': { rules: { oauth1: () => ({ baseHost: (host) => host.replace(/:[0-9]*$/, '') }) } },
  'oauth1-over-http': { rules: { tlsOnly: () => ({ oauth1: false }) } },
  'oauth1-temporary-over-http': { rules: { tlsOnly: () => ({ oauth1Temporary: false }) } },
  'oauth1-token-over-http': { rules: { tlsOnly: () => ({ oauth1Token: false }) } },
  'oauth1-authorize-any-user': { rules: { oauth1: () => ({ approval: (consumerUser) => consumerUser }) } },
  'oauth1-authorize-twice': { rules: { oauth1: () => ({ approvesOnce: false }) } },
  'oauth1-any-consumer-secret': {
    rules: {
      oauth1: (prev) => ({
        signatureVerifies: (check) =>
          [...check.consumers.values()].some((consumer) =>
            prev.signatureVerifies({ ...check, consumerSecret: consumer.secret }),
          ),
      }),
    },
  },
  'oauth1-plaintext-unverified': {
    // PLAINTEXT is accepted, and its "signature" never compared with the secrets.
    rules: {
      oauth1: (prev) => ({
        signatureMethods: [...prev.signatureMethods, 'PLAINTEXT'],
        signatureVerifies: (check) =>
          check.params.protocol.get('oauth_signature_method') === 'PLAINTEXT' || prev.signatureVerifies(check),
      }),
    },
  },
  'oauth1-hmac-sha256-unverified': {
    rules: {
      oauth1: (prev) => ({
        signatureVerifies: (check) =>
          check.params.protocol.get('oauth_signature_method') === 'HMAC-SHA256' || prev.signatureVerifies(check),
      }),
    },
  },
  'oauth1-nonce-optional': {
    rules: { oauth1: (prev) => ({ required: prev.required.filter((name) => name !== 'oauth_nonce') }) },
  },
  'oauth1-temporary-unsigned': {
    rules: { oauth1: (prev) => ({ signatureVerifies: (check) => check.temporary || prev.signatureVerifies(check) }) },
  },
  'oauth1-token-endpoint-replay': () => {
    // The answers of earlier token requests, by their exact bytes: a request that reaches the endpoint's checks
    // with the same bytes gets the same answer again.
    const answered = new Map<string, ResponseRecord>();
    return {
      rewrite: (req, res, ctx) => {
        if (
          !isRequest(req, 'POST', OAUTH_PATHS.oauth1Token) ||
          ctx.origin !== 'handler' ||
          hostProblem(req) !== undefined
        )
          return res;
        if (!req.secure && rulesOf(ctx.deps).tlsOnly.oauth1Token) return res;
        const key = JSON.stringify([
          req.headers.authorization ?? '',
          req.query,
          Buffer.from(req.body).toString('latin1'),
        ]);
        const before = answered.get(key);
        if (before !== undefined) return before;
        if (res.status === 200) {
          if (answered.size >= MAX_ANSWERED) answered.delete(answered.keys().next().value as string);
          answered.set(key, res);
        }
        return res;
      },
    };
  },
} satisfies FaultGroup;
