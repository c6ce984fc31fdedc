import type { ServerOptions } from '../src/options.js';
import type { ConnectionMemory } from '../src/records.js';
import { basicAuthorization, signRequest } from '../src/auth/sign.js';
import type { SignedHeaders, SignInput } from '../src/auth/sign.js';
import { DEFAULT_USERS } from '../src/auth/users.js';
import { faultKit } from '../src/faults/index.js';
import type { FaultName } from '../src/faults/registry.js';
import type { VariantName } from '../src/variants.js';
import { createState, handle, handleAsync } from '../src/handle.js';
import type { Article, HeaderMap, RequestRecord, ResponseRecord } from '../src/records.js';
import type { HandlerDeps, LocalState } from '../src/types.js';

/** The fixed start of a test server's clock. */
export const TEST_NOW = new Date('2025-01-01T00:00:00Z');

/** One request for {@link TestServer.send}: nothing is signed unless the headers say so. */
export interface TestRequest {
  method: string;
  /** Request-target: raw path plus `?query`. */
  target: string;
  body?: string | Uint8Array;
  headers?: HeaderMap;
  /** Arrived over TLS. Default false. */
  secure?: boolean;
  connection?: ConnectionMemory;
}

/** How {@link TestServer.sign} signs: simple form unless `nonce` is given. */
export interface TestSignOptions {
  /** Default: the server's `signAs` user, else alice. */
  user?: string;
  nonce?: string;
  /** Date header text or an instant. Default: the test clock's now. */
  date?: string | Date;
  body?: string | Uint8Array;
  /** Default: the server's `bodyHash` setting. */
  bodyHash?: boolean;
}

/** A fresh state plus deps and a settable clock, and ways to run requests through {@link handle}. For unit tests. */
export interface TestServer {
  state: LocalState;
  deps: HandlerDeps;
  clock: { set(at: Date | number): void; advance(seconds: number): void; now(): Date };
  /**
   * One request through {@link handle}. Signed with the simple hmac form (or Basic over TLS, see `signWith`) as
   * the `signAs` user (default alice) unless `headers` carries `authorization` or `authentication`, or `signAs`
   * is null.
   */
  call(method: string, path: string, body?: string | Uint8Array, headers?: HeaderMap): ResponseRecord;
  /** One request through {@link handle} exactly as given. */
  send(req: TestRequest): ResponseRecord;
  /** One request through {@link handleAsync} exactly as given. */
  sendAsync(req: TestRequest): Promise<ResponseRecord>;
  /** Signed-request headers for `method` and `target`. */
  sign(method: string, target: string, options?: TestSignOptions): SignedHeaders;
  /** `{ authorization: 'Basic …' }` for a user (with their own password unless another is given). */
  basic(user: string, password?: string): HeaderMap;
}

/** Options of {@link testServer}. Defaults: no faults, ids `id-1`, `id-2`, …, 64 KiB bodies, 100 articles, default users. */
export interface TestServerOptions extends Pick<
  ServerOptions,
  | 'newId'
  | 'maxArticles'
  | 'maxBodyBytes'
  | 'users'
  | 'window'
  | 'bodyHash'
  | 'nonceCapacity'
  | 'nonceShare'
  | 'oauth2Clients'
  | 'tokenTtl'
  | 'tokenCapacity'
  | 'oauth1Consumers'
> {
  faults?: FaultName[];
  variants?: VariantName[];
  /** User whose credentials `call` adds; null for none. Default: alice. */
  signAs?: string | null;
  /** How `call` authenticates: simple-form hmac, or Basic with the request marked as arriving over TLS. Default: hmac. */
  signWith?: 'hmac' | 'basic-tls';
}

