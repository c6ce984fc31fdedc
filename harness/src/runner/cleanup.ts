/**
 * Leaving the target as it was found (VERDICTS.md §2): every article the run creates is noted as the answers go by —
 * a POST to the collection answered 2xx (its Location), a PUT to an article path answered 2xx — and deleted, where
 * the target deletes (`articles.deletable`, declared or learned): as the run goes, once the scenario that made it has
 * ended, in lanes no scenario wants; the rest when the run ends. What cannot be deleted is reported.
 * `conform run --keep` leaves everything, for debugging; `--keep-failed` what the reported run of a failed or errored
 * scenario created (such a scenario's articles are never deleted before the run ends).
 */
import { splitUrl, type HttpClient, type HttpRequest, type HttpResponse, type SendOptions } from '../http/client.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { ExecDeps } from './exec-types.js';
import { buildRequest } from './request.js';
import type { ScenarioResult } from './types.js';

/** The articles a run created, by path below the base URL, in the order they were made. */
export interface Ledger {
  /** Notes what `request` created, given its answer; `owner` is the scenario that sent it (its index in the run). */
  note(request: HttpRequest, response: HttpResponse, owner?: number): void;
  created(): string[];
  /** The paths created by requests of `owner`, still there. */
  createdBy(owner: number): string[];
}

/** Most articles one run notes; past it the rest are counted, not kept (a run of millions of requests stays bounded). */
const MAX_NOTED = 100_000;

/** A {@link Ledger} that also knows which scenario made each article, so its articles can go once it has ended. */
export interface OwningLedger extends Ledger {
  missed(): number;
  /** The scenario `owner` has ended: what it made and left may be deleted from now on. */
  ended(owner: number): void;
  /** The next article whose scenario has ended and that is still there, taken (undefined: none now). */
  takeEnded(): string | undefined;
  /** `path` is gone (deleted, or answered 404 or 410 to a DELETE). */
  gone(path: string): void;
}

export function createLedger(
  profile: ResolvedProfile,
  bases: { primary: string; plain?: string; tls?: string },
): OwningLedger {
  // Each path, with the scenario whose request created it (undefined: the session's own).
  const paths = new Map<string, number | undefined>();
  // The paths of scenarios not yet ended, by owner; the scenarios ended; the paths deletable now, in that order.
  const pending = new Map<number, Set<string>>();
  const ended = new Set<number>();
  const ready: string[] = [];
  let missed = 0;
  const prefixes = [bases.primary, bases.plain, bases.tls]
    .filter((b): b is string => b !== undefined)
    .map((b) => new URL(b).pathname.replace(/\/$/, ''));
  const templates = [profile.articles.item, ...profile.articles.aliases].map((t) => {
    const [head = '', tail = ''] = t.split(/\{[^}]*\}/);
    return { head, tail };
  });
  const below = (url: string): string | undefined => {
    let path: string;
    try {
      // The URL's pathname, split without parsing in the common case (http/url.ts): this runs for every answer.
      const full = splitUrl(url).path;
      const q = full.indexOf('?');
      path = q < 0 ? full : full.slice(0, q);
    } catch {
      return undefined;
    }
    const prefix = prefixes.find((p) => p !== '' && path.startsWith(p));
    return prefix === undefined ? path : path.slice(prefix.length) || '/';
  };
  const isItem = (path: string) =>
    templates.some(
      ({ head, tail }) =>
        path.length > head.length + tail.length &&
        path.startsWith(head) &&
        path.endsWith(tail) &&
        !path.slice(head.length, path.length - tail.length).includes('/'),
    );
  const add = (path: string | undefined, owner: number | undefined) => {
    if (path === undefined || paths.has(path)) return;
    if (paths.size >= MAX_NOTED) missed++;
    else {
      paths.set(path, owner);
      if (owner === undefined) return;
      // Made by a scenario that has already ended (a request of its still in flight): deletable at once.
      if (ended.has(owner)) ready.push(path);
      else pending.set(owner, (pending.get(owner) ?? new Set()).add(path));
    }
  };
  return {
    note(request, response, owner) {
      if (response.status < 200 || response.status >= 300) return;
      const method = request.method.toUpperCase();
      const path = below(request.url);
      if (path === undefined) return;
      if (method === 'PUT' && isItem(path)) add(path, owner);
      else if (method === 'POST' && (path === profile.articles.collection || isItem(path))) {
        const location = [response.headers['location'] ?? []].flat()[0];
        if (location !== undefined) add(below(new URL(location, request.url).toString()), owner);
      } else if (method === 'DELETE' && isItem(path)) paths.delete(path);
    },
    created: () => [...paths.keys()],
    createdBy: (owner) => [...paths].filter(([, o]) => o === owner).map(([p]) => p),
    missed: () => missed,
    ended(owner) {
      ended.add(owner);
      for (const path of pending.get(owner) ?? []) ready.push(path);
      pending.delete(owner);
    },
    gone(path) {
      paths.delete(path);
    },
    takeEnded() {
      // Passed over: a path deleted meanwhile (by a DELETE, or gone), or made again by a scenario still running.
      for (let path = ready.shift(); path !== undefined; path = ready.shift()) {
        const owner = paths.get(path);
        if (owner !== undefined && ended.has(owner)) return path;
      }
      return undefined;
    },
  };
}

