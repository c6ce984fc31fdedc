import { ReferenceServerError } from '../errors.js';
/** One account of the reference server: a Basic password and an HMAC shared secret (kept recoverable, §5.2). */
export interface UserAccount {
  /** User id; no colon (RFC 7617) and RFC 3986 unreserved characters so it fits `/users/<name>/financialrecords`. */
  name: string;
  /** Basic password; may contain colons and any Unicode. */
  password: string;
  /** HMAC-SHA256 shared secret (its UTF-8 bytes are the key). */
  secret: string;
}

/** The default accounts, as `reference-server/profile.yaml` lists them. */
export const DEFAULT_USERS: readonly UserAccount[] = Object.freeze([
  { name: 'alice', password: 'wonder:land', secret: 'alice-secret-1' },
  { name: 'bob', password: 'builder', secret: 'bob-secret-2' },
  { name: 'carol', password: 'pä:ss wörd✓', secret: 'carol-secret-3' },
]);

/** Thrown by {@link userTable} for an account the server cannot serve. */
export class InvalidUserError extends ReferenceServerError {
  constructor(message: string) {
    super('REF_INVALID_USER', message);
    this.name = 'InvalidUserError';
  }
}

const NAME = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * Indexes accounts by name.
 * @throws {InvalidUserError} for a name that is not 1–200 unreserved characters (so no colon), `.`/`..`, or a duplicate.
 */
export function userTable(users: readonly UserAccount[]): ReadonlyMap<string, UserAccount> {
  const table = new Map<string, UserAccount>();
  for (const user of users) {
    if (!NAME.test(user.name) || user.name === '.' || user.name === '..') {
      throw new InvalidUserError(`user name ${JSON.stringify(user.name)} must be 1-200 characters of [A-Za-z0-9._~-]`);
    }
    if (table.has(user.name)) throw new InvalidUserError(`user ${JSON.stringify(user.name)} is listed twice`);
    table.set(user.name, { ...user });
  }
  return table;
}
