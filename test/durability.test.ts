/**
 * Durability of `conform serve --data DIR`: the server is a real process, killed with SIGKILL in the middle of a
 * burst of signed writes (PUT create and replace, POST, DELETE), then started again on the same directory. Every
 * acknowledged write must be there (or a later write of the same key), every acknowledged delete gone, and every
 * acknowledged signed request, replayed byte for byte inside its Date window, refused as a replay. The two restart
 * faults show that the checks can fail.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { afterEach, describe, expect } from 'vitest';
import { it, signedHeaders } from './fixtures.js';
import { ROOT } from './helpers.js';

interface Child {
  url: string;
  process: ChildProcessByStdio<null, Readable, Readable>;
  stderr: () => string;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** `conform serve --data dir` as a child process; resolves with its URL once it listens (at most 15 s). */
async function serve(dir: string, faults: string[] = []): Promise<Child> {
  const args = [
    path.join(ROOT, 'bin', 'conform.js'),
    'serve',
    '--port',
    '0',
    '--https-port',
    'off',
    '--data',
    dir,
    '--quiet',
    ...faults.flatMap((f) => ['--fault', f]),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => stop(child));
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`conform serve did not start within 15 s: ${err}`)), 15_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`conform serve exited with ${code}: ${err}`));
    });
  });
  return { url, process: child, stderr: () => err };
}