/** `client` (and every session of it) noting into `ledger` what its requests create, as sent by `owner`. */
export function recordingClient(client: HttpClient, ledger: Ledger, owner?: number): HttpClient {
  return {
    async send(request: HttpRequest, options?: SendOptions) {
      const sent = await client.send(request, options);
      if (sent.ok) ledger.note(request, sent.response, owner);
      return sent;
    },
    ...(client.sendTogether
      ? {
          sendTogether: async (requests: readonly HttpRequest[]) => {
            const answers = await client.sendTogether!(requests);
            for (const [k, sent] of answers.entries()) if (sent.ok) ledger.note(requests[k]!, sent.response, owner);
            return answers;
          },
        }
      : {}),
    session: () => recordingClient(client.session(), ledger, owner),
    close: () => client.close(),
  };
}

/** Deletes one article (with the credentials a DELETE needs under the profile): whether it is gone (2xx, 404, 410). */
export async function deleteArticle(path: string, deps: ExecDeps): Promise<boolean> {
  const built = await buildRequest({ request: { method: 'DELETE', path } }, {}, deps);
  const sent = 'error' in built ? undefined : await deps.client.send(built.request, { concurrent: true });
  return (
    sent?.ok === true &&
    ((sent.response.status >= 200 && sent.response.status < 300) ||
      sent.response.status === 404 ||
      sent.response.status === 410)
  );
}

/**
 * Deletes `paths`, `concurrency` at once (default 8), and returns those that are still there: a DELETE answered 2xx,
 * 404 or 410 removed it (or it was gone). Not deletable: every path is left.
 */
export async function cleanUp(
  paths: readonly string[],
  deps: ExecDeps,
  concurrency = 8,
): Promise<{ deleted: number; left: string[] }> {
  if (!deps.profile.articles.deletable) return { deleted: 0, left: [...paths] };
  const left: string[] = [];
  let deleted = 0;
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < paths.length; k = next++) {
      const path = paths[k]!;
      if (await deleteArticle(path, deps)) deleted++;
      else left.push(path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), paths.length) }, worker));
  return { deleted, left: left.sort() };
}

/**
 * What each failed or errored scenario's reported run created, by scenario id: the articles its request URLs name
 * among those its requests created (the ledger's paths are below the base URL, so a URL ending with one names it).
 */
export function keptOf(failed: ReadonlyMap<number, ScenarioResult>, ledger: Ledger): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [index, result] of failed) {
    const named = new Set(
      result.transcript.flatMap((x) => {
        try {
          return [new URL(x.request.url).pathname];
        } catch {
          return [];
        }
      }),
    );
    const paths = ledger.createdBy(index).filter((p) => [...named].some((n) => n === p || n.endsWith(p)));
    if (paths.length > 0) out[result.id] = paths.sort();
  }
  return out;
}
