/** What checking a request's credentials yields: a leaf record shared by every scheme's verifier. */

/** A nonce to consume once the rest of a date-and-nonce request has verified. */
export interface PendingNonce {
  /** Store scope: the user (for OAuth 1, the consumer). */
  scope: string;
  /** Store key: the nonce text (its int64 value under the `nonce-int64` variant). */
  key: string;
  /** Instant (ms) until which the nonce must be remembered: `max(date, now) + window`. */
  expiresAt: number;
  /** How a replay is refused, when not as the hmac form's (OAuth 1: its own reason and challenge). */
  replay?: { reason: string; challenge: string };
}

/** Outcome of {@link verifyCredentials}; `valid` still needs its nonce consumed. */
export type Verification =
  | { kind: 'none' }
  /** Refused: 401 with `challenge` (default: every scheme's), or 400 for a malformed OAuth 1 request. */
  | { kind: 'invalid'; reason: string; status?: 400; challenge?: string }
  | { kind: 'valid'; user: string; nonce?: PendingNonce };

/** Who a request is from, as the access rules see it. */
export type Identity =
  | { kind: 'user'; user: string }
  /**
   * No usable credentials; `reason` says why presented ones were refused, `status` and `challenge` how (a
   * `Refusal` of `challenge.ts`: 400 for a malformed OAuth 1 request, else 401 with that challenge).
   */
  | { kind: 'anonymous'; reason?: string; status?: 400; challenge?: string }
  /** Valid nonce-form credentials but the nonce store is full: answer 503 with `Retry-After`. */
  | { kind: 'unavailable'; retryAfterSeconds: number };
