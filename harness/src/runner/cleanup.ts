/**
 * Leaving the target as it was found (VERDICTS.md §2): every article the run creates is noted as the answers go by —
 * a POST to the collection answered 2xx (its Location), a PUT to an article path answered 2xx — and deleted when the
 * run ends, where the target deletes (`articles.deletable`, declared or learned). What cannot be deleted is reported.
 * `conform run --keep` leaves everything, for debugging; `--keep-failed` what the reported run of a failed or errored
 * scenario created.
 */
import type { HttpClient, HttpRequest, HttpResponse, SendOptions } from '../http/client.js';
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

export function createLedger(
  profile: ResolvedProfile,
  bases: { primary: string; plain?: string; tls?: string },
): Ledger & { missed(): number } {
  // Each path, with the scenario whose request created it (undefined: the session's own).
  const paths = new Map<string, number | undefined>();
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
      path = new URL(url).pathname;
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
    else paths.set(path, owner);
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

/** Deletions in flight at once at the end of a run. */
const CLEANUP_CONCURRENCY = 8;

/**
 * Deletes `paths` (with the credentials a DELETE needs under the profile) and returns those that are still there:
 * a DELETE answered 2xx, 404 or 410 removed it (or it was gone). Not deletable: every path is left.
 */
export async function cleanUp(paths: readonly string[], deps: ExecDeps): Promise<{ deleted: number; left: string[] }> {
  if (!deps.profile.articles.deletable) return { deleted: 0, left: [...paths] };
  const left: string[] = [];
  let deleted = 0;
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < paths.length; k = next++) {
      const path = paths[k]!;
      const built = await buildRequest({ request: { method: 'DELETE', path } }, {}, deps);
      const sent = 'error' in built ? undefined : await deps.client.send(built.request, { concurrent: true });
      if (
        sent?.ok &&
        ((sent.response.status >= 200 && sent.response.status < 300) ||
          sent.response.status === 404 ||
          sent.response.status === 410)
      )
        deleted++;
      else left.push(path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CLEANUP_CONCURRENCY, paths.length) }, worker));
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
