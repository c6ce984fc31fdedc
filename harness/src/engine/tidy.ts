/**
 * What a session does with the articles its scenarios create (noted by runner/cleanup.ts): each deleted as the run
 * goes once the scenario that made it has ended, in lanes no scenario wants ({@link Tidy.nextDeletion}); the rest
 * when the run ends ({@link Tidy.finish}). With `--keep-failed`, a failed or errored scenario's articles wait for the
 * end, where what its reported run created is kept and listed (`keptFailed`) and the rest deleted.
 */
import type { Bases, ExecDeps } from '../runner/exec-types.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { cleanUp, createLedger, deleteArticle, keptOf, type Ledger } from '../runner/cleanup.js';
import type { ScenarioResult } from '../runner/types.js';

/** The session's own connections, for the deletions (opened when first needed, closed by `finish`). */
export type OwnDeps = () => { deps: ExecDeps; close(): Promise<void> };

export interface TidyOptions {
  keep?: boolean;
  /** Default: the `keepFailed` the tidy was created with. */
  keepFailed?: boolean;
  onCleanup?: (articles: number) => void;
  /** Deletions at once at the end (default 8). */
  concurrency?: number;
}

export interface Tidied {
  /** What the run created and is still there (kept, or not deleted). */
  left: string[];
  keptFailed?: Record<string, string[]>;
  cleanup: { created: number; deleted: number; kept?: boolean };
}

export interface Tidy {
  /** Where the scenarios' clients note what they create. */
  readonly ledger: Ledger;
  /** Scenario `index` has ended with `result` (undefined: it threw). */
  ended(index: number, result: ScenarioResult | undefined): void;
  /** A job deleting one article of an ended scenario, or undefined when there is none now. */
  nextDeletion(): (() => Promise<void>) | undefined;
  /** Deletes the rest (unless `keep`; with `keepFailed`, all but what the failed scenarios' reported runs made). */
  finish(options: TidyOptions): Promise<Tidied>;
}

export function createTidy(profile: ResolvedProfile, bases: Bases, keepFailed: boolean, own: OwnDeps): Tidy {
  const ledger = createLedger(profile, bases);
  // The failed and errored scenarios, by index: what their reported runs created can be kept (--keep-failed).
  const failed = new Map<number, ScenarioResult>();
  // The connections and count of the deletions made as the run goes.
  let cleaner: ReturnType<OwnDeps> | undefined;
  let deletedEarly = 0;
  return {
    ledger,
    ended(index, result) {
      const bad = result === undefined || result.status === 'failed' || result.status === 'errored';
      if (result !== undefined && bad) failed.set(index, result);
      // With --keep-failed, nothing of a scenario not known to have passed goes before the end of the run.
      if (!(keepFailed && bad)) ledger.ended(index);
    },
    nextDeletion() {
      if (!profile.articles.deletable) return undefined;
      const path = ledger.takeEnded();
      if (path === undefined) return undefined;
      return async () => {
        cleaner ??= own();
        // A failed deletion stays in the ledger: the end of the run tries it again, and reports it if it fails.
        if (!(await deleteArticle(path, cleaner.deps))) return;
        ledger.gone(path);
        deletedEarly++;
      };
    },
    async finish(options) {
      const created = ledger.created();
      const keptFailed = (options.keepFailed ?? keepFailed) && !options.keep ? keptOf(failed, ledger) : {};
      const kept = new Set(Object.values(keptFailed).flat());
      const doomed = created.filter((p) => !kept.has(p));
      let left = options.keep ? created : [...kept];
      if (!options.keep && doomed.length > 0) {
        options.onCleanup?.(doomed.length);
        const deps = cleaner ?? own();
        try {
          left = [...(await cleanUp(doomed, deps.deps, options.concurrency)).left, ...kept].sort();
        } finally {
          await deps.close();
          cleaner = undefined;
        }
      } else if (cleaner) {
        await cleaner.close();
        cleaner = undefined;
      }
      return {
        left,
        ...(kept.size > 0 ? { keptFailed } : {}),
        cleanup: {
          created: created.length + deletedEarly + ledger.missed(),
          deleted: deletedEarly + (options.keep ? 0 : created.length - left.length),
          ...(options.keep ? { kept: true } : {}),
        },
      };
    },
  };
}