/** Builds an in-memory server for {@link handle} tests: no socket, a settable clock, counting ids. */
export function testServer(options: TestServerOptions = {}): TestServer {
  let n = 0;
  let nowMs = TEST_NOW.getTime();
  const state = createState(
    { maxArticles: options.maxArticles ?? 100, maxBodyBytes: options.maxBodyBytes ?? 65536 },
    {
      ...(options.users ? { users: options.users } : {}),
      ...(options.window !== undefined ? { window: options.window } : {}),
      ...(options.bodyHash !== undefined ? { bodyHash: options.bodyHash } : {}),
      ...(options.nonceCapacity !== undefined ? { nonceCapacity: options.nonceCapacity } : {}),
      ...(options.nonceShare !== undefined ? { nonceShare: options.nonceShare } : {}),
      ...(options.oauth2Clients ? { oauth2Clients: options.oauth2Clients } : {}),
      ...(options.tokenTtl !== undefined ? { tokenTtl: options.tokenTtl } : {}),
      ...(options.tokenCapacity !== undefined ? { tokenCapacity: options.tokenCapacity } : {}),
      ...(options.oauth1Consumers ? { oauth1Consumers: options.oauth1Consumers } : {}),
    },
  );
  const deps: HandlerDeps = {
    now: () => new Date(nowMs),
    newId: options.newId ?? (() => `id-${++n}`),
    faults: new Set(options.faults ?? []),
    variants: new Set(options.variants ?? []),
    ...faultKit(options.faults ?? []).deps,
  };
  const signAs = options.signAs === undefined ? 'alice' : options.signAs;
  const clock = {
    set: (at: Date | number) => void (nowMs = typeof at === 'number' ? at : at.getTime()),
    advance: (seconds: number) => void (nowMs += seconds * 1000),
    now: () => new Date(nowMs),
  };
  const send = (r: TestRequest): ResponseRecord => handle(record(r), state, deps);
  const sendAsync = (r: TestRequest): Promise<ResponseRecord> => handleAsync(record(r), state, deps);
  const sign = (method: string, target: string, o: TestSignOptions = {}): SignedHeaders => {
    const user = o.user ?? signAs ?? 'alice';
    const secret = state.auth.users.get(user)?.secret ?? 'no such user';
    return signRequest({
      method,
      target,
      user,
      secret,
      bodyHash: o.bodyHash ?? state.auth.bodyHash !== false,
      ...(o.body !== undefined ? { body: o.body } : {}),
      ...(o.nonce !== undefined ? { nonce: o.nonce, date: o.date ?? new Date(nowMs) } : {}),
    });
  };
  const basic = (user: string, password?: string): HeaderMap => ({
    authorization: basicAuthorization(user, password ?? state.auth.users.get(user)?.password ?? ''),
  });
  const call = (
    method: string,
    path: string,
    body: string | Uint8Array = '',
    headers: HeaderMap = {},
  ): ResponseRecord => {
    const own = 'authorization' in headers || 'authentication' in headers;
    if (own || signAs === null) return send({ method, target: path, body, headers });
    if (options.signWith === 'basic-tls')
      return send({ method, target: path, body, headers: { ...basic(signAs), ...headers }, secure: true });
    return send({ method, target: path, body, headers: { ...sign(method, path, { body, user: signAs }), ...headers } });
  };
  return { state, deps, clock, call, send, sendAsync, sign, basic };
}

/**
 * Signed-request headers as one of the default users (alice unless `user` says), with that user's secret: for tests
 * through real sockets, where no {@link TestServer} holds the accounts. Simple form unless `nonce` is given.
 */
export function signAs(input: Omit<SignInput, 'user' | 'secret'> & { user?: string }): SignedHeaders {
  const user = input.user ?? 'alice';
  const account = DEFAULT_USERS.find((u) => u.name === user);
  if (!account) throw new Error(`no default user "${user}"`);
  return signRequest({ ...input, user, secret: account.secret });
}

function record(r: TestRequest): RequestRecord {
  const body =
    r.body === undefined ? new Uint8Array() : typeof r.body === 'string' ? new TextEncoder().encode(r.body) : r.body;
  const q = r.target.indexOf('?');
  const req: RequestRecord = {
    method: r.method,
    path: q < 0 ? r.target : r.target.slice(0, q),
    query: q < 0 ? '' : r.target.slice(q + 1),
    target: r.target,
    headers: r.headers ?? {},
    body,
    secure: r.secure ?? false,
  };
  if (r.connection) req.connection = r.connection;
  return req;
}

/** Article XML for tests (field text inserted raw); fields default to a valid article; fields in `omit` are left out. */
export function articleXml(fields: Partial<Article> = {}, omit: (keyof Article)[] = []): string {
  const a = { title: 'Hello', price: '12.50', currency: 'eur', ...fields };
  const title = omit.includes('title') ? '' : `<title>${a.title}</title>`;
  const currency = omit.includes('currency') ? '' : ` currency="${a.currency}"`;
  const price = omit.includes('price') ? '' : `<price${currency}>${a.price}</price>`;
  const summary = a.summary === undefined ? '' : `<summary>${a.summary}</summary>`;
  return `<article>${title}${price}${summary}</article>`;
}

/** Body of a response as text ('' when absent). */
export function text(res: ResponseRecord): string {
  if (res.body === undefined) return '';
  return typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body);
}

/** The parsed problem+json body of an error response. */
export function problemOf(res: ResponseRecord): { type: string; title: string; status: number; detail: string } {
  return JSON.parse(text(res)) as { type: string; title: string; status: number; detail: string };
}

/** Text of the first `<name>` element in a response body (no unescaping), or undefined. */
export function elementText(res: ResponseRecord, name: string): string | undefined {
  return new RegExp(`<${name}[^>]*>([^]*?)</${name}>`).exec(text(res))?.[1];
}
