import type { ResolvedProfile } from '../profile/schema.js';
import type { Bases } from './exec-types.js';

/**
 * Where requests go: a `--target` URL overrides the profile's `target.http` or `target.https` by its scheme
 * (CONTRACT.md); the primary base is the target, else the plain URL, else the TLS one. Undefined when there is none.
 */
export function basesFor(target: string | undefined, profile: ResolvedProfile): Bases | undefined {
  const plain = target?.startsWith('http:') ? target : profile.target.http;
  const tls = target?.startsWith('https:') ? target : profile.target.https;
  const primary = target ?? plain ?? tls;
  if (!primary) return undefined;
  return { primary, ...(plain ? { plain } : {}), ...(tls ? { tls } : {}) };
}
