/**
 * Faults of how a digest is rebuilt and remembered (issue 37): a message builder that maps one verb to another, a
 * cache that takes a digest (or an OAuth 1 signature) again once it verified, and one that spares a bearer token the owner check once it
 * opened records. Each passes the binding checks that send their altered requests
 * first, and is caught by a check made after a success or with the verb it maps.
 */
import type { RequestRecord } from '../records.js';
import { remember } from './define.js';
import type { FaultGroup } from './define.js';

/** The token of an `Authorization: Bearer` field, if the request has one. */
function bearerOf(req: RequestRecord): string | undefined {
  const field = req.headers['authorization'];
  const match = typeof field === 'string' ? /^bearer\s+(\S+)$/i.exec(field) : null;
  return match?.[1];
}

export const DIGEST_FAULTS = {
  // A server whose message builder maps HEAD to GET (a framework that serves HEAD through the GET route): a correctly
  // signed HEAD is refused, and a digest made for GET opens a HEAD (issue 37).
  'hmac-head-as-get': {
    rules: {
      auth: (prev) => ({
        signedMessages: (req, server) =>
          prev.signedMessages(req.method === 'HEAD' ? { ...req, method: 'GET' } : req, server),
      }),
    },
  },
  // A cache of digests that verified once (issue 37): a later request carrying one is taken without rebuilding the
  // message and, in the date-and-nonce form, without spending its nonce again, so a digest made for GET of one path
  // opens any verb and path afterwards. (The verification compares the digest, then hands the nonce to the
  // `digestChecked` hook, with no wait between: `hit` passes the one to the other.)
  'digest-cache': () => {
    const verified = new Map<string, true>();
    let hit = false;
    return {
      hooks: {
        digestChecked: (verification) => {
          const spared = hit && verification.kind === 'valid';
          hit = false;
          return spared ? { kind: 'valid', user: verification.user } : verification;
        },
      },
      rules: {
        auth: (prev) => ({
          nonce: (input) => {
            hit = false;
            return prev.nonce(input);
          },
          digestMatches: (given, expected, equal) => {
            if (verified.has(given)) return (hit = true);
            const match = prev.digestMatches(given, expected, equal);
            if (match) remember(verified, given, true);
            return match;
          },
        }),
      },
    };
  },
  // A cache of OAuth 1 signatures that verified once (issue 37): a later request carrying one is taken without
  // rebuilding the base string and without spending its nonce again, so a GET's signature opens a HEAD, or the same
  // GET with a query added, afterwards. (The verification reads the signature, then the nonce, with no wait between:
  // `hit` passes the one to the other.)
  'oauth1-signature-cache': () => {
    const verified = new Map<string, true>();
    let hit = false;
    return {
      rules: {
        oauth1: (prev) => ({
          signatureVerifies: (c) => {
            const key = `${c.params.protocol.get('oauth_consumer_key') ?? ''}&${c.params.protocol.get('oauth_signature') ?? ''}`;
            // The resource requests' verification only (not the temporary-credential and token requests').
            const resource = !c.temporary && !c.params.protocol.has('oauth_verifier');
            hit = resource && verified.has(key);
            if (hit) return true;
            const match = prev.signatureVerifies(c);
            if (match && resource) remember(verified, key, true);
            return match;
          },
          nonce: (pending, temporary) => {
            const spared = hit;
            hit = false;
            return spared ? undefined : prev.nonce(pending, temporary);
          },
        }),
      },
    };
  },
  // A cache of bearer tokens that opened records once (issue 37): afterwards the owner check is skipped for them, so
  // a token that opened its own user's records opens every user's.
  'bearer-scope-cache': () => {
    const opened = new Map<string, true>();
    return {
      hooks: {
        served: async (req, state, deps, next) => {
          const response = await next(req, state, deps);
          const token = bearerOf(req);
          if (token !== undefined && response.status < 300 && req.path.endsWith('/financialrecords'))
            remember(opened, token, true);
          return response;
        },
      },
      rules: {
        access: (prev) => ({
          ownerOnly: (req) => {
            const token = bearerOf(req);
            return token !== undefined && opened.has(token) ? false : prev.ownerOnly(req);
          },
        }),
      },
    };
  },
} as const satisfies FaultGroup;
