/**
 * Hostile input: a corpus of bad raw HTTP/1.1 requests (test/corpus/hostile-requests/*.http) and property-based
 * garbage, each sent over a raw socket to the reference server's plain port. Every answer must be a 4xx (or, where
 * the case says `close`, a 4xx or a closed connection), never a 5xx (an unknown method gets 405 with `Allow`, not 501);
 * a 4xx with a body has a non-empty body; and the
 * server must still serve correct requests afterwards.
 *
 * Corpus file format (data, not code; UTF-8 text):
 * - Leading lines starting with `# ` are directives: `# expect: 4xx` or `# expect: 4xx|close` (first line, required),
 *   `# about: <free text>`, `# then: end` (default: half-close the socket once sent) or `# then: wait` (send and leave
 *   the socket open, so only the server's own timeouts can end the exchange).
 * - Everything after them is the request. Each `\n` in literal text is sent as `\r\n`. The file's final newline is
 *   part of the request, so a request without a body ends with an empty line.
 * - Tokens: `{{repeat:N:TEXT}}` (TEXT, UTF-8, N times; TEXT holds no `}}`), `{{hex:ff fe 00}}` (raw bytes, for
 *   non-UTF-8 input and bare LFs), `{{length}}` (the decimal byte length of the expanded body: everything after the
 *   first `\r\n\r\n`), `{{end}}` (the request stops here; the rest of the file, final newline included, is not sent).
 * - Requests that must reach the XML reader carry a simple-form hmac signature of user alice (docs/auth.md, body
 *   hash included) computed over the expanded body; it is replayable by design, so the files stay fixed data.
 */
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, useReferenceServer } from './helpers.js';

const CORPUS = path.join(ROOT, 'test', 'corpus', 'hostile-requests');
/** The server's timeouts are 5 s; a case that needs them gets a little more, every other case answers at once. */
const CASE_BOUND_MS = 7000;
const BATCH = 8;

interface Case {
  file: string;
  expect: '4xx' | '4xx|close';
  about: string;
  then: 'end' | 'wait';
  bytes: Buffer;
}

interface Exchange {
  /** Every byte the server sent before it closed the connection or the bound ran out. */
  received: Buffer;
  closed: boolean;
  timedOut: boolean;
  error?: string;
}

const TOKEN = /\{\{(?:repeat:(\d+):(.*?)|hex:([0-9a-fA-F ]*)|(length)|(end))\}\}/gs;
const LENGTH_MARK = Symbol('length');

/** Expands a corpus request into the bytes to send (see the format above). */
export function expandRequest(text: string): Buffer {
  const endAt = text.indexOf('{{end}}');
  const source = endAt >= 0 ? text.slice(0, endAt) : text;
  const parts: Array<Buffer | typeof LENGTH_MARK> = [];
  const literal = (s: string): void => void parts.push(Buffer.from(s.replace(/\n/g, '\r\n'), 'utf8'));
  let pos = 0;
  for (const m of source.matchAll(TOKEN)) {
    literal(source.slice(pos, m.index));
    if (m[1] !== undefined) parts.push(Buffer.from((m[2] ?? '').repeat(Number(m[1])), 'utf8'));
    else if (m[3] !== undefined) parts.push(Buffer.from(m[3].replace(/ /g, ''), 'hex'));
    else if (m[4] !== undefined) parts.push(LENGTH_MARK);
    pos = m.index + m[0].length;
  }
  literal(source.slice(pos));
  const joined = Buffer.concat(parts.map((p) => (p === LENGTH_MARK ? Buffer.alloc(0) : p)));
  if (!parts.includes(LENGTH_MARK)) return joined;
  const split = joined.indexOf('\r\n\r\n');
  if (split < 0) throw new Error('{{length}} used in a request without a head/body separator');
  const length = Buffer.from(String(joined.length - split - 4));
  return Buffer.concat(parts.map((p) => (p === LENGTH_MARK ? length : p)));
}

