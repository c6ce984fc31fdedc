/** Property tests: what the server's signer signs its verifier accepts, and any single change is rejected. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createState } from '../handle.js';
import type { RequestRecord } from '../records.js';
import type { HandlerDeps } from '../types.js';
import { formatSignedDate } from './date.js';
import { signRequest } from './sign.js';
import { DEFAULT_USERS } from './users.js';
import { verifyCredentials } from './verify.js';

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const;
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface Case {
  method: string;
  target: string;
  user: string;
  /** Undefined for the simple form. */
  nonce?: string;
  /** Whole seconds from the clock (nonce form). */
  skew: number;
  body: Uint8Array;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  method: fc.constantFrom(...METHODS),
  target: fc.stringMatching(/^\/[A-Za-z0-9._~/-]{0,24}(\?[A-Za-z0-9=&%]{0,12})?$/),
  user: fc.constantFrom(...DEFAULT_USERS.map((u) => u.name)),
  nonce: fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
  skew: fc.integer({ min: -600, max: 600 }),
  body: fc.uint8Array({ maxLength: 96 }),
});

function secretOf(user: string): string {
  return DEFAULT_USERS.find((u) => u.name === user)?.secret ?? '';
}

/** The request a correct client sends for a case. */
function signed(c: Case): RequestRecord {
  const date = new Date(NOW + c.skew * 1000);
  const headers = signRequest({
    method: c.method,
    target: c.target,
    user: c.user,
    secret: secretOf(c.user),
    body: c.body,
    ...(c.nonce === undefined ? {} : { nonce: c.nonce, date }),
  });
  const q = c.target.indexOf('?');
  return {
    method: c.method,
    path: q < 0 ? c.target : c.target.slice(0, q),
    query: q < 0 ? '' : c.target.slice(q + 1),
    target: c.target,
    headers: { ...headers },
    body: c.body,
    secure: false,
  };
}

function verify(req: RequestRecord) {
  const state = createState({ maxArticles: 10, maxBodyBytes: 65536 });
  const deps: HandlerDeps = { now: () => new Date(NOW), newId: () => 'x', faults: new Set(), variants: new Set() };
  return verifyCredentials(req, state, deps);
}

function header(req: RequestRecord): string {
  return String(req.headers.authentication);
}

describe('sign → verify', () => {
  it('a correctly signed request verifies as its user, in both forms', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const result = verify(signed(c));
        expect(result).toMatchObject({ kind: 'valid', user: c.user });
        if (c.nonce !== undefined) expect(result).toMatchObject({ nonce: { scope: c.user, key: c.nonce } });
      }),
    );
  });

  it('another verb is rejected', () => {
    fc.assert(
      fc.property(caseArb, fc.constantFrom(...METHODS), (c, other) => {
        fc.pre(other !== c.method);
        expect(verify({ ...signed(c), method: other }).kind).toBe('invalid');
      }),
    );
  });

  it('another path or query is rejected', () => {
    fc.assert(
      fc.property(caseArb, fc.stringMatching(/^\/[A-Za-z0-9._~/-]{0,24}(\?[A-Za-z0-9=&%]{0,12})?$/), (c, other) => {
        fc.pre(other !== c.target);
        const q = other.indexOf('?');
        const req = {
          ...signed(c),
          target: other,
          path: q < 0 ? other : other.slice(0, q),
          query: q < 0 ? '' : other.slice(q + 1),
        };
        expect(verify(req).kind).toBe('invalid');
      }),
    );
  });

  it('another Date inside the window is rejected', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: -600, max: 600 }), (c, skew) => {
        fc.pre(c.nonce !== undefined && skew !== c.skew);
        const req = signed(c);
        expect(
          verify({ ...req, headers: { ...req.headers, date: formatSignedDate(new Date(NOW + skew * 1000)) } }).kind,
        ).toBe('invalid');
      }),
    );
  });

  it('another nonce is rejected (leading zeros count)', () => {
    fc.assert(
      fc.property(caseArb, fc.stringMatching(/^[0-9]{1,20}$/), (c, other) => {
        fc.pre(c.nonce !== undefined && other !== c.nonce);
        const req = signed(c);
        const changed = header(req).replace(`:${c.nonce ?? ''}:`, `:${other}:`);
        expect(verify({ ...req, headers: { ...req.headers, authentication: changed } }).kind).toBe('invalid');
      }),
    );
  });

  it('another user is rejected', () => {
    fc.assert(
      fc.property(caseArb, fc.constantFrom('alice', 'bob', 'carol', 'mallory'), (c, other) => {
        fc.pre(other !== c.user);
        const req = signed(c);
        const changed = header(req).replace(`hmac ${c.user}:`, `hmac ${other}:`);
        expect(verify({ ...req, headers: { ...req.headers, authentication: changed } }).kind).toBe('invalid');
      }),
    );
  });

  it('another body of a PUT or POST is rejected', () => {
    fc.assert(
      fc.property(caseArb, fc.constantFrom('PUT', 'POST'), fc.uint8Array({ maxLength: 96 }), (c, method, other) => {
        fc.pre(Buffer.compare(Buffer.from(other), Buffer.from(c.body)) !== 0);
        const req = signed({ ...c, method });
        expect(verify({ ...req, body: other }).kind).toBe('invalid');
      }),
    );
  });

  it('any one digest character changed is rejected', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(43), fc.constantFrom(...BASE64, '='), (c, index, char) => {
        const req = signed(c);
        const value = header(req);
        const start = value.lastIndexOf(':') + 1;
        const digest = value.slice(start);
        fc.pre(digest[index] !== char);
        const changed = value.slice(0, start) + digest.slice(0, index) + char + digest.slice(index + 1);
        expect(verify({ ...req, headers: { ...req.headers, authentication: changed } }).kind).toBe('invalid');
      }),
    );
  });

  it('a truncated, extended or case-changed digest is rejected', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(43), fc.constantFrom('truncate', 'extend', 'case'), (c, n, kind) => {
        const req = signed(c);
        const value = header(req);
        const start = value.lastIndexOf(':') + 1;
        const digest = value.slice(start);
        const swapped = digest.replace(/[A-Za-z]/, (ch) =>
          ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase(),
        );
        const changed =
          kind === 'truncate' ? digest.slice(0, Math.max(1, n)) : kind === 'extend' ? `${digest}A` : swapped;
        fc.pre(changed !== digest);
        expect(
          verify({ ...req, headers: { ...req.headers, authentication: value.slice(0, start) + changed } }).kind,
        ).toBe('invalid');
      }),
    );
  });
});
