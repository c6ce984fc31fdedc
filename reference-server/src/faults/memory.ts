/**
 * Faults of a stateless server that remembers: a user recalled on a later request of the same connection, or by a
 * session cookie. Both go through the `identified` hook; the cookie is set by a rewrite of the answer.
 */
import { randomBytes } from 'node:crypto';
import type { RequestRecord } from '../records.js';
import { oauthEndpoint } from '../routes/oauth.js';
import type { FaultGroup } from './define.js';

/** Session ids → users, for the `session-cookie` fault; bounded, oldest dropped first. */
export class SessionTable {
  private readonly sessions = new Map<string, string>();

  /** @param capacity most sessions kept. */
  constructor(readonly capacity = 10_000) {}

  /** Opens a session for `user`; returns its random id. */
  open(user: string): string {
    const sid = randomBytes(16).toString('hex');
    this.sessions.set(sid, user);
    if (this.sessions.size > this.capacity) {
      const oldest = this.sessions.keys().next();
      if (oldest.done !== true) this.sessions.delete(oldest.value);
    }
    return sid;
  }

  /** The user of a session id, or undefined. */
  user(sid: string): string | undefined {
    return this.sessions.get(sid);
  }
}

/** The `sid` cookie of a request, or undefined. */
export function sessionCookie(req: RequestRecord): string | undefined {
  const raw = req.headers.cookie;
  const value = Array.isArray(raw) ? raw.join('; ') : raw;
  for (const pair of (value ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === 'sid') return pair.slice(eq + 1).trim();
  }
  return undefined;
}

export const MEMORY_FAULTS = {
  'connection-remembers': {
    // The IO shell passes each connection's memory with its requests (server.ts).
    io: { remembersConnections: true },
    hooks: {
      identified: (req, verification, identity) => {
        if (verification.kind === 'valid' && req.connection) req.connection.user = verification.user;
        const remembered = verification.kind === 'none' ? req.connection?.user : undefined;
        return remembered === undefined ? identity : { kind: 'user', user: remembered };
      },
    },
  },
  'session-cookie': () => {
    const sessions = new SessionTable();
    // The cookie each authenticated request opened, for its answer.
    const opened = new WeakMap<RequestRecord, string>();
    return {
      hooks: {
        identified: (req, verification, identity) => {
          if (verification.kind === 'valid') opened.set(req, `sid=${sessions.open(verification.user)}; Path=/`);
          if (verification.kind !== 'none' || identity.kind === 'user') return identity;
          const sid = sessionCookie(req);
          const user = sid === undefined ? undefined : sessions.user(sid);
          return user === undefined ? identity : { kind: 'user', user };
        },
      },
      rewrite: (req, res, ctx) => {
        const cookie = opened.get(req);
        if (cookie === undefined || ctx.origin !== 'handler' || oauthEndpoint(req.path) !== undefined) return res;
        return { ...res, headers: { ...res.headers, 'set-cookie': cookie } };
      },
    };
  },
} satisfies FaultGroup;