async function loadCorpus(): Promise<Case[]> {
  const files = (await readdir(CORPUS)).filter((f) => f.endsWith('.http')).sort();
  const cases: Case[] = [];
  for (const file of files) {
    const text = await readFile(path.join(CORPUS, file), 'utf8');
    const lines = text.split('\n');
    const directives = new Map<string, string>();
    let i = 0;
    for (; i < lines.length && lines[i]!.startsWith('# '); i++) {
      const m = /^# ([a-z]+): ?(.*)$/.exec(lines[i]!);
      if (m === null) throw new Error(`${file}: bad directive line ${JSON.stringify(lines[i])}`);
      directives.set(m[1]!, m[2]!);
    }
    const expectation = directives.get('expect');
    if (!lines[0]!.startsWith('# expect: ') || (expectation !== '4xx' && expectation !== '4xx|close')) {
      throw new Error(`${file}: the first line must be "# expect: 4xx" or "# expect: 4xx|close"`);
    }
    const then = directives.get('then') ?? 'end';
    if (then !== 'end' && then !== 'wait') throw new Error(`${file}: bad "then": ${then}`);
    cases.push({
      file,
      expect: expectation,
      about: directives.get('about') ?? '',
      then,
      bytes: expandRequest(lines.slice(i).join('\n')),
    });
  }
  return cases;
}

const sockets = new Set<net.Socket>();

/** Sends raw bytes and collects the answer until the server closes, or the bound runs out (then the socket dies). */
function exchange(port: number, bytes: Buffer, then: 'end' | 'wait', boundMs = CASE_BOUND_MS): Promise<Exchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    sockets.add(socket);
    let done = false;
    let error: string | undefined;
    const finish = (closed: boolean, timedOut: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      sockets.delete(socket);
      resolve({ received: Buffer.concat(chunks), closed, timedOut, ...(error === undefined ? {} : { error }) });
    };
    const timer = setTimeout(() => finish(false, true), boundMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish(true, false));
    socket.on('close', () => finish(true, false));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A reset after the server has answered and dropped the rest of a request is a close, not a failure.
      error = err.code ?? err.message;
      finish(true, false);
    });
    socket.on('connect', () => {
      socket.write(bytes, () => {
        if (then === 'end' && !done) socket.end();
      });
    });
  });
}

interface Parsed {
  status?: number;
  statusLine?: string;
  /** Every status code seen in the stream (pipelined leftovers may produce more than one answer). */
  allStatuses: number[];
  contentLength?: number;
  chunked: boolean;
  body: Buffer;
}

function parseAnswer(received: Buffer): Parsed {
  const text = received.toString('latin1');
  const allStatuses = [...text.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
  const headEnd = received.indexOf('\r\n\r\n');
  const head = headEnd >= 0 ? text.slice(0, headEnd) : text;
  const statusLine = head.split('\r\n')[0];
  const m = /^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '');
  const cl = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  const body = headEnd >= 0 ? received.subarray(headEnd + 4) : Buffer.alloc(0);
  return {
    ...(m === null ? {} : { status: Number(m[1]), statusLine }),
    allStatuses,
    ...(cl === null ? {} : { contentLength: Number(cl[1]) }),
    chunked: /\r\ntransfer-encoding:\s*chunked/i.test(head),
    body,
  };
}

