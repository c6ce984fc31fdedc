import type { Scheme } from '../profile/schema.js';
import type { HttpRequest } from '../http/client.js';

/** What a step asks for: `auto` lets the profile decide. */
export type AuthRequest = 'auto' | 'none' | { scheme: Scheme; user?: string };

/** Adds credentials to a request; returns a reason when it cannot. */
export interface Authenticator {
  apply(request: HttpRequest, scheme: Scheme, user: string): { ok: true; request: HttpRequest } | { ok: false; reason: string };
}

/** An authenticator for profiles without credentials: every attempt explains what is missing. */
export const NO_AUTH: Authenticator = {
  apply: (_req, scheme) => ({ ok: false, reason: `the harness has no signer for scheme "${scheme}" yet` }),
};
