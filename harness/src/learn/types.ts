/** What the learning takes and gives (learn.ts): its dependencies, the points it learned, the keys it can learn. */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient } from '../http/client.js';
import type { ApprovalWay } from '../oauth/index.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { Bases, RawExchange } from '../runner/exec-types.js';
import type { Redactor } from '../runner/redact.js';

/** One open point the harness learned. */
export interface LearnedPoint {
  /** The profile key that would declare it. */
  key: string;
  value: unknown;
  /** How it was learned, in words: the requests and what the target answered. */
  how: string;
}

export interface LearnOutcome {
  /** The profile with what was learned filled in (`declared` unchanged: learned keys stay undeclared). */
  profile: ResolvedProfile;
  learned: LearnedPoint[];
  /** The way OAuth 1 approvals were found to work, when one was needed. */
  approval?: ApprovalWay;
  /** Every exchange the learning sent, in order (raw: redact before reporting). */
  exchanges: RawExchange[];
  /** Paths of articles the learning created and could not delete. */
  leftovers: string[];
}

export interface LearnDeps {
  client: HttpClient;
  bases: Bases;
  profile: ResolvedProfile;
  authenticator: Authenticator;
  redactor: Redactor;
  /** A fresh value for each article slug the learning creates. */
  uniq: () => string;
  /** Also learn what only a drafted profile declares (`conform init`). */
  draft?: boolean;
}

/** Keys the learning can fill in; a profile that declares all of these needs none. */
export const LEARNABLE_KEYS = [
  'auth.schemes',
  'auth.signedPathIncludesQuery',
  'auth.bodyHash',
  'articles.mediaType',
  'articles.writeAuth',
  'articles.clientChosenPut',
  'articles.readable',
  'articles.textNormalization',
  'articles.deletable',
  'options.implemented',
  'auth.oauth2.ttl',
  'auth.oauth1.signatureMethods',
] as const;