/** Everything wrong with one answer, as readable lines (empty: the answer meets the demands). */
function judge(expectation: '4xx' | '4xx|close', ex: Exchange, method: string): string[] {
  const problems: string[] = [];
  const p = parseAnswer(ex.received);
  const fives = p.allStatuses.filter((status) => status >= 500);
  if (fives.length > 0) problems.push(`5xx answer(s): ${fives.join(', ')}`);
  if (ex.received.length === 0) {
    if (expectation === '4xx')
      problems.push(
        ex.timedOut
          ? 'no answer within the bound'
          : `connection closed without an answer${ex.error ? ` (${ex.error})` : ''}`,
      );
    else if (ex.timedOut) problems.push('neither an answer nor a close within the bound');
    return problems;
  }
  if (p.status === undefined) {
    problems.push(`no HTTP/1.1 status line: ${JSON.stringify(ex.received.subarray(0, 80).toString('latin1'))}`);
    return problems;
  }
  if ((p.status < 400 || p.status > 499) && fives.length === 0) problems.push(`status ${p.statusLine}`);
  else if (method !== 'HEAD' && p.contentLength === undefined && !p.chunked)
    problems.push(`${p.status} without a framed body`);
  else if (method !== 'HEAD' && (p.contentLength === 0 || p.body.length === 0))
    problems.push(`${p.status} with an empty body`);
  return problems;
}

function methodOf(bytes: Buffer): string {
  return /^([^ \r\n]*)/.exec(bytes.subarray(0, 64).toString('latin1'))?.[1] ?? '';
}

const checks: string[] = [];
const server = useReferenceServer({ log: (line) => void checks.push(line) });

