/**
 * `conform run --har FILE`: the run's exchanges as HAR 1.2 — every required field of the format, each entry naming its
 * scenario and step, every URL the target's, and no secret of the profile in any encoding. A path that cannot be
 * written is exit 2 before anything is sent.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { describe, expect } from 'vitest';
import { runCli } from './cli-helpers.js';
import { it } from './fixtures.js';

const Pair = z.object({ name: z.string(), value: z.string(), comment: z.string().optional() });
const Timing = z.number().min(-1);
/** HAR 1.2's required fields (http://www.softwareishard.com/blog/har-12-spec/), and the optional ones conform writes. */
const Har = z.object({
  log: z.object({
    version: z.literal('1.2'),
    creator: z.object({ name: z.literal('conform'), version: z.string().min(1) }),
    entries: z.array(
      z.object({
        startedDateTime: z.iso.datetime(),
        time: z.number().min(0),
        request: z.object({
          method: z.string().min(1),
          url: z.url(),
          httpVersion: z.string(),
          cookies: z.array(z.object({ name: z.string(), value: z.string() })),
          headers: z.array(Pair),
          queryString: z.array(Pair),
          postData: z.object({ mimeType: z.string(), text: z.string() }).optional(),
          headersSize: z.number().int(),
          bodySize: z.number().int(),
        }),
        response: z.object({
          status: z.number().int(),
          statusText: z.string(),
          httpVersion: z.string(),
          cookies: z.array(z.object({ name: z.string(), value: z.string() })),
          headers: z.array(Pair),
          content: z.object({ size: z.number().int().min(0), mimeType: z.string(), text: z.string().optional() }),
          redirectURL: z.string(),
          headersSize: z.number().int(),
          bodySize: z.number().int(),
        }),
        cache: z.object({}),
        timings: z.object({ send: Timing, wait: Timing, receive: Timing }),
        comment: z.string().min(1),
        _conform: z.object({
          scenario: z.string().optional(),
          status: z.string().optional(),
          step: z.number().int(),
          purpose: z.enum(['learning', 'credentials']).optional(),
        }),
      }),
    ),
  }),
});
type Har = z.infer<typeof Har>;

/** Every password and secret of the reference profile, with its user's Basic `user:password`. */
async function profileSecrets(): Promise<Array<{ user?: string; secret: string }>> {
  const profile = parse(await readFile(path.resolve('reference-server/profile.yaml'), 'utf8')) as unknown;
  const found: Array<{ user?: string; secret: string }> = [];
  const walk = (v: unknown, user?: string): void => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, user));
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const name = typeof o['name'] === 'string' ? o['name'] : user;
      for (const [k, x] of Object.entries(o)) {
        if (/password|secret/i.test(k) && typeof x === 'string')
          found.push({ ...(name ? { user: name } : {}), secret: x });
        else walk(x, name);
      }
    }
  };
  walk(profile);
  return found;
}

/** A secret in every form a report could leak it: raw, percent-encoded, JSON, base64, and Basic's base64 `user:secret`. */
function encodings({ user, secret }: { user?: string; secret: string }): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    ...(user ? [Buffer.from(`${user}:${secret}`).toString('base64')] : []),
  ];
}

async function readHar(file: string): Promise<{ har: Har; text: string }> {
  const text = await readFile(file, 'utf8');
  const parsed = Har.safeParse(JSON.parse(text));
  expect(parsed.error?.issues.slice(0, 3)).toBeUndefined();
  return { har: parsed.data!, text };
}

async function expectNoSecret(text: string): Promise<void> {
  const secrets = await profileSecrets();
  expect(secrets.map((s) => s.secret)).toEqual(
    expect.arrayContaining(['wonder:land', 'alice-secret-1', 'rep-secret', 'consumer-secret-1']),
  );
  for (const s of secrets) for (const e of encodings(s)) expect(text.includes(e), `HAR contains ${e}`).toBe(false);
}

