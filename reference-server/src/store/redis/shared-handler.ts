/**
 * Handles one request against the shared store: the pure `handle()` runs over views of a snapshot (views.ts);
 * what it wanted and the snapshot lacked is fetched and it runs again; then its writes are committed in one atomic
 * script conditioned on everything it read (commit.ts). A commit that finds a value changed by another instance
 * forgets that value and runs the request again over the fresh one — so two instances never both accept one nonce,
 * and two writers of one article never mix. The answer goes out only after Redis confirmed the commit; when Redis
 * cannot be reached the answer is 503 and nothing was stored.
 */
import { randomBytes } from 'node:crypto';
import { handle } from '../../handle.js';
import type {
  AccessToken,
  AuthorizationCode,
  RefreshToken,
  TemporaryCredentials,
  TokenCredentials,
} from '../../oauth/state.js';
import { byteLength, problem } from '../../responses.js';
import type { RequestRecord, ResponseRecord } from '../../records.js';
import type { HandlerDeps, LocalState, ServerState } from '../../types.js';
import type { KeyLayout } from './keys.js';
import { SharedStoreError, type SharedStore } from './redis.js';
import { Tx, emptySnapshot, extendSnapshot, forgetConflicts } from './tx.js';
import { ArticleView, CredentialView, NonceView } from './views.js';

/** What an instance shares with the others, and what it keeps to itself. */
export interface SharedContext {
  store: SharedStore;
  layout: KeyLayout;
  /** The instance's own state: settings, user and client tables, limits (its stores are not used). */
  local: LocalState;
  /** Where a Redis failure is told (the answer says only that the store is unavailable). */
  log: (line: string) => void;
}

/**
 * Most passes of one request (fetches and conflicting commits together). A request reads a handful of keys, so a
 * few passes fetch them all; each further pass follows a commit that lost a race to another instance.
 */
export const MAX_PASSES = 32;

/** Answers `req` against the shared store (see the module comment). Never throws for Redis failures: 503. */
export async function handleShared(req: RequestRecord, ctx: SharedContext, deps: HandlerDeps): Promise<ResponseRecord> {
  const snapshot = emptySnapshot();
  // Every pass must draw the same ids and tokens: a pass that drew new ones would want new keys, forever.
  const ids = replayed(deps.newId);
  const bytes = replayed(deps.random ?? randomBytes);
  const passDeps: HandlerDeps = { ...deps, newId: ids.draw, random: bytes.draw };
  try {
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      ids.rewind();
      bytes.rewind();
      const tx = new Tx(snapshot, deps.now().getTime());
      const views = viewsOf(tx, ctx);
      const response = handle(req, views.state, passDeps);
      views.flush(tx.nowMs);
      if (!tx.complete()) {
        extendSnapshot(snapshot, await ctx.store.fetch(tx.wants, tx.nowMs));
        continue;
      }
      if (tx.readOnly()) return response;
      const failed = await ctx.store.commit(tx.plan());
      if (failed.length === 0) return response;
      forgetConflicts(snapshot, failed);
    }
    return unavailable(
      `the request lost ${MAX_PASSES} races with other instances for the same data; nothing was stored`,
    );
  } catch (err) {
    if (!(err instanceof SharedStoreError)) throw err;
    ctx.log(`${req.method} ${req.path}: 503, ${err.message}`);
    return unavailable('the shared store is unavailable; nothing was stored');
  }
}

/** The state of one pass: the instance's settings with the shared stores' views; `flush` writes back in-place changes. */
function viewsOf(tx: Tx, ctx: SharedContext): { state: ServerState; flush: (nowMs: number) => void } {
  const { local, layout } = ctx;
  const capacity = local.oauth2.tokens.capacity;
  const tokens = new CredentialView<AccessToken>(tx, layout, 'oauth2-token', capacity);
  const codes = new CredentialView<AuthorizationCode>(tx, layout, 'oauth2-code', capacity);
  const refresh = new CredentialView<RefreshToken>(tx, layout, 'oauth2-refresh', capacity);
  const temporary = new CredentialView<TemporaryCredentials>(tx, layout, 'oauth1-temporary', capacity);
  const credentials = new CredentialView<TokenCredentials>(tx, layout, 'oauth1-token', capacity);
  const state: ServerState = {
    ...local,
    store: new ArticleView(tx, layout, local.store.capacity),
    nonces: new NonceView(tx, layout),
    oauth2: { ...local.oauth2, tokens, codes, refresh },
    oauth1: { ...local.oauth1, temporary, tokens: credentials },
  };
  const flush = (nowMs: number) => {
    tokens.flush(nowMs);
    codes.flush(nowMs);
    refresh.flush(nowMs);
    temporary.flush(nowMs);
    credentials.flush(nowMs);
  };
  return { state, flush };
}

/**
 * `source`, recorded: after `rewind()` the same sequence of calls gets the same values again (a call beyond the
 * recorded ones, or with other arguments, draws anew).
 */
export function replayed<A extends unknown[], R>(
  source: (...args: A) => R,
): { draw: (...args: A) => R; rewind: () => void } {
  const drawn: Array<{ args: string; value: R }> = [];
  let next = 0;
  const draw = (...args: A): R => {
    const key = JSON.stringify(args);
    const recorded = drawn[next];
    if (recorded !== undefined && recorded.args === key) {
      next++;
      return recorded.value;
    }
    const value = source(...args);
    drawn.splice(next, drawn.length - next, { args: key, value });
    next++;
    return value;
  };
  return { draw, rewind: () => void (next = 0) };
}

/** 503 with `Retry-After: 1`: the shared store could not confirm the request's changes. */
function unavailable(detail: string): ResponseRecord {
  const record = problem(503, detail, { headers: { 'retry-after': '1' } });
  return { ...record, headers: { ...record.headers, 'content-length': String(byteLength(record.body)) } };
}