/** Proves the server still serves: OPTIONS /articles → 200, GET of a missing article → 404 with a problem body. */
async function assertAlive(after: string): Promise<void> {
  const options = await exchange(
    server().port,
    Buffer.from('OPTIONS /articles HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    'end',
    3000,
  );
  const missing = await exchange(
    server().port,
    Buffer.from('GET /articles/no-such-article HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    'end',
    3000,
  );
  const o = parseAnswer(options.received);
  const g = parseAnswer(missing.received);
  expect(o.status, `OPTIONS /articles after ${after}`).toBe(200);
  expect(g.status, `GET /articles/no-such-article after ${after}`).toBe(404);
  expect(g.body.length, `404 body after ${after}`).toBeGreaterThan(0);
}

// Before the server closes (afterAll hooks run in reverse order).
afterAll(() => {
  for (const s of sockets) s.destroy();
  sockets.clear();
});

describe('hostile request corpus', async () => {
  const cases = await loadCorpus();

  it('has at least 100 entries, each with a known expectation', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
  });

  it('answers every bad request with a 4xx (or a close where allowed), never a 5xx, and keeps serving', async () => {
    const failures: string[] = [];
    const waiting = cases.filter((c) => c.then === 'wait');
    const quick = cases.filter((c) => c.then !== 'wait');
    // The few cases that only the server's timeouts end run together, beside the quick ones.
    const slow = Promise.all(waiting.map(async (c) => [c, await exchange(server().port, c.bytes, c.then)] as const));
    for (let i = 0; i < quick.length; i += BATCH) {
      const batch = quick.slice(i, i + BATCH);
      const answers = await Promise.all(batch.map((c) => exchange(server().port, c.bytes, c.then)));
      batch.forEach((c, k) => {
        const ex = answers[k]!;
        for (const problem of judge(c.expect, ex, methodOf(c.bytes))) {
          failures.push(
            `${c.file} (${c.about}): ${problem}\n    answer: ${JSON.stringify(ex.received.subarray(0, 300).toString('latin1'))}`,
          );
        }
      });
      await assertAlive(batch.map((c) => c.file).join(', '));
    }
    for (const [c, ex] of await slow) {
      for (const problem of judge(c.expect, ex, methodOf(c.bytes))) failures.push(`${c.file} (${c.about}): ${problem}`);
    }
    await assertAlive('the waiting cases');
    expect(failures).toEqual([]);
  });
});

describe('property-based garbage requests', () => {
  const printable = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
  const anyByte = fc.integer({ min: 0, max: 255 });
  // Mostly methods node:http knows, so that most garbage gets past the request line into headers and bodies.
  const token = fc.oneof(
    {
      arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'TRACE', 'M-SEARCH'),
      weight: 4,
    },
    { arbitrary: fc.constantFrom('FOO', 'get', ''), weight: 1 },
    { arbitrary: fc.string({ unit: printable, minLength: 1, maxLength: 20 }), weight: 1 },
  );
  const pathBytes = fc.oneof(
    fc.constantFrom(
      '/',
      '/articles',
      '/articles/x',
      '/article/../',
      '//',
      '/articles%2F',
      '/%00',
      '*',
      '/users/alice/financialrecords',
      '/oauth2/token',
    ),
    fc.uint8Array({ minLength: 0, maxLength: 300 }).map((a) => '/' + Buffer.from(a).toString('latin1')),
    fc
      .array(
        fc.oneof(
          printable,
          anyByte.map((b) => String.fromCharCode(b)),
        ),
        { maxLength: 200 },
      )
      .map((a) => a.join('')),
  );
  const headerLine = fc.oneof(
    fc.constantFrom(
      'Content-Length: 5',
      'Content-Length: -1',
      'Content-Length: 999999999999',
      'Transfer-Encoding: chunked',
      'Content-Type: application/xml',
      'Content-Type: text/plain',
      'Authorization: Basic !!!',
      'Authorization: Bearer x',
      'Authentication: hmac alice:1:AAAA',
      'Date: 32 Jan 2026 00:00:00',
      'Expect: 100-continue',
      'Connection: Upgrade',
      'Upgrade: h2c',
    ),
    fc
      .tuple(fc.string({ unit: printable, minLength: 0, maxLength: 30 }), fc.uint8Array({ maxLength: 100 }))
      .map(([n, v]) => `${n}: ${Buffer.from(v).toString('latin1')}`),
    fc.uint8Array({ maxLength: 80 }).map((a) => Buffer.from(a).toString('latin1')),
  );
  const request = fc.record({
    method: token,
    path: pathBytes,
    version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 ', 'HTTP/1', ''),
    host: fc.boolean(),
    headers: fc.array(headerLine, { maxLength: 8 }),
    body: fc.uint8Array({ maxLength: 600 }),
  });

  it('never answers random garbage with a 5xx and keeps serving (200 runs, fixed seed)', async () => {
    /** Failing runs grouped by kind of failure, with the first few requests and answers of each kind. */
    const failures = new Map<string, { count: number; examples: string[] }>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const head = `${r.method} ${r.path} ${r.version}\r\n${r.host ? 'Host: localhost\r\n' : ''}${r.headers.map((h) => `${h}\r\n`).join('')}\r\n`;
        const bytes = Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(r.body)]);
        const ex = await exchange(server().port, bytes, 'end');
        const p = parseAnswer(ex.received);
        // Garbage may happen to be a valid request (OPTIONS → 200); what must never happen is a 5xx, silence
        // until the bound, or a 4xx without a body. Every failing run is collected, not just the first.
        const kinds: string[] = p.allStatuses.filter((s) => s >= 500).map((s) => `${s} answer`);
        if (ex.timedOut && ex.received.length === 0) kinds.push('no answer and no close within the bound');
        if (
          p.status !== undefined &&
          p.status >= 400 &&
          p.status < 500 &&
          methodOf(bytes) !== 'HEAD' &&
          (p.contentLength === 0 || p.body.length === 0)
        ) {
          kinds.push(`${p.status} with an empty body`);
        }
        for (const kind of new Set(kinds)) {
          const entry = failures.get(kind) ?? { count: 0, examples: [] };
          entry.count += 1;
          if (entry.examples.length < 3) {
            entry.examples.push(
              `${JSON.stringify(bytes.subarray(0, 160).toString('latin1'))} → ${JSON.stringify(ex.received.subarray(0, 160).toString('latin1'))}`,
            );
          }
          failures.set(kind, entry);
        }
        return true;
      }),
      { numRuns: 200, seed: 20251122 },
    );
    expect(
      [...failures].map(
        ([kind, { count, examples }]) => `${kind}: ${count} of 200 runs, e.g.\n    ${examples.join('\n    ')}`,
      ),
    ).toEqual([]);
    await assertAlive('200 garbage requests');
  });
});
