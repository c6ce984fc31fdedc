/**
 * `@conform-harness/conform/reference-server`: the bundled reference server for tests of your own — started
 * in-process on free loopback ports, with a profile that points at it, and closed with `close()`. This is what
 * `conform run --embedded` runs against; use it to compare your client or service with the reference, or to try a
 * scenario of your own against a server with a known fault (`faults`) or another choice where the spec is open
 * (`variants`).
 *
 * @example
 * ```ts
 * import { startReferenceServer } from '@conform-harness/conform/reference-server';
 * const server = await startReferenceServer({ variants: ['no-client-put'] });
 * try {
 *   const res = await fetch(`${server.url}/articles/`);
 * } finally {
 *   await server.close();
 * }
 * ```
 */
import { bundledPaths } from '../../../harness/src/paths.js';
import type { ResolvedProfile } from '../../../harness/src/profile/schema.js';
import { parseFaultNames, parseVariantNames, startServer } from '../../../reference-server/src/index.js';
import type { ExchangeListener } from '../../../reference-server/src/index.js';
import { EMBEDDED_TOKEN_TTL, embeddedProfile } from '../embedded.js';
import { loadVariantProfile } from '../variant-profile.js';

/** How to start the reference server; every option has a default. */
export interface ReferenceServerOptions {
  /** Port of the plain-HTTP listener on 127.0.0.1. Default 0: a free one. */
  port?: number;
  /** Port of the TLS listener (a self-signed certificate, see `certificate`). Default 0: a free one; `false`: none. */
  httpsPort?: number | false;
  /** Named defects to switch on (`conform serve --list-faults`). An unknown name throws. Default none. */
  faults?: readonly string[];
  /** Other choices where the spec is open (`conform serve --list-variants`). An unknown name throws. Default none. */
  variants?: readonly string[];
  /** OAuth 2 access-token lifetime, seconds. Default 2, as under `conform run --embedded` (the expiry scenario waits it out). */
  tokenTtl?: number;
  /**
   * Called with every request the server answers (method, target, headers, body, transport, arrival time, status),
   * as `conform check-client` records a client. Default: nothing is recorded.
   */
  onExchange?: ExchangeListener;
  /**
   * Refusals of signed requests say what the server rebuilt (the message or base string, never a secret) and the
   * common mistake that explains the client's digest, as `conform serve --diagnose`. Default false.
   */
  diagnose?: boolean;
  /** Clock of the server (the Date window, token expiry, recorded arrival times). Default: the system clock. */
  now?: () => Date;
  /**
   * Whether signed PUT and POST requests carry the body hash (docs/auth.md): `true` (required), `false` (never), or
   * `'optional'` (either is accepted). Default: true, as the bundled profile declares.
   */
  bodyHash?: boolean | 'optional';
  /** OAuth 1 requests may also be signed with PLAINTEXT over TLS (RFC 5849 §3.4.4). Default: false, HMAC-SHA1 only. */
  oauth1Plaintext?: boolean;
}

/** A running reference server. */
export interface StartedReferenceServer {
  /** Plain-HTTP base URL, e.g. `http://127.0.0.1:43211`. */
  url: string;
  /** TLS base URL, unless `httpsPort: false`. */
  httpsUrl?: string;
  /** PEM certificate of the TLS listener, for clients to trust (e.g. undici's `connect: { ca }`). */
  certificate?: string;
  /** The bundled profile with the variants applied and the server's URLs and token lifetime filled in. */
  profile: ResolvedProfile;
  /** Stops both listeners and closes every connection. Safe to call twice. */
  close(): Promise<void>;
}

/** Starts the bundled reference server in this process; see {@link ReferenceServerOptions} for the defaults. */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<StartedReferenceServer> {
  const variants = parseVariantNames([...(options.variants ?? [])]);
  const faults = parseFaultNames([...(options.faults ?? [])]);
  const tokenTtl = options.tokenTtl ?? EMBEDDED_TOKEN_TTL;
  const base = loadVariantProfile(bundledPaths().profile, variants);
  const server = await startServer({
    port: options.port ?? 0,
    ...(options.httpsPort === false ? {} : { httpsPort: options.httpsPort ?? 0 }),
    tokenTtl,
    faults,
    variants,
    ...(options.onExchange === undefined ? {} : { onExchange: options.onExchange }),
    ...(options.diagnose === undefined ? {} : { diagnose: options.diagnose }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.bodyHash === undefined ? {} : { bodyHash: options.bodyHash }),
    ...(options.oauth1Plaintext === undefined ? {} : { oauth1Plaintext: options.oauth1Plaintext }),
  });
  return {
    url: server.url,
    ...(server.httpsUrl !== undefined ? { httpsUrl: server.httpsUrl } : {}),
    ...(server.certificate !== undefined ? { certificate: server.certificate } : {}),
    profile: embeddedProfile(base, server, tokenTtl),
    close: () => server.close(),
  };
}
