/**
 * The cluster faults and the scenarios each must fail (test/cluster.test.ts runs them against `conform serve
 * --instances 3 --redis …`; test/fault-matrix.test.ts counts these scenarios as aimed at). Not a test file, so both
 * may import it.
 */
import type { ClusterFaultName } from '../../reference-server/src/index.js';

/** Cluster fault → the scenarios that must fail under it (in the section of the rule it breaks). */
export const CLUSTER_MATRIX: Record<ClusterFaultName, string[]> = {
  'nonce-per-instance': [
    'cluster/nonce-replay-other-instances',
    'cluster/nonce-concurrent-instances',
    'cluster/oauth1-nonce-other-instances',
  ],
  'tokens-per-instance': [
    'cluster/oauth2-token-any-instance',
    'cluster/oauth2-revoked-everywhere',
    'cluster/oauth1-credentials-any-instance',
  ],
  'articles-per-instance': ['cluster/article-across-instances'],
};

/** The rule each cluster scenario fails under its fault: the section is that of the rule the fault breaks. */
export const CLUSTER_FAILS_UNDER: Record<string, string> = {
  'cluster/nonce-replay-other-instances': '5.2-nonce-once',
  'cluster/nonce-concurrent-instances': '5.2-nonce-once',
  'cluster/oauth1-nonce-other-instances': 'rfc5849-nonce-once',
  'cluster/oauth2-token-any-instance': '5.3-temporary-token',
  'cluster/oauth2-revoked-everywhere': 'rfc7009-revoked-unusable',
  'cluster/oauth1-credentials-any-instance': '5.3-temporary-token',
  'cluster/article-across-instances': 'rfc9110-location-identifies',
};

/** Every cluster scenario: skipped against one server (its profile lists no instances). */
export const CLUSTER_SCENARIOS = Object.keys(CLUSTER_FAILS_UNDER);