function stop(child: ChildProcessByStdio<null, Readable, Readable>, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

interface Sent {
  method: 'PUT' | 'POST' | 'DELETE' | 'GET';
  target: string;
  body: string;
  headers: Record<string, string>;
}

/** One request of the burst and its answer; `status` is undefined when no answer came (the server was killed). */
interface Op {
  worker: number;
  sent: Sent;
  status?: number;
  location?: string;
}

/** The state a key should be in after `op`: a title version, or absent. */
function outcome(op: Op): number | 'absent' {
  return op.sent.method === 'DELETE' ? 'absent' : Number(/ v(\d+)</.exec(op.sent.body)![1]);
}

/** A write signed in the date-and-nonce form as alice (a fresh nonce each). */
function signed(method: 'PUT' | 'POST' | 'DELETE', target: string, body = ''): Sent {
  return { method, target, body, headers: signedHeaders({ method, target, body }) };
}

function article(title: string): string {
  return `<article><title>${title}</title><price currency="eur">1.50</price></article>`;
}

async function send(
  dispatcher: Agent,
  base: string,
  s: Sent,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const res = await request(new URL(s.target, base), {
    method: s.method,
    headers: s.headers,
    ...(s.body === '' ? {} : { body: s.body }),
    dispatcher,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/**
 * Workers send signed writes until the server is killed: each worker creates and replaces its own four keys in
 * turn (titles carry a version), creates with POST, and deletes its keys. The server gets SIGKILL once
 * `killAfter` writes were answered, while the workers keep sending. Bounded: at most `perWorker` requests a worker.
 * @returns every request sent, answered or not, in each worker's order.
 */
async function burst(child: Child, killAfter: number, workers = 12, perWorker = 2000): Promise<Op[]> {
  const ops: Op[] = [];
  let answered = 0;
  const dispatcher = new Agent({ connections: workers, pipelining: 1 });
  const worker = async (w: number) => {
    for (let i = 0; i < perWorker; i++) {
      const kind = i % 5;
      const sent =
        kind === 3
          ? signed('POST', '/articles', article(`post w${w} v${i}`))
          : kind === 4
            ? signed('DELETE', `/articles/w${w}-k${(i + 1) % 4}`)
            : signed('PUT', `/articles/w${w}-k${i % 4}`, article(`w${w} v${i}`));
      const op: Op = { worker: w, sent };
      ops.push(op);
      let res;
      try {
        res = await send(dispatcher, child.url, sent);
      } catch {
        return; // the server is gone: this request has no answer
      }
      const expected = sent.method === 'DELETE' ? [204, 404] : sent.method === 'POST' ? [201] : [200, 201];
      if (!expected.includes(res.status))
        throw new Error(`unexpected ${res.status} for ${sent.method} ${sent.target}: ${res.text}`);
      op.status = res.status;
      if (typeof res.headers.location === 'string') op.location = res.headers.location;
      if (++answered === killAfter) child.process.kill('SIGKILL');
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  await stop(child.process, 'SIGKILL');
  await dispatcher.close();
  return ops;
}

/**
 * Keys whose state after the restart breaks a promise: a key must hold the outcome of its last answered write, or
 * of its worker's one unanswered request (which may have become durable without its answer getting out).
 */
async function brokenPromises(ops: readonly Op[], base: string, dispatcher: Agent): Promise<string[]> {
  const broken: string[] = [];
  const allowed = new Map<string, Set<number | 'absent'>>();
  for (const op of ops) {
    if (op.sent.method === 'POST' || op.status === undefined) continue;
    allowed.set(op.sent.target, new Set([outcome(op)]));
  }
  for (const op of ops)
    if (op.status === undefined && op.sent.method !== 'POST') allowed.get(op.sent.target)?.add(outcome(op));
  for (const [target, states] of allowed) {
    const res = await send(dispatcher, base, get(target));
    const state = res.status === 404 ? 'absent' : Number(/ v(\d+)</.exec(res.text)?.[1] ?? -1);
    if (!states.has(state)) broken.push(`${target}: ${state}, expected one of ${[...states].join(', ')}`);
  }
  for (const op of ops) {
    if (op.sent.method !== 'POST' || op.status === undefined) continue;
    const res = await send(dispatcher, base, get(op.location!));
    if (res.status !== 200 || !res.text.includes(/<title>[^<]*</.exec(op.sent.body)![0]))
      broken.push(`${op.location}: ${res.status}`);
  }
  return broken;
}

function get(target: string): Sent {
  return { method: 'GET', target, body: '', headers: {} };
}

/** Each answered request sent again, byte for byte, with the status it gets now. */
async function replay(
  ops: readonly Op[],
  base: string,
  dispatcher: Agent,
): Promise<{ target: string; status: number }[]> {
  const answered = ops.filter((op) => op.status !== undefined);
  return Promise.all(
    answered.map(async (op) => ({
      target: `${op.sent.method} ${op.sent.target}`,
      status: (await send(dispatcher, base, op.sent)).status,
    })),
  );
}

function agent(): Agent {
  const dispatcher = new Agent({ connections: 8 });
  cleanups.push(() => dispatcher.close());
  return dispatcher;
}

describe('conform serve --data: kill -9 during a burst of writes', () => {
  it('loses no acknowledged write and refuses every acknowledged nonce after the restart', async ({ tempDir: dir }) => {
    const ops = await burst(await serve(dir), 300);
    expect(ops.filter((op) => op.status !== undefined).length).toBeGreaterThanOrEqual(300);
    expect(
      ops.some((op) => op.status === undefined),
      'the kill came while requests were in flight',
    ).toBe(true);

    const again = await serve(dir);
    const dispatcher = agent();
    expect(await brokenPromises(ops, again.url, dispatcher)).toEqual([]);
    expect((await replay(ops, again.url, dispatcher)).filter((r) => r.status !== 401)).toEqual([]);
  });

  it('journal-on-exit (answers before writing) is caught: acknowledged writes are lost', async ({ tempDir: dir }) => {
    const ops = await burst(await serve(dir, ['journal-on-exit']), 100);
    const again = await serve(dir);
    expect((await brokenPromises(ops, again.url, agent())).length).toBeGreaterThan(0);
  });

  it('nonces-not-journaled is caught: a replay after the restart is accepted', async ({ tempDir: dir }) => {
    const ops = await burst(await serve(dir, ['nonces-not-journaled']), 100);
    const again = await serve(dir);
    const dispatcher = agent();
    expect(await brokenPromises(ops, again.url, dispatcher)).toEqual([]);
    expect((await replay(ops, again.url, dispatcher)).filter((r) => r.status !== 401).length).toBeGreaterThan(0);
  });
});
