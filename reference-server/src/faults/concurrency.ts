/**
 * Faults of concurrency, which show only when requests overlap (through `handleAsync` and sockets): a nonce checked
 * and stored in two steps with a wait between, a nonce recorded only after the answer, a replace written in two steps, every write rewriting the whole store
 * from a copy taken on arrival. Each goes through the `served` hook (the wait) and, for the writes, the `article`
 * hook; the writes left for later are {@link DeferredWrites}'.
 */
import type { Verification } from '../auth/verification.js';
import { verifyCredentials } from '../auth/verify.js';
import { hostProblem } from '../request.js';
import { oauthEndpoint } from '../routes/oauth.js';
import { ArticleStore } from '../store/articles.js';
import type { Nonces } from '../store/interfaces.js';
import { sameArticle, storeWith, withStore } from './define.js';
import type { FaultGroup } from './define.js';

/**
 * The wait the `nonce-race` fault puts between check and store: a timer, long enough that requests sent together
 * over a network (not only within one event-loop turn) all pass the check.
 */
const RACE_DELAY_MS = 10;

/** `nonces` storing `(scope, key)` without the replay check (already made), and checking every other nonce. */
function storingUnchecked(nonces: Nonces, scope: string, key: string): Nonces {
  return {
    checkAndStore: (s, k, expiresAt, nowMs, keep) =>
      s === scope && k === key
        ? nonces.add(s, k, expiresAt, nowMs, keep)
        : nonces.checkAndStore(s, k, expiresAt, nowMs, keep),
    has: (s, k, nowMs) => nonces.has(s, k, nowMs),
    add: (s, k, expiresAt, nowMs, keep) => nonces.add(s, k, expiresAt, nowMs, keep),
    size: () => nonces.size(),
  };
}

export const CONCURRENCY_FAULTS = {
  'nonce-race': {
    // The nonce is checked, then a macrotask passes, then the request is handled, storing it: identical requests
    // arriving together are all accepted.
    hooks: {
      served: async (req, state, deps, next) => {
        if (oauthEndpoint(req.path) !== undefined || hostProblem(req) !== undefined) return next(req, state, deps);
        let verification: Verification;
        try {
          verification = verifyCredentials(req, state, deps);
        } catch {
          return next(req, state, deps);
        }
        if (verification.kind !== 'valid' || verification.nonce === undefined) return next(req, state, deps);
        const { scope, key } = verification.nonce;
        // A nonce stored already: the handler refuses the replay.
        if (state.nonces.has(scope, key, deps.now().getTime())) return next(req, state, deps);
        await new Promise<void>((resolve) => setTimeout(resolve, RACE_DELAY_MS));
        return next(req, { ...state, nonces: storingUnchecked(state.nonces, scope, key) }, deps);
      },
    },
  },
  'nonce-recorded-late': {
    // "Don't burn the nonce until the request was processed": every nonce (hmac and OAuth 1 alike) is checked when
    // the request is handled and recorded only after its answer is out (one macrotask later). A replay sent after
    // the answer is refused; identical requests whose ends arrive together are all accepted — caught only when
    // they overlap, which is why the harness sends them with their last bytes together.
    hooks: {
      served: async (req, state, deps, next) => {
        const late: Array<() => void> = [];
        const nonces: Nonces = {
          checkAndStore: (s, k, expiresAt, nowMs, keep) => {
            if (state.nonces.has(s, k, nowMs)) return { kind: 'replayed' };
            late.push(() => void state.nonces.add(s, k, expiresAt, deps.now().getTime(), keep));
            return { kind: 'stored' };
          },
          has: (s, k, nowMs) => state.nonces.has(s, k, nowMs),
          add: (s, k, expiresAt, nowMs, keep) => state.nonces.add(s, k, expiresAt, nowMs, keep),
          size: () => state.nonces.size(),
        };
        const response = await next(req, { ...state, nonces }, deps);
        if (late.length > 0) setImmediate(() => late.forEach((record) => record()));
        return response;
      },
    },
  },
  'put-non-atomic': ({ deferred }) => ({
    // A replace writes the title now, price, currency and summary later, each over whatever is stored by then.
    hooks: {
      served: deferred.served,
      article: (ctx, call, next) => {
        if (call.method !== 'PUT' || call.key === undefined) return next(ctx);
        const { store } = ctx.state;
        const replace = call.key;
        const inTwoSteps = storeWith(store, {
          set: (key, article, generated) => {
            const old = store.get(key);
            if (key !== replace || old === undefined) return store.set(key, article, generated);
            const outcome = store.set(key, { ...old, title: article.title });
            deferred.later(ctx.req, () => {
              const now = store.get(key);
              if (now === undefined) return;
              const { summary } = article;
              store.set(key, {
                title: now.title,
                price: article.price,
                currency: article.currency,
                ...(summary !== undefined ? { summary } : {}),
              });
            });
            return outcome;
          },
        });
        return next(withStore(ctx, inTwoSteps));
      },
    },
  }),
  'lost-update': ({ deferred }) => ({
    // A write works on a copy of the whole store taken on arrival; when it succeeded the store is made equal to the
    // copy later, as a server rewriting one JSON file of all articles would: whatever was written between is undone.
    hooks: {
      served: deferred.served,
      article: (ctx, call, next) => {
        if (call.method === 'GET' || call.method === 'HEAD') return next(ctx);
        const { store } = ctx.state;
        const copy = new ArticleStore(store.capacity);
        for (const key of [...store.keys()]) {
          const article = store.get(key);
          if (article !== undefined)
            copy.restore({ kind: 'article-set', key, article, generated: store.isGenerated(key) });
        }
        const response = next(withStore(ctx, copy));
        if (response.status >= 300) return response;
        deferred.later(ctx.req, () => {
          for (const key of [...store.keys()]) if (!copy.has(key)) store.delete(key);
          for (const key of copy.keys()) {
            const article = copy.get(key);
            const now = store.get(key);
            if (article !== undefined && (now === undefined || !sameArticle(now, article) || now.raw !== article.raw))
              store.set(key, article, copy.isGenerated(key));
          }
        });
        return response;
      },
    },
  }),
} satisfies FaultGroup;
