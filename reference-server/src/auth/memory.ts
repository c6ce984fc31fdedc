import { randomBytes } from 'node:crypto';
import type { RequestRecord } from '../records.js';

/** Session ids → users, for the `session-cookie` fault only; bounded, oldest dropped first. */
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
