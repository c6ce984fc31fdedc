/**
 * The URLs of a replay script (report/script.ts): client-chosen article ids made fresh (`$SUFFIX`), URLs the target
 * chose taken from the script's own answers (`$LOC_k`), masked values as environment placeholders.
 */
import type { Exchange } from '../runner/types.js';
import { withPlaceholders } from './curl.js';

/** A piece of shell text: a literal (quoted, its masks as placeholders) or a variable expanded as it is. */
export type Piece = { text: string } | { variable: string };

/** Pieces as one shell word. */
export function word(pieces: readonly Piece[], used: Set<string>): string {
  const out = pieces
    .filter((p) => !('text' in p) || p.text !== '')
    .map((p) => ('text' in p ? withPlaceholders(p.text, used) : `"$${p.variable}"`))
    .join('');
  return out === '' ? "''" : out;
}

export function pathOf(url: string): { origin: string; path: string } | undefined {
  try {
    const u = new URL(url);
    return { origin: u.origin, path: url.slice(u.origin.length) || '/' };
  } catch {
    return undefined;
  }
}

/** The id (last path segment) of each article a PUT of the transcript created: the script makes it fresh. */
export function chosenIds(xs: readonly Exchange[]): string[] {
  const seen = new Set<string>();
  const ids = new Set<string>();
  for (const x of xs) {
    const p = pathOf(x.request.url)?.path.replace(/[?#].*$/s, '');
    if (p === undefined) continue;
    const status = x.response?.status ?? 0;
    const id = p.split('/').at(-1) ?? '';
    if (x.request.method === 'PUT' && !seen.has(p) && id !== '' && status >= 200 && status < 300) ids.add(id);
    seen.add(p);
  }
  return [...ids];
}

/** Where a POST's answer named a server-chosen URL (a Location other than the request's own path). */
export function serverChosen(x: Exchange): string | undefined {
  const location = [x.response?.headers['location'] ?? []].flat()[0];
  if (location === undefined) return undefined;
  let path: string;
  try {
    const u = new URL(location, x.request.url);
    path = `${u.pathname}${u.search}`;
  } catch {
    return undefined;
  }
  const own = pathOf(x.request.url)?.path;
  return path === own || path === '/' ? undefined : path;
}

/** A path as pieces: earlier Locations captured afresh (`$LOC_k`), client-chosen ids with `$SUFFIX`. */
export function pathPieces(
  path: string,
  locations: ReadonlyArray<{ k: number; path: string }>,
  ids: readonly string[],
): Piece[] {
  for (const loc of [...locations].reverse()) {
    const rest = path.slice(loc.path.length);
    if (path.startsWith(loc.path) && (rest === '' || /^[/?#]/.test(rest)))
      return [{ variable: `LOC_${loc.k}` }, ...pathPieces(rest, [], ids)];
  }
  const out: Piece[] = [];
  let rest = path;
  for (;;) {
    let best: { at: number; id: string } | undefined;
    for (const id of ids) {
      let from = 0;
      for (;;) {
        const at = rest.indexOf(`/${id}`, from);
        if (at < 0) break;
        const after = rest[at + id.length + 1];
        if (after === undefined || after === '/' || after === '?' || after === '#') {
          if (!best || at < best.at) best = { at, id };
          break;
        }
        from = at + 1;
      }
    }
    if (!best) break;
    const end = best.at + best.id.length + 1;
    out.push({ text: rest.slice(0, end) }, { variable: 'SUFFIX' });
    rest = rest.slice(end);
  }
  out.push({ text: rest });
  return out;
}
