/**
 * The transaction core without Redis: handleShared over an in-memory store that applies a commit plan as the Lua
 * script does (conditions and capacities first, then every write, or nothing). Two "instances" (two contexts with
 * their own local state) share it. test/redis-store.test.ts runs the same against a real redis-server.
 */
import { describe, expect, it } from 'vitest';
import type { SignedHeaders } from '../../auth/sign.js';
import type { HeaderMap, RequestRecord } from '../../records.js';
import { articleXml, testServer, text, type TestServer } from '../../../testkit/index.js';
import { encodeCommit } from './commit.js';
import { keyLayout } from './keys.js';
import { SharedStoreError, type SharedStore } from './redis.js';
import { handleShared, replayed, type SharedContext } from './shared-handler.js';
import type { CommitPlan, Snapshot, Wants } from './tx.js';

interface MemoryStore extends SharedStore {
  values: Map<string, { value: string; until?: number }>;
  commits: number;
  /** Runs once, just before the next commit is applied (another instance's write racing this one). */
  beforeCommit?: () => void;
  down: boolean;
}

function memoryStore(now: () => number): MemoryStore {
  const values = new Map<string, { value: string; until?: number }>();
  const sets = new Map<string, Map<string, number>>();
  const get = (key: string) => {
    const e = values.get(key);
    if (e?.until !== undefined && e.until <= now()) values.delete(key);
    return values.get(key)?.value ?? null;
  };
  const index = (key: string) => {
    let s = sets.get(key);
    if (!s) sets.set(key, (s = new Map()));
    for (const [m, score] of s) if (score <= now()) s.delete(m);
    return s;
  };
  const store: MemoryStore = {
    values,
    commits: 0,
    down: false,
    fetch: (wants: Wants, nowMs: number): Promise<Snapshot> => {
      if (store.down) return Promise.reject(new SharedStoreError('down'));
      const out: Snapshot = { values: new Map(), counts: new Map(), members: new Map() };
      for (const k of wants.keys) out.values.set(k, get(k));
      for (const [k] of wants.counts) {
        const scores = [...index(k).values()].filter((s) => s > nowMs);
        out.counts.set(
          k,
          scores.length === 0 ? { size: index(k).size } : { size: scores.length, oldest: Math.min(...scores) },
        );
      }
      for (const [k] of wants.members) out.members.set(k, [...index(k).keys()]);
      return Promise.resolve(out);
    },
    commit: (plan: CommitPlan): Promise<string[]> => {
      if (store.down) return Promise.reject(new SharedStoreError('down'));
      const race = store.beforeCommit;
      store.beforeCommit = undefined;
      race?.();
      const failed = plan.conditions.filter((c) => get(c.key) !== c.value).map((c) => c.key);
      failed.push(
        ...plan.capacities.filter((c) => index(c.index).size + c.delta > c.limit).map((c) => `index:${c.index}`),
      );
      if (failed.length > 0) return Promise.resolve(failed);
      store.commits++;
      for (const w of plan.writes) {
        if (w.value === null) values.delete(w.key);
        else values.set(w.key, { value: w.value, ...(w.pxMs ? { until: now() + w.pxMs } : {}) });
        if (w.index?.op === 'add') index(w.index.key).set(w.index.member, w.index.score ?? Infinity);
        if (w.index?.op === 'remove') index(w.index.key).delete(w.index.member);
      }
      return Promise.resolve([]);
    },
    close: () => Promise.resolve(),
  };
  return store;
}

function request(
  method: string,
  target: string,
  headers: HeaderMap | SignedHeaders = {},
  body = '',
  secure = false,
): RequestRecord {
  const q = target.indexOf('?');
  return {
    method,
    path: q < 0 ? target : target.slice(0, q),
    query: q < 0 ? '' : target.slice(q + 1),
    target,
    headers: { ...headers },
    body: new TextEncoder().encode(body),
    secure,
  };
}

/** Two instances on one store; both use the first instance's clock. */
function cluster(options: Parameters<typeof testServer>[0] = {}): {
  a: TestServer;
  ctx: [SharedContext, SharedContext];
  store: MemoryStore;
} {
  const a = testServer(options);
  const b = testServer(options);
  const store = memoryStore(() => a.clock.now().getTime());
  const ctx = (t: TestServer, n: number): SharedContext => ({
    store,
    layout: keyLayout('t', n, t.deps.faults),
    local: t.state,
    log: () => {},
  });
  return { a, ctx: [ctx(a, 1), ctx(b, 2)], store };
}

