import type { ResolvedProfile } from '../profile/schema.js';
import type { Bases } from './exec-types.js';

/**
 * Where requests go: each `--target` URL (one per scheme) overrides the profile's `target.http` or `target.https` by
 * its scheme (CONTRACT.md); the primary base is the first target, else the plain URL, else the TLS one. Undefined
 * when there is none.
 */
export function basesFor(target: string | readonly string[] | undefined, profile: ResolvedProfile): Bases | undefined {
  const targets = typeof target === 'string' ? [target] : (target ?? []);
  const plain = targets.find((t) => t.startsWith('http:')) ?? profile.target.http;
  const tls = targets.find((t) => t.startsWith('https:')) ?? profile.target.https;
  const primary = targets[0] ?? plain ?? tls;
  if (!primary) return undefined;
  return { primary, ...(plain ? { plain } : {}), ...(tls ? { tls } : {}) };
}
