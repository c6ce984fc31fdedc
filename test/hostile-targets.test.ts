/**
 * Hostile targets: servers that never answer, stall, send endless or huge bodies, trickle, reset, speak garbage,
 * lie about Content-Length, redirect forever, fail the TLS handshake, or vanish mid-run. For each, the harness ends
 * the scenario as `errored` with a reason naming the cause (or `failed`, for a redirect it must not follow), moves
 * on to the next scenario, stays within its deadline and never crashes.
 */
import type { Socket } from 'node:net';
import { afterEach, describe, expect } from 'vitest';
import { createHttpClient } from '../harness/src/http/client.js';
import { exitCodeFor } from '../harness/src/engine/run-suite.js';
import type { RunResult, ScenarioResult } from '../harness/src/runner/types.js';
import type { RunningServer } from '../reference-server/src/index.js';
import { generateSelfSignedCertificate } from '../reference-server/src/tls/certificate.js';
import { runCli } from './cli-helpers.js';
import { REFERENCE_PROFILE } from './helpers.js';
import { it } from './fixtures.js';
import {
  closedPort,
  pumpForever,
  startHostile,
  startHostileTls,
  startRawTcp,
  type HostileServer,
  type Misbehaviour,
} from './hostile/servers.js';
import { runTimed } from './hostile/run.js';

const TIMEOUT = 300;
/** A POST-driven scenario first, then one that only needs OPTIONS (which the hostile servers answer properly). */
const FILTER = ['articles/post-create', 'options/collection-allow'];
const POST = 'articles/post-create';
const OPTS = 'options/collection-allow';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function hostile(misbehave: Misbehaviour, answerOptions = true): Promise<HostileServer> {
  const s = await startHostile(misbehave, { answerOptions });
  closers.push(() => s.close());
  return s;
}

function scenario(run: RunResult, id: string): ScenarioResult {
  const s = run.scenarios.find((x) => x.id === id);
  if (!s) throw new Error(`scenario ${id} not in the run: ${run.scenarios.map((x) => x.id).join(', ')}`);
  return s;
}

/**
 * A hang would be a run with no end: this bound (a slack of 20 s, far above any scheduling delay of a loaded machine,
 * far below the test's own timeout) tells a bounded run from one, without depending on how fast this run was.
 */
const SLACK_MS = 20_000;

/** Every selected scenario has a verdict; the count of requests bounds the wall time (a bound, not a benchmark). */
function expectBounded(run: RunResult, wallMs: number): void {
  expect(run.scenarios.length).toBeGreaterThanOrEqual(2);
  for (const s of run.scenarios) expect(['passed', 'failed', 'errored', 'skipped']).toContain(s.status);
  const requests = run.scenarios.reduce((n, s) => n + s.requests, 0) + 1; // + the reachability probe
  expect(wallMs).toBeLessThan(TIMEOUT * requests + SLACK_MS);
}

/** The POST scenario errored on its first request with a reason matching `reason`; the OPTIONS one still passed. */
function expectErroredThenMovedOn(run: RunResult, reason: RegExp): void {
  expect(run.unreachable).toBeUndefined();
  const post = scenario(run, POST);
  expect(post.status, JSON.stringify(post)).toBe('errored');
  expect(post.reason).toMatch(reason);
  expect(post.reason).toMatch(/^POST \/articles: /);
  // A transport error stops the property: no further runs or shrinking against a misbehaving target.
  expect(post.requests).toBe(1);
  expect(post.transcript[0]?.error).toBeDefined();
  expect(scenario(run, OPTS).status).toBe('passed');
  expect(exitCodeFor(run, false)).toBe(1);
}

