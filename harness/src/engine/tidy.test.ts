import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest } from '../http/client.js';
import { loadProfileSync } from '../profile/load.js';
import { recordingClient } from '../runner/cleanup.js';
import type { ExecDeps } from '../runner/exec-types.js';
import { createRedactor } from '../runner/redact.js';
import type { ScenarioResult } from '../runner/types.js';
import { createTidy } from './tidy.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const loaded = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
// A DELETE without credentials, so the fake target below needs no signer.
const profile = { ...loaded, articles: { ...loaded.articles, writeAuth: false, deletable: true } };
const base = 'http://127.0.0.1:8080';
const bases = { primary: base };
const answer = (status: number) => ({ status, headers: {}, body: new Uint8Array(), durationMs: 1 });

/** A target that takes every PUT (201) and DELETE (204), noting the DELETEs it was sent. */
function fakeTarget(deleted: string[]): HttpClient {
  const client: HttpClient = {
    send: (r: HttpRequest) => {
      if (r.method === 'DELETE') deleted.push(new URL(r.url).pathname);
      return Promise.resolve({ ok: true as const, response: answer(r.method === 'DELETE' ? 204 : 201) });
    },
    session: () => client,
    close: () => Promise.resolve(),
  };
  return client;
}

function setUp(keepFailed: boolean) {
  const deleted: string[] = [];
  const target = fakeTarget(deleted);
  const own = () => {
    const client = recordingClient(target, tidy.ledger, 999);
    const deps = {
      client,
      bases,
      profile,
      redactor: createRedactor([], []),
      authenticator: createAuthenticator({ profile }),
      uniq: () => 'x',
      seed: 1,
    } as ExecDeps;
    return { deps, close: () => Promise.resolve() };
  };
  const tidy = createTidy(profile, bases, keepFailed, own);
  const put = (slug: string, owner: number) =>
    recordingClient(target, tidy.ledger, owner).send({ method: 'PUT', url: `${base}/articles/${slug}`, headers: {} });
  return { tidy, deleted, put };
}

const result = (status: 'passed' | 'failed', id: string, urls: string[]) =>
  ({
    id,
    status,
    transcript: urls.map((u) => ({ step: 0, request: { method: 'PUT', url: `${base}${u}`, headers: {} } })),
  }) as unknown as ScenarioResult;

async function drain(tidy: ReturnType<typeof createTidy>): Promise<void> {
  for (let job = tidy.nextDeletion(); job !== undefined; job = tidy.nextDeletion()) await job();
}

describe('deleting as the run goes, and --keep-failed', () => {
  it("deletes an ended scenario's articles early, failed or not, without --keep-failed", async () => {
    const { tidy, deleted, put } = setUp(false);
    await put('a', 0);
    await put('b', 1);
    tidy.ended(0, result('passed', 'p', ['/articles/a']));
    tidy.ended(1, result('failed', 'f', ['/articles/b']));
    await drain(tidy);
    expect(deleted).toEqual(['/articles/a', '/articles/b']);
    const done = await tidy.finish({});
    expect(done).toEqual({ left: [], cleanup: { created: 2, deleted: 2 } });
  });

  it("with --keep-failed, never deletes a failed or errored scenario's articles before the end, and keeps what its reported run made", async () => {
    const { tidy, deleted, put } = setUp(true);
    await put('a', 0);
    await put('b', 1);
    await put('b-earlier-run', 1);
    await put('c', 2);
    tidy.ended(0, result('passed', 'p', ['/articles/a']));
    tidy.ended(1, result('failed', 'f', ['/articles/b']));
    // A scenario that threw: not known to have passed, so it waits for the end too (and is not kept).
    tidy.ended(2, undefined);
    await drain(tidy);
    expect(deleted).toEqual(['/articles/a']);
    // A request of the failed scenario still in flight when it ended: not deleted early either.
    await put('b-late', 1);
    await drain(tidy);
    expect(deleted).toEqual(['/articles/a']);
    const done = await tidy.finish({});
    expect(done.keptFailed).toEqual({ f: ['/articles/b'] });
    expect(done.left).toEqual(['/articles/b']);
    expect(deleted.sort()).toEqual(['/articles/a', '/articles/b-earlier-run', '/articles/b-late', '/articles/c']);
    expect(done.cleanup).toEqual({ created: 5, deleted: 4 });
  });
});
