/**
 * Faults of the IO shell and of a cluster, which only a restart or several instances show: an answer sent before
 * its changes are on disk, nonces left out of the journal (server.ts reads {@link IoFaults}), and each instance
 * keeping its own keys in the shared store (store/redis/keys.ts reads {@link ownKeySpaces}).
 */
import type { FaultGroup } from './define.js';
import type { ClusterFaultName, FaultName } from './registry.js';

/** A kind of data in the shared store, as the cluster faults give each instance its own. */
export type KeySpace = 'articles' | 'nonces' | 'tokens';

const OWN_KEY_SPACE: Readonly<Record<ClusterFaultName, KeySpace>> = {
  'nonce-per-instance': 'nonces',
  'tokens-per-instance': 'tokens',
  'articles-per-instance': 'articles',
};

/** The kinds of data an instance keeps in its own key space under `faults` (none on a correct cluster). */
export function ownKeySpaces(faults: ReadonlySet<FaultName>): ReadonlySet<KeySpace> {
  return new Set(
    [...faults].flatMap((name) =>
      Object.hasOwn(OWN_KEY_SPACE, name) ? [OWN_KEY_SPACE[name as ClusterFaultName]] : [],
    ),
  );
}

export const IO_FAULTS = {
  'journal-on-exit': { io: { waitsForDisk: false } },
  'nonces-not-journaled': { io: { journaled: (change) => change.kind !== 'nonce' } },
  // These act through the key layout of the shared store (ownKeySpaces).
  'nonce-per-instance': {},
  'tokens-per-instance': {},
  'articles-per-instance': {},
} satisfies FaultGroup;