describe('conform run --har', () => {
  it('writes the exchanges of a passing run as HAR 1.2, redacted', async ({ tempDir }) => {
    const r = await runCli(tempDir, [
      'run',
      '--embedded',
      '--runs',
      '3',
      '--seed',
      '7',
      '--filter',
      'auth/basic',
      '--filter',
      'oauth2',
      '--har',
      'run.har',
      '--report-dir',
      'out',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/Reports: .*run\.har/);
    const { har, text } = await readHar(path.join(tempDir, 'run.har'));
    const report = JSON.parse(await readFile(path.join(tempDir, 'out', 'report.json'), 'utf8')) as {
      target: string;
      tool: { version: string };
      scenarios: Array<{ id: string; transcript?: unknown[] }>;
    };
    expect(har.log.creator.version).toBe(report.tool.version);
    // The HAR holds what the report holds: each scenario's transcript, entry for exchange.
    const scenarioEntries = har.log.entries.filter((e) => e._conform.scenario !== undefined);
    expect(scenarioEntries.length).toBeGreaterThan(0);
    expect(scenarioEntries.length).toBe(report.scenarios.reduce((n, s) => n + (s.transcript?.length ?? 0), 0));
    for (const s of report.scenarios)
      expect(scenarioEntries.filter((e) => e._conform.scenario === s.id)).toHaveLength(s.transcript?.length ?? 0);
    const target = new URL(report.target);
    for (const e of har.log.entries) {
      const url = new URL(e.request.url);
      expect(url.hostname).toBe(target.hostname);
      if (url.protocol === target.protocol) expect(url.origin).toBe(target.origin);
      expect(e.comment).toContain(`step ${e._conform.step}`);
      if (e._conform.scenario) expect(e.comment).toContain(`scenario ${e._conform.scenario}`);
      expect(e.time).toBe(e.timings.send + e.timings.wait + e.timings.receive);
    }
    // Credentials were sent (so the check below means something), and every one is masked.
    const credentials = har.log.entries.flatMap((e) =>
      e.request.headers.filter((h) => /^(authorization|authentication)$/i.test(h.name)),
    );
    expect(credentials.some((h) => h.value.startsWith('Basic '))).toBe(true);
    expect(credentials.some((h) => h.value.startsWith('Bearer '))).toBe(true);
    for (const h of credentials) expect(h.value).toMatch(/^(\w+ )?\[redacted\]$/);
    // OAuth tokens met during the run are masked in bodies too.
    expect(text).toContain('access_token\\":\\"[redacted]\\"');
    expect(text).not.toMatch(/access_token\\":\\"(?!\[redacted\])/);
    await expectNoSecret(text);
  }, 60_000);

  it('holds the failing exchanges of a failed run, and the console shows the failing request as curl', async ({
    tempDir,
  }) => {
    const r = await runCli(tempDir, [
      'run',
      '--embedded',
      '--fault',
      'basic-last-colon',
      '--no-credential-check',
      '--runs',
      '3',
      '--seed',
      '7',
      '--filter',
      'auth/basic-accepted',
      '--har',
      'failed.har',
      '--report-dir',
      'out',
      '--reporter',
      'console',
    ]);
    expect(r.code, r.out).toBe(1);
    const { har, text } = await readHar(path.join(tempDir, 'failed.har'));
    const failed = har.log.entries.filter((e) => e._conform.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.some((e) => e.response.status === 401)).toBe(true);
    await expectNoSecret(text);
    // The console: the request it failed at, as curl, its credential an environment placeholder.
    expect(r.out).toMatch(/the request it failed at \(step \d+\), as curl:/);
    expect(r.out).toContain(`-H 'authorization: '"$CONFORM_AUTHORIZATION"`);
    expect(r.out).toContain('conform sign --scheme basic');
    await expectNoSecret(r.out);
  }, 60_000);

  it('refuses a path it cannot write with exit 2, before anything is sent', async ({ tempDir }) => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await mkdir(path.join(tempDir, 'a-directory'));
      const profile = path.resolve('reference-server/profile.yaml');
      for (const [har, why] of [
        ['missing/run.har', 'does not exist'],
        ['a-directory', 'is a directory'],
      ] as const) {
        const r = await runCli(tempDir, [
          'run',
          '--target',
          url,
          '--profile',
          profile,
          '--har',
          har,
          '--report-dir',
          'out',
        ]);
        expect(r.code, r.err).toBe(2);
        expect(r.err).toContain(`--har ${path.join(tempDir, har)}: cannot write there`);
        expect(r.err).toContain(why);
      }
      expect(requests).toBe(0);
      expect(existsSync(path.join(tempDir, 'out', 'report.json'))).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
