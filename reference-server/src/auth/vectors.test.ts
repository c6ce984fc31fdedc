/**
 * Every known answer of specs/vectors/auth.yaml (computed with Python, not by this project), checked against the
 * server's own code: the primitives, and the full verification of each header by {@link verifyCredentials}.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createState } from '../handle.js';
import type { HeaderMap, RequestRecord } from '../records.js';
import type { HandlerDeps } from '../types.js';
import { decodeBasic } from './basic.js';
import { dateText, parseSignedDate } from './date.js';
import { parseHmac } from './hmac.js';
import { bodyHash, buildMessage, hmacDigest, hmacSha256 } from './message.js';
import { basicAuthorization } from './sign.js';
import { verifyCredentials } from './verify.js';

interface Signed {
  name: string;
  user: string;
  secret: string;
  method: string;
  path: string;
  message: string;
  digest: string;
  header: string;
  date?: string;
  nonce?: string;
  dateText?: string;
  body?: string;
  bodyHash?: string;
}

interface Vectors {
  version: number;
  hmacSha256: Array<{ name: string; keyHex: string; dataHex: string; macHex: string }>;
  basic: Array<{ name: string; user: string; password: string; header: string }>;
  hmacSimple: Signed[];
  hmacNonce: Signed[];
  hmacBodyHash: Signed[];
}

const FILE = fileURLToPath(new URL('../../../specs/vectors/auth.yaml', import.meta.url));
const V = parse(readFileSync(FILE, 'utf8')) as Vectors;

/** The server's verdict on one request, with the clock at `now` and one account. */
function verdict(
  account: { name: string; password?: string; secret?: string },
  req: Partial<RequestRecord> & { headers: HeaderMap },
  options: { now?: number; bodyHash?: boolean } = {},
) {
  const state = createState(
    { maxArticles: 10, maxBodyBytes: 65536 },
    {
      users: [{ name: account.name, password: account.password ?? '', secret: account.secret ?? '' }],
      bodyHash: options.bodyHash ?? false,
    },
  );
  const deps: HandlerDeps = {
    now: () => new Date(options.now ?? Date.UTC(2026, 0, 1)),
    newId: () => 'x',
    faults: new Set(),
    variants: new Set(),
  };
  const path = req.path ?? '/';
  const record: RequestRecord = {
    method: 'GET',
    path,
    query: '',
    target: path,
    body: new Uint8Array(),
    secure: false,
    ...req,
  };
  return verifyCredentials(record, state, deps);
}

describe('auth vectors', () => {
  it('has every section', () => {
    expect(V.version).toBe(1);
    for (const list of [V.hmacSha256, V.basic, V.hmacSimple, V.hmacNonce, V.hmacBodyHash])
      expect(list.length).toBeGreaterThan(0);
  });

  it.each(V.hmacSha256)('HMAC-SHA256: $name', (v) => {
    expect(hmacSha256(Buffer.from(v.keyHex, 'hex'), Buffer.from(v.dataHex, 'hex')).toString('hex')).toBe(v.macHex);
  });

  it.each(V.basic)('Basic: $name', (v) => {
    expect(decodeBasic(v.header)).toEqual({ user: v.user, password: v.password });
    expect(basicAuthorization(v.user, v.password)).toBe(v.header);
    if (!/^[A-Za-z0-9._~-]+$/.test(v.user)) return;
    const account = { name: v.user, password: v.password };
    expect(verdict(account, { headers: { authorization: v.header }, secure: true })).toEqual({
      kind: 'valid',
      user: v.user,
    });
    expect(verdict(account, { headers: { authorization: v.header }, secure: false }).kind).toBe('invalid');
    expect(
      verdict({ name: v.user, password: `${v.password}x` }, { headers: { authorization: v.header }, secure: true })
        .kind,
    ).toBe('invalid');
  });

  it.each(V.hmacSimple)('hmac simple form: $name', (v) => {
    expect(buildMessage({ method: v.method, path: v.path })).toBe(v.message);
    expect(hmacDigest(v.secret, v.message)).toBe(v.digest);
    expect(parseHmac(v.header)).toEqual({ user: v.user, digest: v.digest });
    const req = { method: v.method, path: v.path, target: v.path, headers: { authentication: v.header } };
    expect(verdict({ name: v.user, secret: v.secret }, req)).toEqual({ kind: 'valid', user: v.user });
    expect(verdict({ name: v.user, secret: `${v.secret}x` }, req).kind).toBe('invalid');
  });

  it.each(V.hmacNonce)('hmac date-and-nonce form: $name', (v) => {
    const date = v.date ?? '';
    const instant = parseSignedDate(date);
    expect(instant).toBeDefined();
    expect(dateText(date)).toBe(v.dateText);
    const dated = { dateText: v.dateText ?? '', nonce: v.nonce ?? '' };
    expect(buildMessage({ method: v.method, path: v.path, dated })).toBe(v.message);
    expect(hmacDigest(v.secret, v.message)).toBe(v.digest);
    expect(parseHmac(v.header)).toEqual({ user: v.user, nonce: v.nonce, digest: v.digest });
    const req = { method: v.method, path: v.path, target: v.path, headers: { authentication: v.header, date } };
    const ok = verdict({ name: v.user, secret: v.secret }, req, { now: instant });
    expect(ok).toMatchObject({ kind: 'valid', user: v.user, nonce: { scope: v.user, key: v.nonce } });
    expect(verdict({ name: v.user, secret: v.secret }, req, { now: (instant ?? 0) + 601_000 }).kind).toBe('invalid');
  });

  it.each(V.hmacBodyHash)('body hash: $name', (v) => {
    const body = Buffer.from(v.body ?? '', 'utf8');
    expect(bodyHash(body)).toBe(v.bodyHash);
    const dated =
      v.nonce === undefined ? undefined : { dateText: v.dateText ?? dateText(v.date ?? ''), nonce: v.nonce };
    expect(
      buildMessage({ method: v.method, path: v.path, ...(dated ? { dated } : {}), bodyHash: v.bodyHash ?? '' }),
    ).toBe(v.message);
    expect(hmacDigest(v.secret, v.message)).toBe(v.digest);
    const headers: HeaderMap = { authentication: v.header, ...(v.date === undefined ? {} : { date: v.date }) };
    const req = { method: v.method, path: v.path, target: v.path, headers, body };
    const now = v.date === undefined ? undefined : parseSignedDate(v.date);
    const account = { name: v.user, secret: v.secret };
    expect(verdict(account, req, { bodyHash: true, ...(now === undefined ? {} : { now }) })).toMatchObject({
      kind: 'valid',
      user: v.user,
    });
    const tampered = { ...req, body: Buffer.concat([body, Buffer.from(' ')]) };
    expect(verdict(account, tampered, { bodyHash: true, ...(now === undefined ? {} : { now }) }).kind).toBe('invalid');
    expect(verdict(account, req, { bodyHash: false, ...(now === undefined ? {} : { now }) }).kind).toBe('invalid');
  });
});
