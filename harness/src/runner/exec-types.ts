/** The data the step interpreter works with: base URLs, dependencies, exchanges and the outcome of one run. */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { Redactor } from './redact.js';
import type { Precondition, SentCredential } from './types.js';
import type { TokenSource } from '../oauth/index.js';
import type { OobListener } from './oob.js';

/** Base URLs of the target: the primary one (--target, else plain, else TLS) and each transport when known. */
export interface Bases {
  primary: string;
  plain?: string;
  tls?: string;
}

export interface ExecDeps {
  client: HttpClient;
  bases: Bases;
  profile: ResolvedProfile;
  redactor: Redactor;
  authenticator: Authenticator;
  /** A fresh value per execution, so repeated runs never collide on the target. */
  uniq: () => string;
  seed: number;
  /** The harness clock. */
  now?: () => Date;
  /** Most exchanges kept per run for the report. */
  maxTranscript?: number;
  /** Where OAuth tokens come from when a request needs one it was not given (default: obtained from the target, kept per authenticator). */
  tokens?: TokenSource;
  /**
   * Runs a wait for the clock (a `wait` step) with the scenario stepped aside, so an exclusive scenario may run
   * meanwhile (see runner/schedule.ts). Default: just waits.
   */
  idle?: <T>(wait: () => Promise<T>) => Promise<T>;
  /**
   * Resolves once every other scenario of the run has finished (an `atRunEnd` step): the run itself is the wait.
   * Default (a scenario run alone): at once.
   */
  atRunEnd?: () => Promise<void>;
  /**
   * Another lane of the run, lent for part of the scenario's own work (independent property runs side by side) when
   * one is free that nothing waiting wants: its release function, or undefined. Default: never.
   */
  borrowLane?: () => (() => void) | undefined;
  /** How a `wait` step waits `ms` (default a timer): tests pass one that moves their clock instead. */
  sleep?: (ms: number) => Promise<void>;
  /** The out-of-band listener of this iteration (scenarios that require `oob`). */
  oob?: OobListener;
}

/** An exchange as sent and received; redacted only when it is kept for a report (see `redactExchange`). */
export interface RawExchange {
  step: number;
  stepName?: string;
  /** The instance of the profile's `target.instances` it was sent to (1-based); absent: the target. */
  instance?: number;
  /** `credentials`: sent by the harness to obtain credentials a step needed (an OAuth token), not by the step itself. */
  purpose?: 'credentials';
  /** How the request was authenticated, when the harness added credentials to it. */
  credential?: SentCredential;
  request: HttpRequest;
  response?: HttpResponse;
  error?: { code: string; message: string };
}

/** Requests an iteration sent: in all, and of those, the ones that obtained OAuth credentials. */
interface Sent {
  transcript: RawExchange[];
  requests: number;
  credentialRequests?: number;
}

export type IterationOutcome =
  | ({ kind: 'pass'; emptyEach?: { step: string; each: string } } & Sent)
  | ({ kind: 'fail'; step: number; stepName?: string; messages: string[]; rules?: string[] } & Sent)
  | ({ kind: 'error'; step: number; stepName?: string; message: string; precondition?: Precondition } & Sent);
