/**
 * One optimistic transaction over the shared store, pure: the synchronous handler runs against a snapshot of the
 * keys it reads; what it reads that the snapshot lacks is wanted (fetched, then the handler runs again); what it
 * reads becomes a condition and what it writes a write of one commit, applied by Redis only if every value read is
 * still the same (cluster/commit.ts). So each request is one atomic step, as in memory, whatever the other
 * instances do meanwhile.
 */

/** A set (articles) or a sorted set scored by expiry (credentials). */
export type IndexKind = 'set' | 'zset';

/** The size of an index: a set's cardinality, or the live members of a sorted set and the lowest live score. */
export interface IndexCount {
  size: number;
  /** Lowest live score (ms) of a sorted set, when it has members. */
  oldest?: number;
}

/** What the store held when it was read: values by key (null: absent), index sizes and index members. */
export interface Snapshot {
  values: Map<string, string | null>;
  counts: Map<string, IndexCount>;
  members: Map<string, string[]>;
}

/** What a pass read that the snapshot did not hold. */
export interface Wants {
  keys: Set<string>;
  counts: Map<string, IndexKind>;
  members: Map<string, IndexKind>;
}

/** A change of an index that goes with a write: add or remove `member` (with `score` for a sorted set). */
export interface IndexChange {
  key: string;
  kind: IndexKind;
  op: 'add' | 'remove';
  member: string;
  /** Sorted sets only: the expiry (ms), `Infinity` for none. */
  score?: number;
}

/** One key's new value (null: delete), with its lifetime in ms (absent: none) and the index change it brings. */
export interface Write {
  key: string;
  value: string | null;
  pxMs?: number;
  index?: IndexChange;
}

/** A capacity the commit must respect: the index's size plus `delta` new members must stay within `limit`. */
export interface Capacity {
  index: string;
  kind: IndexKind;
  limit: number;
  delta: number;
}

/** Everything one commit applies: only if every condition holds (the value read is still there), all writes. */
export interface CommitPlan {
  nowMs: number;
  conditions: Array<{ key: string; value: string | null }>;
  capacities: Capacity[];
  writes: Write[];
}

/** An empty snapshot. */
export function emptySnapshot(): Snapshot {
  return { values: new Map(), counts: new Map(), members: new Map() };
}

/** Adds what a fetch returned to `snapshot`. */
export function extendSnapshot(snapshot: Snapshot, fetched: Snapshot): void {
  for (const [k, v] of fetched.values) snapshot.values.set(k, v);
  for (const [k, v] of fetched.counts) snapshot.counts.set(k, v);
  for (const [k, v] of fetched.members) snapshot.members.set(k, v);
}

/**
 * Forgets what a failed commit names (keys whose value changed, indexes at capacity), so that the next pass reads
 * them again. A conflict names a key, or `index:<key>` for a capacity.
 */
export function forgetConflicts(snapshot: Snapshot, conflicts: readonly string[]): void {
  for (const c of conflicts) {
    if (c.startsWith('index:')) {
      const index = c.slice('index:'.length);
      snapshot.counts.delete(index);
      snapshot.members.delete(index);
    } else snapshot.values.delete(c);
  }
}

/** The reads and writes of one pass of the handler over a snapshot. */
export class Tx {
  readonly wants: Wants = { keys: new Set(), counts: new Map(), members: new Map() };
  private readonly reads = new Map<string, string | null>();
  private readonly writes = new Map<string, Write>();
  private readonly capacities = new Map<string, Capacity>();

  constructor(
    private readonly snapshot: Snapshot,
    readonly nowMs: number,
  ) {}

  /** The value of `key` as this transaction sees it (its own writes first); undefined when not known yet (wanted). */
  read(key: string): string | null | undefined {
    const written = this.writes.get(key);
    if (written !== undefined) return written.value;
    if (!this.snapshot.values.has(key)) {
      this.wants.keys.add(key);
      return undefined;
    }
    const value = this.snapshot.values.get(key) ?? null;
    if (!this.reads.has(key)) this.reads.set(key, value);
    return value;
  }

  /** The size of an index as this transaction sees it (its own changes included); undefined when wanted. */
  count(index: string, kind: IndexKind): IndexCount | undefined {
    const known = this.snapshot.counts.get(index);
    if (known === undefined) {
      this.wants.counts.set(index, kind);
      return undefined;
    }
    return { ...known, size: known.size + (this.capacities.get(index)?.delta ?? 0) };
  }

  /** The members of an index when it was read; undefined when wanted. */
  members(index: string, kind: IndexKind): readonly string[] | undefined {
    const known = this.snapshot.members.get(index);
    if (known === undefined) this.wants.members.set(index, kind);
    return known;
  }

  /** Records a write (the last one per key wins); `limit` bounds the index when the write adds a member. */
  write(write: Write, limit?: number): void {
    this.writes.set(write.key, write);
    const index = write.index;
    if (index === undefined || limit === undefined) return;
    const capacity = this.capacities.get(index.key) ?? { index: index.key, kind: index.kind, limit, delta: 0 };
    capacity.delta += index.op === 'add' ? 1 : -1;
    this.capacities.set(index.key, capacity);
  }

  /** True when the pass read nothing the snapshot lacked: its answer stands, once committed. */
  complete(): boolean {
    return this.wants.keys.size === 0 && this.wants.counts.size === 0 && this.wants.members.size === 0;
  }

  /** True when the pass changed nothing (no commit needed). */
  readOnly(): boolean {
    return this.writes.size === 0;
  }

  /** The commit of this pass: a condition for every key read, a capacity for every index that grows, every write. */
  plan(): CommitPlan {
    return {
      nowMs: this.nowMs,
      conditions: [...this.reads].map(([key, value]) => ({ key, value })),
      capacities: [...this.capacities.values()].filter((c) => c.delta > 0),
      writes: [...this.writes.values()],
    };
  }
}