describe('handleShared over an in-memory store', () => {
  const records = '/users/alice/financialrecords';

  it('accepts a nonce once across instances', async () => {
    const { a, ctx } = cluster();
    const headers = a.sign('GET', records, { nonce: '1234' });
    expect((await handleShared(request('GET', records, headers), ctx[0], a.deps)).status).toBe(200);
    expect((await handleShared(request('GET', records, headers), ctx[1], a.deps)).status).toBe(401);
  });

  it('refuses as a replay when another instance stores the nonce between read and commit', async () => {
    const { a, ctx, store } = cluster();
    const headers = a.sign('GET', records, { nonce: '777' });
    store.beforeCommit = () => {
      const key = keyLayout('t', 1, new Set()).nonce('alice', '777');
      store.values.set(key, { value: '1' });
    };
    const answer = await handleShared(request('GET', records, headers), ctx[0], a.deps);
    expect(answer.status).toBe(401);
    expect(store.commits).toBe(0);
  });

  it('re-reads an article another instance replaced meanwhile, and answers as a replace', async () => {
    const { a, ctx, store } = cluster({ signAs: null });
    const path = '/articles/x';
    const put = (title: string) =>
      request('PUT', path, a.sign('PUT', path, { body: articleXml({ title }) }), articleXml({ title }));
    store.beforeCommit = () =>
      void store.values.set(keyLayout('t', 1, new Set()).article('x'), {
        value: JSON.stringify({ t: 'other', p: '1.00', c: 'eur' }),
      });
    expect((await handleShared(put('mine'), ctx[0], a.deps)).status).toBe(200);
    expect(text(await handleShared(request('GET', path), ctx[1], a.deps))).toContain('<title>mine</title>');
  });

  it('creates with POST (drawing the same id on every pass) and keeps --max-articles across instances', async () => {
    const { a, ctx } = cluster({ signAs: null, maxArticles: 1, newId: () => Math.random().toString(16).slice(2) });
    const body = articleXml();
    const post = () => request('POST', '/articles', a.sign('POST', '/articles', { body }), body);
    const created = await handleShared(post(), ctx[0], a.deps);
    expect(created.status).toBe(201);
    expect((await handleShared(request('GET', String(created.headers['location'])), ctx[1], a.deps)).status).toBe(200);
    expect((await handleShared(post(), ctx[1], a.deps)).status).toBe(507);
  });

  it('shares OAuth 2 tokens and their revocation', async () => {
    const { a, ctx } = cluster({ signAs: null });
    const client = {
      authorization: `Basic ${Buffer.from('reporting:rep-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    };
    const issued = await handleShared(
      request('POST', '/oauth2/token', client, 'grant_type=client_credentials', true),
      ctx[0],
      a.deps,
    );
    const token = (JSON.parse(text(issued)) as { access_token: string }).access_token;
    const use = (n: 0 | 1) =>
      handleShared(request('GET', records, { authorization: `Bearer ${token}` }, '', true), ctx[n], a.deps);
    expect((await use(1)).status).toBe(200);
    expect(
      (await handleShared(request('POST', '/oauth2/revoke', client, `token=${token}`, true), ctx[1], a.deps)).status,
    ).toBe(200);
    expect((await use(0)).status).toBe(401);
  });

  it('answers 503 and stores nothing when the store is down', async () => {
    const { a, ctx, store } = cluster({ signAs: null });
    store.down = true;
    const path = '/articles/y';
    const answer = await handleShared(
      request('PUT', path, a.sign('PUT', path, { body: articleXml() }), articleXml()),
      ctx[0],
      a.deps,
    );
    expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
    expect(store.values.size).toBe(0);
  });

  it('keys data per instance under the cluster faults', () => {
    const shared = keyLayout('c', 2, new Set());
    const own = keyLayout('c', 2, new Set(['nonce-per-instance', 'tokens-per-instance', 'articles-per-instance']));
    expect([shared.article('a'), shared.nonce('oauth1:k', 'n'), shared.credential('oauth2-token', 't')]).toEqual([
      '{c}:article:a',
      '{c}:nonce:oauth1%3Ak:n',
      '{c}:oauth2-token:t',
    ]);
    expect([own.article('a'), own.nonce('u', 'n'), own.credentialIndex('oauth1-token')]).toEqual([
      '{c}:i2:article:a',
      '{c}:i2:nonce:u:n',
      '{c}:i2:index:oauth1-token',
    ]);
  });
});

describe('encodeCommit and replayed', () => {
  it('names each key once in KEYS and refers to it by position', () => {
    const plan: CommitPlan = {
      nowMs: 5,
      conditions: [{ key: 'k1', value: null }],
      capacities: [{ index: 'ix', kind: 'set', limit: 10, delta: 1 }],
      writes: [{ key: 'k1', value: 'v', pxMs: 100, index: { key: 'ix', kind: 'set', op: 'add', member: 'm' } }],
    };
    expect(encodeCommit(plan)).toEqual({
      keys: ['k1', 'ix'],
      args: ['5', '1', '1', '0', '', '1', '2', 's', '10', '1', '1', '1', '1', 'v', '100', '2', 's', 'a', 'm', '+inf'],
    });
  });

  it('gives the same draws after a rewind, and fresh ones beyond them', () => {
    let n = 0;
    const r = replayed(() => ++n);
    expect([r.draw(), r.draw()]).toEqual([1, 2]);
    r.rewind();
    expect([r.draw(), r.draw(), r.draw()]).toEqual([1, 2, 3]);
  });
});
