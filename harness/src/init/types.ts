/** The inputs and the result of `conform init`'s draft (draft.ts). */
import type { HttpClient } from '../http/client.js';
import type { RawExchange } from '../runner/exec-types.js';
/** A user as the caller gave it: the values to probe with, and the `${NAME}` references the draft writes instead. */
export interface InitUser {
  name: string;
  password?: { value: string; ref: string };
  secret?: { value: string; ref: string };
}

/** A credential the caller gave: its value and the reference the draft writes. */
export interface InitSecret {
  value: string;
  ref: string;
}

export interface DraftInput {
  client: HttpClient;
  /** The base URLs given: at most one per scheme. */
  targets: { http?: string; https?: string };
  /** Recorded in the draft's `target.insecure`. */
  insecure: boolean;
  users: InitUser[];
  oauth2?: { tokenEndpoint: string; clientId: InitSecret; clientSecret: InitSecret; redirectUri?: string };
  oauth1?: {
    temporaryEndpoint: string;
    authorizeEndpoint: string;
    tokenEndpoint: string;
    consumerKey: InitSecret;
    consumerSecret: InitSecret;
  };
  uniq: () => string;
  now?: () => Date;
}

/** One key of the draft: its value and the exchange it was learned from, or left out (`off`) with why. */
export interface DraftKey {
  key: string;
  value: unknown;
  how: string;
  off?: boolean;
}

export interface Draft {
  /** What each base answered (or why it did not). */
  bases: Array<{
    url: string;
    answered: boolean;
    how: string;
    /** The TLS handshake failed (a certificate not trusted): the draft stops, with the --ca / --insecure hint. */
    untrusted?: boolean;
  }>;
  /** The profile data the draft writes (credentials as references). */
  keys: DraftKey[];
  users: Array<{ name: string; password?: string; secret?: string }>;
  oauth2?: { tokenEndpoint: string; clientId: string; clientSecret: string };
  oauth1?: {
    temporaryEndpoint: string;
    authorizeEndpoint: string;
    tokenEndpoint: string;
    consumerKey: string;
    consumerSecret: string;
  };
  /** Every exchange sent (raw: never written as is). */
  exchanges: RawExchange[];
  /** Articles created that could not be deleted. */
  leftovers: string[];
  /** The secrets given, for redacting anything printed. */
  secrets: string[];
}
