/**
 * Faults of how a digest is rebuilt and remembered (issue 37): a message builder that maps one verb to another, and
 * a cache that takes a digest again once it verified. Each passes the binding checks that send their altered requests
 * first, and is caught by a check made after a success or with the verb it maps.
 */
import { remember } from './define.js';
import type { FaultGroup } from './define.js';

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
  // message, so a digest made for GET of one path opens any verb and path afterwards.
  'digest-cache': {
    rules: {
      auth: (prev) => {
        const verified = new Map<string, true>();
        return {
          digestMatches: (given, expected, equal) => {
            if (verified.has(given)) return true;
            const match = prev.digestMatches(given, expected, equal);
            if (match) remember(verified, given, true);
            return match;
          },
        };
      },
    },
  },
} as const satisfies FaultGroup;
