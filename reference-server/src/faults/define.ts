/**
 * What a fault is made of, and small helpers the definitions share. A fault changes the server in up to four ways,
 * each applied once when a server starts (index.ts composes them):
 *
 * - `rules`: a wrong parameter or strategy — a patch of the rules the correct code reads (rules.ts);
 * - `rewrite`: an answer changed on its way out — `(req, res, ctx) => res`, after the handler, before framing;
 * - `hooks`: the course of a request changed — the few named hooks of {@link FaultHooks};
 * - `io`: what the IO shell does around the handler (server.ts).
 */
import type { Article, RequestRecord, ResponseRecord } from '../records.js';
import type { FaultName } from './registry.js';
import type { ChangeListener } from '../store/changes.js';
import type { Articles } from '../store/interfaces.js';
import type { AnswerRewrite, FaultHooks, HandlerContext, Rules } from '../types.js';
import type { DeferredWrites } from './deferred.js';

/** What the IO shell does differently under the faults; the correct values are {@link CORRECT_IO}. */
export interface IoFaults {
  /** The most body bytes read from a request whose limit is `maxBodyBytes`: that limit. */
  readCap(maxBodyBytes: number): number;
  /** An answer waits until the changes before it are on disk (`--data`): yes. */
  waitsForDisk: boolean;
  /** Whether a change goes into the journal: every one. */
  journaled(change: Parameters<ChangeListener>[0]): boolean;
  /** Each connection gets a memory passed with its requests: no (the correct server keeps none). */
  remembersConnections: boolean;
}

/** The IO shell of the correct server. */
export const CORRECT_IO: IoFaults = {
  readCap: (max) => max,
  waitsForDisk: true,
  journaled: () => true,
  remembersConnections: false,
};

/** A patch of one group of rules: given the rules so far, the fields it changes. */
export type RulesPatch = { [G in keyof Rules]?: (prev: Rules[G]) => Partial<Rules[G]> };

/** One fault, as the parts it changes. */
export interface FaultDefinition {
  rules?: RulesPatch;
  rewrite?: AnswerRewrite;
  hooks?: FaultHooks;
  io?: Partial<IoFaults>;
}

/** What the faults of one server share: the writes some of them leave for later. */
export interface FaultShared {
  deferred: DeferredWrites;
}

/**
 * A fault's definition, or a function making it: called once per server, so what the fault remembers (its own
 * state, in the closure) is that server's.
 */
export type FaultFactory = FaultDefinition | ((shared: FaultShared) => FaultDefinition);

/** The definitions of a group of faults, by name. */
export type FaultGroup = Readonly<Partial<Record<FaultName, FaultFactory>>>;

/** Most entries each memory of a fault keeps; the oldest goes first. */
export const MAX_FAULT_MEMORY = 10_000;

/** Remembers `value` under `key` as the newest entry, dropping the oldest beyond {@link MAX_FAULT_MEMORY}. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_FAULT_MEMORY) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
}

/** `store` with some of its methods replaced; the others are its own. */
export function storeWith(store: Articles, own: Partial<Pick<Articles, 'get' | 'has' | 'set' | 'delete'>>): Articles {
  return {
    capacity: store.capacity,
    get: own.get ?? ((key) => store.get(key)),
    has: own.has ?? ((key) => store.has(key)),
    isFullFor: (key) => store.isFullFor(key),
    isGenerated: (key) => store.isGenerated(key),
    set: own.set ?? ((key, article, generated) => store.set(key, article, generated)),
    delete: own.delete ?? ((key) => store.delete(key)),
    keys: () => store.keys(),
  };
}

/** `ctx` whose handlers see `store` instead of the state's own. */
export function withStore(ctx: HandlerContext, store: Articles): HandlerContext {
  return { ...ctx, state: { ...ctx.state, store } };
}

/** True when two articles have the same fields (title, price, currency, summary). */
export function sameArticle(a: Article, b: Article): boolean {
  return a.title === b.title && a.price === b.price && a.currency === b.currency && a.summary === b.summary;
}

/** `res` without the named headers. */
export function withoutHeaders(res: ResponseRecord, ...names: string[]): ResponseRecord {
  const headers = { ...res.headers };
  for (const name of names) delete headers[name];
  return { ...res, headers };
}

/** True for `method` requests to `path`. */
export function isRequest(req: RequestRecord, method: string, path?: string): boolean {
  return req.method === method && (path === undefined || req.path === path);
}
