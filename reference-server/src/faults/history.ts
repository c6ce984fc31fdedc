/**
 * Faults of the articles' history: what a server remembers of earlier writes and should not (a deleted article, a
 * deleted id, a copy the alias keeps), and writes that do not do what they answer. Each is an interceptor of the
 * `article` hook (or picks the id of a POST, the `postId` hook) and keeps its memory in its own closure, bounded.
 */
import type { Article } from '../records.js';
import { problem, xmlResponse } from '../responses.js';
import { render } from '../routes/articles.js';
import { MAX_FAULT_MEMORY, remember, storeWith, withStore, withoutHeaders } from './define.js';
import type { FaultGroup } from './define.js';

/** The id every POST reuses under the `post-same-id` fault. */
export const SAME_ID = '0000000000000000';

export const HISTORY_FAULTS = {
  'post-same-id': { hooks: { postId: () => SAME_ID } },
  'put-generated-405': {
    hooks: {
      article: (ctx, call, next) => {
        if (call.method !== 'PUT' || call.key === undefined || !ctx.state.store.isGenerated(call.key)) return next(ctx);
        const allow = 'GET, HEAD, DELETE, OPTIONS';
        return problem(405, `PUT is not allowed on ${ctx.req.path}; allowed: ${allow}`, { headers: { allow } });
      },
    },
  },
  'delete-noop': {
    hooks: {
      article: (ctx, call, next) =>
        call.method === 'DELETE' ? next(withStore(ctx, storeWith(ctx.state.store, { delete: () => true }))) : next(ctx),
    },
  },
  'delete-then-put-resurrects': () => {
    // Deleted articles by store key, until a PUT creates there again: it keeps the summary of the deleted one.
    const deleted = new Map<string, Article>();
    return {
      hooks: {
        article: (ctx, call, next) => {
          const { key } = call;
          const { store } = ctx.state;
          if (key === undefined) return next(ctx);
          if (call.method === 'DELETE') {
            const before = store.get(key);
            const res = next(ctx);
            if (res.status === 204 && before !== undefined) remember(deleted, key, { ...before });
            return res;
          }
          const old = call.method === 'PUT' && !store.has(key) ? deleted.get(key) : undefined;
          if (old === undefined) return next(ctx);
          let created: Article | undefined;
          const resurrecting = storeWith(store, {
            set: (at, article, generated) => {
              const merged =
                at === key && article.summary === undefined && old.summary !== undefined
                  ? { ...article, summary: old.summary }
                  : article;
              const outcome = store.set(at, merged, generated);
              if (at === key && outcome === 'created') created = merged;
              return outcome;
            },
          });
          const res = next(withStore(ctx, resurrecting));
          if (created === undefined) return res;
          deleted.delete(key);
          return { ...res, body: render(ctx, created) };
        },
      },
    };
  },
  'put-after-delete-200': () => {
    // Store keys of deleted articles, until a PUT creates there again: that PUT answers as a replace.
    const deleted = new Map<string, true>();
    return {
      hooks: {
        article: (ctx, call, next) => {
          const { key } = call;
          if (key === undefined) return next(ctx);
          const existed = ctx.state.store.has(key);
          if (call.method === 'DELETE') {
            const res = next(ctx);
            if (existed && res.status === 204) remember(deleted, key, true);
            return res;
          }
          if (call.method !== 'PUT' || existed || !deleted.has(key)) return next(ctx);
          const res = next(ctx);
          if (res.status !== 201) return res;
          deleted.delete(key);
          return withoutHeaders({ ...res, status: 200 }, 'location');
        },
      },
    };
  },
  'post-reuses-deleted-id': () => {
    // Ids of deleted articles, the latest last; the next POST takes the latest unless the store holds it again.
    const ids: string[] = [];
    return {
      hooks: {
        article: (ctx, call, next) => {
          // Not an `alias-separate` key: no POST makes those.
          if (call.method !== 'DELETE' || call.key === undefined || call.key !== call.id) return next(ctx);
          const existed = ctx.state.store.has(call.key);
          const res = next(ctx);
          if (existed && res.status === 204) {
            ids.push(call.key);
            if (ids.length > MAX_FAULT_MEMORY) ids.shift();
          }
          return res;
        },
        postId: (ctx) => {
          const id = ids.pop();
          return id !== undefined && !ctx.state.store.has(id) ? id : undefined;
        },
      },
    };
  },
  'alias-diverges-after-replace': () => {
    // The copy the alias `/article/<id>` serves, by id: made when the alias was last written or read.
    const copies = new Map<string, Article>();
    return {
      hooks: {
        article: (ctx, call, next) => {
          const { key, id } = call;
          if (key === undefined || id === undefined) return next(ctx);
          const { store } = ctx.state;
          if (call.method === 'DELETE') {
            // Deleting either form drops the copy.
            const existed = store.has(key);
            const res = next(ctx);
            if (existed && res.status === 204) copies.delete(id);
            return res;
          }
          if (call.form !== 'singular') return next(ctx);
          if (call.method === 'GET' || call.method === 'HEAD') {
            const copy = copies.get(id);
            if (copy !== undefined) return xmlResponse(200, render(ctx, copy));
          }
          const res = next(ctx);
          const stored = store.get(key);
          if ((call.method === 'PUT' ? res.status < 300 : res.status === 200) && stored !== undefined)
            remember(copies, id, { ...stored });
          return res;
        },
      },
    };
  },
} satisfies FaultGroup;
