import { open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, vi } from 'vitest';
import { it } from '../../../test/temp-dir.js';
import { createState } from '../handle.js';
import { startServer } from '../server.js';
import type { RunningServer, ServerOptions } from '../server.js';
import { articleXml, signAs } from '../../testkit/index.js';
import { encodeChange } from './changes.js';
import { DataDirInUseError, JOURNAL_FILE, JournalCorruptError, openJournal } from './journal.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function start(options: ServerOptions): Promise<RunningServer> {
  const server = await startServer({ port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

/** A settable clock shared by restarts. */
function clock(start = Date.parse('2026-01-01T00:00:00Z')): { now: () => Date; advance: (s: number) => void } {
  let ms = start;
  return { now: () => new Date(ms), advance: (s) => void (ms += s * 1000) };
}

async function send(
  server: RunningServer,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; text: string }> {
  const res = await request(server.url + target, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: res.statusCode, text: await res.body.text() };
}

function signed(method: string, now: Date, nonce: string, target: string, body: string): Record<string, string> {
  const auth = signAs({ method, target, body, nonce, date: now });
  return { authentication: auth.authentication, date: auth.date!, 'content-type': 'application/xml' };
}

describe('--data journal (in-process restarts)', () => {
  it('keeps articles and live nonces across a clean restart, and forgets nonces once their window has passed', async ({
    tempDir: dir,
  }) => {
    const time = clock();
    const body = articleXml({ title: 'kept' });
    const headers = signed('PUT', time.now(), '123', '/articles/a', body);
    const first = await startServer({ port: 0, dataDir: dir, now: time.now });
    expect((await send(first, 'PUT', '/articles/a', headers, body)).status).toBe(201);
    const missing = signed('DELETE', time.now(), '124', '/articles/gone', '');
    expect((await send(first, 'DELETE', '/articles/gone', missing)).status).toBe(404); // its nonce is used all the same
    await first.close();

    const second = await start({ dataDir: dir, now: time.now });
    expect(await send(second, 'GET', '/articles/a')).toMatchObject({
      status: 200,
      text: expect.stringContaining('<title>kept</title>'),
    });
    expect((await send(second, 'PUT', '/articles/a', headers, body)).status).toBe(401);
    expect((await send(second, 'DELETE', '/articles/gone', missing)).status).toBe(401);
    expect(second.nonceCount()).toBe(2);
    await second.close();

    // 600 s window: the nonce is kept until Date + 600 s; past that, the restart drops it (and the Date is stale anyway).
    time.advance(601);
    const third = await start({ dataDir: dir, now: time.now });
    expect(third.nonceCount()).toBe(0);
    expect((await send(third, 'GET', '/articles/a')).status).toBe(200);
    await third.close();
    const lines = (await readFile(path.join(dir, JOURNAL_FILE), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1); // the restart rewrote the journal as a snapshot: one article, no nonce
  });

  it('compacts the journal as it grows, so the disk use follows the live state', async ({ tempDir: dir }) => {
    const state = createState({ maxArticles: 10, maxBodyBytes: 1000 }, {}, (change) => journal.append(change));
    const logged: string[] = [];
    const journal = await openJournal(dir, state, {
      nowMs: () => 0,
      log: (l) => logged.push(l),
      compactAfterBytes: 4096,
    });
    for (let i = 0; i < 1000; i++) {
      state.store.set(`k${i % 5}`, { title: `t${i}`, price: '1.00', currency: 'eur' });
      if (i % 10 === 9) await journal.commit();
    }
    await journal.commit();
    await journal.close();
    const lines = (await readFile(path.join(dir, JOURNAL_FILE), 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(5 + 100);
    expect(logged.some((l) => l.includes('compacted'))).toBe(true);
    const again = createState({ maxArticles: 10, maxBodyBytes: 1000 });
    const reopened = await openJournal(dir, again, { nowMs: () => 0, log: () => {} });
    cleanups.push(() => reopened.close());
    expect([...again.store.keys()].map((k) => again.store.get(k)!.title)).toEqual([
      't995',
      't996',
      't997',
      't998',
      't999',
    ]);
  });

  it('drops a torn last line, and refuses a journal damaged in the middle (releasing the directory)', async ({
    tempDir: dir,
  }) => {
    const line = encodeChange({
      kind: 'article-set',
      key: 'a',
      article: { title: 'x', price: '1.0', currency: 'eur' },
      generated: false,
    });
    await writeFile(path.join(dir, JOURNAL_FILE), line + line.slice(0, 20));
    const logged: string[] = [];
    const state = createState({ maxArticles: 10, maxBodyBytes: 1000 });
    const journal = await openJournal(dir, state, { nowMs: () => 0, log: (l) => logged.push(l) });
    expect(state.store.get('a')?.title).toBe('x');
    expect(logged.join()).toMatch(/incomplete last line/);
    await journal.close();

    await writeFile(path.join(dir, JOURNAL_FILE), line + line.replace('"x"', '"y"') + line);
    await expect(
      openJournal(dir, createState({ maxArticles: 10, maxBodyBytes: 1000 }), { nowMs: () => 0, log: () => {} }),
    ).rejects.toThrow(JournalCorruptError);
    await writeFile(path.join(dir, JOURNAL_FILE), line);
    const fine = await openJournal(dir, createState({ maxArticles: 10, maxBodyBytes: 1000 }), {
      nowMs: () => 0,
      log: () => {},
    });
    await fine.close();
  });

  it('answers 503 to everything, acknowledging nothing, once the journal cannot be written (a full disk)', async ({
    tempDir: dir,
  }) => {
    const logged: string[] = [];
    const server = await start({ dataDir: dir, log: (l) => logged.push(l) });
    const body = articleXml({ title: 'never acknowledged' });
    const auth = signAs({ method: 'PUT', target: '/articles/full', body });
    const probe = await open(path.join(dir, 'probe'), 'w');
    const fileHandle = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const full = vi
      .spyOn(fileHandle, 'datasync')
      .mockRejectedValue(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    try {
      const put = await send(server, 'PUT', '/articles/full', { ...auth, 'content-type': 'application/xml' }, body);
      expect(put.status).toBe(503);
      expect(put.text).toMatch(/data directory cannot be written/);
      expect((await send(server, 'GET', '/articles/full')).status).toBe(503);
      expect(logged.join('\n')).toMatch(/journal write failed: ENOSPC/);
    } finally {
      full.mockRestore();
    }
  });

  it('refuses a data directory another server holds', async ({ tempDir: dir }) => {
    await start({ dataDir: dir });
    await expect(startServer({ port: 0, dataDir: dir })).rejects.toThrow(DataDirInUseError);
  });

  it('keeps articles beyond a lowered capacity rather than dropping them', async ({ tempDir: dir }) => {
    const first = await startServer({ port: 0, dataDir: dir });
    for (const id of ['a', 'b', 'c']) {
      const body = articleXml({ title: id });
      const auth = signAs({ method: 'PUT', target: `/articles/${id}`, body });
      expect(
        (await send(first, 'PUT', `/articles/${id}`, { ...auth, 'content-type': 'application/xml' }, body)).status,
      ).toBe(201);
    }
    await first.close();
    const second = await start({ dataDir: dir, maxArticles: 2 });
    for (const id of ['a', 'b', 'c']) expect((await send(second, 'GET', `/articles/${id}`)).status).toBe(200);
  });
});