describe('hostile targets: the harness errors, moves on, and never hangs', () => {
  it('(1) nothing listens: unreachable, every scenario errored, exit code 3 (in-process and through the CLI)', async ({
    tempDir,
  }) => {
    const port = await closedPort();
    const { run, wallMs } = await runTimed(`http://127.0.0.1:${port}`, { filter: FILTER, timeoutMs: TIMEOUT });
    expect(run.unreachable).toMatch(/refused/);
    for (const s of run.scenarios) {
      expect(s.status).toBe('errored');
      expect(s.reason).toMatch(/target unreachable: .*connection refused/);
      expect(s.requests).toBe(0);
    }
    expect(exitCodeFor(run, false)).toBe(3);
    expectBounded(run, wallMs);

    const cli = await runCli(tempDir, [
      'run',
      '--target',
      `http://127.0.0.1:${port}`,
      '--profile',
      REFERENCE_PROFILE,
      '--filter',
      POST,
      '--runs',
      '2',
      '--report-dir',
      'r',
    ]);
    expect(cli.code, cli.err + cli.out).toBe(3);
    expect(cli.out + cli.err).toMatch(/unreachable/i);
  });

  it('(2) accepts the connection and never answers: TIMEOUT, then the next scenario runs', async () => {
    const s = await hostile(() => {});
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /within \d+ ms/);
    expect(scenario(run, POST).transcript[0]?.error?.code).toBe('TIMEOUT');
    expectBounded(run, wallMs);
  });

  it('(2b) never answers even the reachability probe: unreachable with a timeout reason, exit 3, promptly', async () => {
    const s = await hostile(() => {}, false);
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expect(run.unreachable).toMatch(/within \d+ ms/);
    for (const x of run.scenarios) expect(x.status).toBe('errored');
    expect(exitCodeFor(run, false)).toBe(3);
    expect(wallMs).toBeLessThan(TIMEOUT + SLACK_MS);
  });

  it('(3) sends the status line, then stalls: TIMEOUT', async () => {
    const s = await hostile(({ socket }) => socket.write('HTTP/1.1 201 Created\r\n'));
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /within \d+ ms/);
    expectBounded(run, wallMs);
  });

  it('(3b) sends the headers and part of the body, then stalls: TIMEOUT (the body did not finish)', async () => {
    const s = await hostile(({ socket }) =>
      socket.write('HTTP/1.1 201 Created\r\nLocation: /articles/1\r\nContent-Length: 100\r\n\r\nabc'),
    );
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /within \d+ ms/);
    expectBounded(run, wallMs);
  });

  it('(4) an endless chunked body: stopped at the response cap, with bounded memory', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const s = await hostile(({ socket }) => {
      socket.write('HTTP/1.1 201 Created\r\nLocation: /articles/1\r\nTransfer-Encoding: chunked\r\n\r\n');
      pumpForever(socket, chunk, 'chunked');
    });
    const heapBefore = process.memoryUsage().heapUsed;
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    const heapAfter = process.memoryUsage().heapUsed;
    expectErroredThenMovedOn(run, /larger than \d+ bytes|within \d+ ms/);
    expect(scenario(run, POST).transcript[0]?.error?.code).toBe('RESPONSE_TOO_LARGE');
    expect(heapAfter - heapBefore).toBeLessThan(50 * 1024 * 1024);
    expectBounded(run, wallMs);
  });

  it('(5) a declared Content-Length of 50 MB: RESPONSE_TOO_LARGE (default 1 MiB cap and a small one)', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'y');
    const s = await hostile(({ socket }) => {
      socket.write(`HTTP/1.1 201 Created\r\nLocation: /articles/1\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`);
      pumpForever(socket, chunk, 'raw');
    });
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /larger than 1048576 bytes/);
    expectBounded(run, wallMs);

    // A 2 KiB body past a 1 KiB cap, through a client of our own.
    const small = await hostile(({ respond }) => respond(201, { Location: '/articles/1' }, 'z'.repeat(2048)));
    const client = createHttpClient({ timeoutMs: TIMEOUT, maxResponseBytes: 1024 });
    closers.push(() => client.close());
    const sent = await client.send({ method: 'POST', url: `${small.url}/articles`, headers: {}, body: 'x' });
    expect(sent.ok).toBe(false);
    if (!sent.ok) {
      expect(sent.error.code).toBe('RESPONSE_TOO_LARGE');
      expect(sent.error.message).toMatch(/larger than 1024 bytes/);
    }
  });

  it('(6) a body that trickles one byte every 100 ms: TIMEOUT at the whole-request deadline', async () => {
    const s = await hostile(({ socket, every }) => {
      socket.write('HTTP/1.1 201 Created\r\nLocation: /articles/1\r\nContent-Length: 1000\r\n\r\n');
      every(100, () => socket.write('.'));
    });
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /within \d+ ms/);
    expect(scenario(run, POST).transcript[0]?.error?.code).toBe('TIMEOUT');
    expectBounded(run, wallMs);
  });

  it('(7) a connection reset in the middle of the body (RST): CONNECTION_RESET', async () => {
    const s = await hostile(({ socket }) => {
      socket.write('HTTP/1.1 201 Created\r\nLocation: /articles/1\r\nContent-Length: 1000\r\n\r\n0123456789', () => {
        setTimeout(() => socket.resetAndDestroy(), 20);
      });
    });
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /reset|closed/);
    expect(scenario(run, POST).transcript[0]?.error?.code).toBe('CONNECTION_RESET');
    expectBounded(run, wallMs);
  });

  it('(7b) the target closes the connection before any answer: CONNECTION_RESET', async () => {
    const s = await hostile(({ socket }) => socket.destroy());
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /reset|closed/);
    expectBounded(run, wallMs);
  });

  it('(8) garbage instead of HTTP: BAD_RESPONSE', async () => {
    const s = await hostile(({ socket }) => socket.write('hello\r\n\r\n'));
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /does not speak HTTP/);
    expect(scenario(run, POST).transcript[0]?.error?.code).toBe('BAD_RESPONSE');
    expectBounded(run, wallMs);
  });

  it('(8b) random bytes instead of HTTP: BAD_RESPONSE', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37 + 11) & 0xff));
    const s = await hostile(({ socket }) => socket.write(bytes));
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /does not speak HTTP/);
    expectBounded(run, wallMs);
  });

  it('(8c) not HTTP at all, even to the reachability probe (a banner): unreachable, nothing run, exit 3', async () => {
    const s = await hostile(({ socket }) => socket.write('SSH-2.0-OpenSSH_9.6\r\n'), false);
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expect(run.unreachable).toMatch(/does not speak HTTP/);
    for (const x of run.scenarios) {
      expect(x.status).toBe('errored');
      expect(x.reason).toMatch(/target unreachable: .*does not speak HTTP/);
      expect(x.requests).toBe(0);
    }
    expect(exitCodeFor(run, false)).toBe(3);
    expectBounded(run, wallMs);
  });

  it('(8d) broken HTTP to the reachability probe (a status line, then garbage): reached, errored, exit 1 not 3', async () => {
    const s = await hostile(({ socket }) => socket.write('HTTP/1.1 200 OK\r\nbroken header line\r\n\r\n'), false);
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    // Something answered in HTTP, badly: its answers are the target's, and judged.
    expect(run.unreachable).toBeUndefined();
    for (const x of run.scenarios) {
      expect(x.status).toBe('errored');
      expect(x.reason).toMatch(/not valid HTTP/);
    }
    expect(exitCodeFor(run, false)).toBe(1);
    expectBounded(run, wallMs);
  });

  it('(9) a Content-Length of 100 with 10 bytes, then end: errored', async () => {
    const s = await hostile(({ socket }) =>
      socket.end('HTTP/1.1 201 Created\r\nLocation: /articles/1\r\nContent-Length: 100\r\n\r\n0123456789'),
    );
    const { run, wallMs } = await runTimed(s.url, { filter: FILTER, timeoutMs: TIMEOUT });
    expectErroredThenMovedOn(run, /reset|closed|not valid HTTP/);
    expectBounded(run, wallMs);
  });

  it('(10) a redirect loop: not followed; the scenario fails on the 302, one request per execution', async () => {
    const s = await hostile(({ respond, request }) => respond(302, { Location: request.path }));
    let seenDuringPost = -1;
    const { run, wallMs } = await runTimed(s.url, {
      filter: FILTER,
      timeoutMs: TIMEOUT,
      // One scenario at a time, so the requests the server saw before the POST scenario ended are its own.
      concurrency: 1,
      onEvent: (e) => {
        if (e.type === 'scenario-end' && e.result.id === POST) seenDuringPost = s.requests.length;
      },
    });
    const post = scenario(run, POST);
    expect(post.status).toBe('failed');
    expect(post.reason).toMatch(/302/);
    // It fails at the first run ("runs" counts property runs, not the shrinking after); one step, one request per
    // execution, and the server saw exactly those.
    expect(post.runs).toBe(1);
    expect(post.requests).toBeGreaterThanOrEqual(post.runs);
    expect(post.transcript).toHaveLength(1);
    expect(post.transcript[0]?.response?.status).toBe(302);
    const duringPost = s.requests.slice(0, seenDuringPost);
    expect(duringPost.filter((r) => r.method === 'POST')).toHaveLength(post.requests);
    // Nothing but the probe, the credential check's GET of the records and the POSTs: the Location was never
    // requested (GET) by a redirect follower.
    expect(
      duringPost.every(
        (r) =>
          r.method === 'POST' ||
          (r.method === 'OPTIONS' && r.path === '/') ||
          (r.method === 'GET' && /^\/users\/[^/]+\/financialrecords$/.test(r.path)),
      ),
    ).toBe(true);
    expect(scenario(run, OPTS).status).toBe('passed');
    expectBounded(run, wallMs);
  });

  describe('(11) TLS handshake failures on the https base (the plain base is a working reference server)', () => {
    // Issue 26: each base URL is checked once before anything is sent; an https base that fails the handshake or
    // presents a certificate the run does not trust is "unreachable" for the whole run — one message naming it,
    // nothing judged (exit 3), instead of every TLS scenario erroring one by one.
    const TLS_FILTER = ['auth/basic-accepted', 'options/collection-allow'];

    /** A run whose plain base is the reference server's plain listener (its own TLS listener unused), its https base `httpsUrl`. */
    function runWithTlsBase(reference: RunningServer, httpsUrl: string) {
      return runTimed(reference.url, { filter: TLS_FILTER, timeoutMs: TIMEOUT, httpsUrl });
    }

    it.for([
      [
        'a plain TCP server (it answers the ClientHello with HTTP text) on the https base',
        (socket: Socket) => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'),
      ],
      ['a TCP server that accepts and closes at once on the https base', (socket: Socket) => socket.destroy()],
    ] as const)('%s', async ([, behave], { startReference }) => {
      const raw = await startRawTcp(behave);
      closers.push(() => raw.close());
      const httpsUrl = `https://127.0.0.1:${raw.port}`;
      const { run, wallMs } = await runWithTlsBase(await startReference(), httpsUrl);
      expect(run.unreachable).toMatch(new RegExp(`^${httpsUrl.replace(/[.]/g, '\\.')}: .*(TLS|reset|closed)`));
      for (const s of run.scenarios) {
        expect(s.status).toBe('errored');
        expect(s.requests).toBe(0);
      }
      expectBounded(run, wallMs);
    });

    it('a TLS server with a self-signed certificate the client does not trust', async ({ startReference }) => {
      const tlsServer = await startHostileTls(generateSelfSignedCertificate(), ({ respond }) => respond(200, {}, 'ok'));
      closers.push(() => tlsServer.close());
      const { run, wallMs } = await runWithTlsBase(await startReference(), tlsServer.url);
      expect(run.unreachable).toMatch(/TLS failure.*give --ca FILE to trust it, or --insecure/);
      expect(scenario(run, 'auth/basic-accepted').reason).toMatch(/target unreachable: .*TLS failure/);
      expect(tlsServer.requests).toHaveLength(0);
      expect(scenario(run, OPTS).status).toBe('errored');
      expectBounded(run, wallMs);
    });
  });

  it('(12) the target goes away after the first scenario: the rest are errored, exit code 1 (not 3)', async ({
    startReference,
  }) => {
    const reference = await startReference();
    let closing: Promise<void> | undefined;
    const { run, wallMs } = await runTimed(reference.url, {
      filter: FILTER,
      timeoutMs: TIMEOUT,
      // "After the first scenario" needs them one at a time.
      concurrency: 1,
      onEvent: (e) => {
        if (e.type === 'scenario-end' && e.index === 0) closing = reference.close();
      },
    });
    await closing;
    expect(run.scenarios[0]?.id).toBe(POST);
    expect(run.scenarios[0]?.status).toBe('passed');
    for (const s of run.scenarios.slice(1)) {
      expect(s.status, JSON.stringify(s)).toBe('errored');
      expect(s.reason).toMatch(/refused|reset|closed/);
    }
    expect(run.unreachable).toBeUndefined();
    expect(exitCodeFor(run, false)).toBe(1);
    expectBounded(run, wallMs);
  });
});
