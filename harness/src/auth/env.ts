/** Where credentials live outside a profile: the environment variables `conform init` and `conform sign` read. */

/**
 * The environment variable holding `what` of user `name`: `CONFORM_`, the name upper-cased with every character other
 * than A-Z and 0-9 as `_`, then `_PASSWORD` (Basic) or `_SECRET` (signed requests): alice → `CONFORM_ALICE_SECRET`.
 */
export function credentialVariable(name: string, what: 'PASSWORD' | 'SECRET'): string {
  return `CONFORM_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${what}`;
}
