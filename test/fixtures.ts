/**
 * Vitest fixtures for the end-to-end tests (`import { it } from './fixtures.js'`): `tempDir` and `fileTempDir`
 * (temp-dir.ts), and `startReference`, which starts reference servers that are closed after the test. And
 * `signedHeaders`: a request's credentials as the harness's own authenticator makes them.
 */
import { createAuthenticator, type Authenticator } from '../harness/src/auth/authenticator.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import type { RunningServer } from '../reference-server/src/index.js';
import { REFERENCE_PROFILE, startReferenceServer, type ReferenceOptions } from './helpers.js';
import { test as withTempDirs } from './temp-dir.js';

/** Starts a reference server that the fixture closes after the test. */
export type StartReference = (options?: ReferenceOptions) => Promise<RunningServer>;

/**
 * `test` with the temporary directories and `startReference(options?)`: a reference server on 127.0.0.1 with both
 * listeners on free ports (helpers.ts `startReferenceServer`); every one the test starts is closed after it (after
 * the `afterEach` hooks, before its temporary directory goes).
 */
export const test = withTempDirs.extend('startReference', async ({}, { onCleanup }) => {
  const started: RunningServer[] = [];
  onCleanup(async () => {
    await Promise.all(started.map((s) => s.close()));
  });
  const start: StartReference = async (options = {}) => {
    const server = await startReferenceServer(options);
    started.push(server);
    return server;
  };
  return start;
});

export const it = test;

/** A request for {@link signedHeaders}. */
export interface SignedRequest {
  method: string;
  /** Request-target (path plus `?query`) or a whole URL: the path and query are what is signed. */
  target: string;
  body?: string;
}

/** How {@link signedHeaders} authenticates. Defaults: the date-and-nonce form, as alice. */
export interface SignOptions {
  scheme?: 'basic' | 'hmac' | 'hmac-nonce';
  /** A user of the reference profile. */
  user?: string;
}

let authenticator: Authenticator | undefined;

/**
 * The headers of `request` with credentials for the reference server, made by the harness's own authenticator
 * from the reference profile: a fresh nonce and the current Date for the date-and-nonce form, the body hash for PUT
 * and POST, and `content-type: application/xml` when there is a body. Throws when the profile cannot sign it.
 */
export function signedHeaders(request: SignedRequest, options: SignOptions = {}): Record<string, string> {
  authenticator ??= createAuthenticator({ profile: loadProfileSync(REFERENCE_PROFILE) });
  const body = request.body ?? '';
  const headers: Record<string, string> = body === '' ? {} : { 'content-type': 'application/xml' };
  const url = new URL(request.target, 'http://127.0.0.1').href;
  const signed = authenticator.apply(
    { method: request.method, url, headers, ...(body === '' ? {} : { body }) },
    options.scheme ?? 'hmac-nonce',
    options.user ?? 'alice',
  );
  if (!signed.ok) throw new Error(signed.reason);
  // The authenticator writes one line per field; only a scenario's own headers can be lists.
  return Object.fromEntries(Object.entries(signed.request.headers).map(([k, v]) => [k, [v].flat().join(', ')]));
}
