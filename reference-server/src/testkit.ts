import type { FaultName } from './faults.js';
import { createState, handle } from './handle.js';
import type { Article, HandlerDeps, HeaderMap, RequestRecord, ResponseRecord, ServerState } from './types.js';

/** A fresh state plus deps, and a `call` that runs one request through {@link handle}. For unit tests. */
export interface TestServer {
  state: ServerState;
  deps: HandlerDeps;
  call(method: string, path: string, body?: string | Uint8Array, headers?: HeaderMap): ResponseRecord;
}

/** Options of {@link testServer}. Defaults: no faults, ids `id-1`, `id-2`, …, 64 KiB bodies, 100 articles. */
export interface TestServerOptions {
  faults?: FaultName[];
  newId?: () => string;
  maxArticles?: number;
  maxBodyBytes?: number;
}

/** Builds an in-memory server for {@link handle} tests: no socket, a fixed clock, counting ids. */
export function testServer(options: TestServerOptions = {}): TestServer {
  let n = 0;
  const state = createState({ maxArticles: options.maxArticles ?? 100, maxBodyBytes: options.maxBodyBytes ?? 65536 });
  const deps: HandlerDeps = {
    now: () => new Date('2025-01-01T00:00:00Z'),
    newId: options.newId ?? (() => `id-${++n}`),
    faults: new Set(options.faults ?? []),
  };
  const call = (method: string, path: string, body: string | Uint8Array = '', headers: HeaderMap = {}): ResponseRecord => {
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    const [rawPath = '', query = ''] = path.split('?');
    const req: RequestRecord = { method, path: rawPath, query, headers, body: bytes, secure: false };
    return handle(req, state, deps);
  };
  return { state, deps, call };
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
