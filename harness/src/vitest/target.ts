/** Turns the suite's `target` option into base URLs, the effective profile and an HTTP client (as `conform run` does). */
import { ConformError } from '../errors.js';
import { createHttpClient, type HttpClient } from '../http/client.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { basesFor } from '../runner/bases.js';
import type { Bases } from '../runner/exec-types.js';
import type { ConformTargetServer } from './options.js';

/** The effective target of a suite: where requests go, and the profile with its `target` section made to match. */
export interface ResolvedTarget {
  bases: Bases;
  profile: ResolvedProfile;
}

/**
 * A URL target overrides the profile's `target.http` or `target.https` by its scheme (CONTRACT.md, `--target`);
 * no URL: the profile's own. The profile's `target` is updated to match, so `target.http`/`target.https`
 * capabilities describe where requests really go.
 */
export function targetFromUrl(url: string | undefined, profile: ResolvedProfile): ResolvedTarget {
  if (url !== undefined && !/^https?:\/\/[^\s/]+/.test(url)) {
    throw new ConformError(
      'CONFORM_USAGE',
      `defineConformSuite: target expects an http:// or https:// URL, got "${url}"`,
    );
  }
  const bases = basesFor(url, profile);
  if (!bases)
    throw new ConformError(
      'CONFORM_USAGE',
      'defineConformSuite: no target: pass target (a URL or a function starting the server), or set target.http in the profile',
    );
  return { bases, profile: withTarget(profile, bases.plain, bases.tls) };
}

/** A server started by the suite replaces the profile's target URLs entirely: what it does not offer, it lacks. */
export function targetFromServer(
  server: Pick<ConformTargetServer, 'url' | 'httpsUrl'>,
  profile: ResolvedProfile,
): ResolvedTarget {
  if (!/^https?:\/\/[^\s/]+/.test(server.url)) {
    throw new ConformError(
      'CONFORM_USAGE',
      `defineConformSuite: the target function resolved to url "${server.url}", not an http:// or https:// URL`,
    );
  }
  const plain = server.url.startsWith('http:') ? server.url : undefined;
  const tls = server.httpsUrl ?? (server.url.startsWith('https:') ? server.url : undefined);
  return {
    bases: { primary: server.url, ...(plain ? { plain } : {}), ...(tls ? { tls } : {}) },
    profile: withTarget(profile, plain, tls),
  };
}

function withTarget(profile: ResolvedProfile, http: string | undefined, https: string | undefined): ResolvedProfile {
  return {
    ...profile,
    target: {
      insecure: profile.target.insecure,
      instances: [],
      ...(http ? { http } : {}),
      ...(https ? { https } : {}),
    },
  };
}

/** TLS trust and limits of the suite's HTTP client. */
export interface ClientSettings {
  timeoutMs: number;
  maxResponseBytes: number;
  insecure?: boolean;
  ca?: string;
}

/**
 * The client: a started server's own certificate is trusted, with `ca` if given (and nothing else is relaxed);
 * `insecure` only when asked for, or when the profile says so and no certificate came with the server.
 */
export function clientFor(
  profile: ResolvedProfile,
  settings: ClientSettings,
  server?: Pick<ConformTargetServer, 'certificate'>,
): HttpClient {
  const pems = [settings.ca, server?.certificate].filter((x): x is string => x !== undefined);
  const ca = pems.length > 0 ? pems.join('\n') : undefined;
  const insecure = settings.insecure ?? (profile.target.insecure && server?.certificate === undefined);
  return createHttpClient({
    timeoutMs: settings.timeoutMs,
    maxResponseBytes: settings.maxResponseBytes,
    insecure,
    ...(ca !== undefined ? { ca } : {}),
  });
}
