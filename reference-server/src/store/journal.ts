/**
 * The `--data DIR` journal: an append-only file of {@link StateChange} lines, written and fsynced before any
 * answer that follows the change goes out (group commit: one write and one `fdatasync` for every change made
 * while the previous batch was being synced). At start the file is read back into the state (a torn last line,
 * from a crash in the middle of an append, is cut off), then rewritten as a snapshot of what is live; it is
 * rewritten the same way once it has grown past twice that snapshot (and 16 MiB), so the disk use stays bounded.
 */
import { constants, createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { LocalState } from '../types.js';
import { JournalCorruptError, JournalReader, encodeChange } from './changes.js';
import type { StateChange } from './changes.js';
import { ReferenceServerError } from '../errors.js';

export { JournalCorruptError } from './changes.js';

/** The journal's file name inside the data directory. */
export const JOURNAL_FILE = 'journal.log';
const SNAPSHOT_FILE = 'journal.log.new';
const LOCK_FILE = 'lock';

/** Another live process holds the data directory. */
export class DataDirInUseError extends ReferenceServerError {
  constructor(dir: string, pid: number) {
    super('REF_DATA_DIR_IN_USE', `data directory ${dir} is in use by process ${pid}`);
    this.name = 'DataDirInUseError';
  }
}

/** The journal cannot be written any more; every later answer that depends on it is refused. */
export class JournalWriteError extends ReferenceServerError {
  constructor(override readonly cause: unknown) {
    super(
      'REF_JOURNAL_WRITE_FAILED',
      `journal write failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'JournalWriteError';
  }
}

/** What {@link openJournal} needs besides the directory and the state. */
export interface JournalOptions {
  /** Clock, ms: which nonces are still live when loading and compacting. */
  nowMs: () => number;
  /** Receives one line when the journal is loaded or compacted. */
  log: (line: string) => void;
  /**
   * Compact once this many bytes were appended since the last snapshot and they are at least twice the snapshot's
   * size, so the file stays within a small multiple of the live state. Default: 16 MiB.
   */
  compactAfterBytes?: number;
}

/** Figures of a loaded journal, for the start-up line. */
export interface JournalLoad {
  articles: number;
  nonces: number;
  changes: number;
  tornTail: boolean;
}

/** An open journal: {@link Journal.append} as changes are made, {@link Journal.commit} before answering. */
export interface Journal {
  readonly load: JournalLoad;
  /** Queues a change (synchronous, so it keeps the order in which the state changed). */
  append(change: StateChange): void;
  /** Resolves once every change appended so far is on disk; rejects with {@link JournalWriteError} if it never will be. */
  commit(): Promise<void>;
  /** Writes what is queued, closes the file, releases the directory. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens (creating it if needed) the journal in `dir`, reads it back into `state` (which must be empty), compacts
 * it and takes the directory's lock.
 * @throws {DataDirInUseError} when another live process has the directory.
 * @throws {JournalCorruptError} when the journal is damaged other than at its end.
 */
export async function openJournal(dir: string, state: LocalState, options: JournalOptions): Promise<Journal> {
  await mkdir(dir, { recursive: true });
  await lock(dir);
  try {
    const load = await restore(dir, state, options.nowMs());
    await rm(path.join(dir, SNAPSHOT_FILE), { force: true });
    const snapshotBytes = await writeSnapshot(dir, state, options.nowMs());
    options.log(
      `data ${dir}: ${load.articles} articles, ${load.nonces} live nonces from ${load.changes} journal lines${load.tornTail ? ' (an incomplete last line, from a crash, was dropped)' : ''}`,
    );
    return new FileJournal(dir, state, options, await open(path.join(dir, JOURNAL_FILE), 'a'), snapshotBytes, load);
  } catch (err) {
    await unlock(dir);
    throw err;
  }
}

class FileJournal implements Journal {
  private queue: string[] = [];
  private appended = 0;
  private durable = 0;
  private bytesSinceSnapshot = 0;
  private flushing: Promise<void> | undefined;
  private failure: JournalWriteError | undefined;
  private closed: Promise<void> | undefined;
  private readonly waiters: { upTo: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  private readonly compactAfterBytes: number;

  constructor(
    private readonly dir: string,
    private readonly state: LocalState,
    private readonly options: JournalOptions,
    private file: FileHandle,
    private snapshotBytes: number,
    readonly load: JournalLoad,
  ) {
    this.compactAfterBytes = options.compactAfterBytes ?? 16 * 1024 * 1024;
  }

  append(change: StateChange): void {
    this.queue.push(encodeChange(change));
    this.appended++;
  }

  commit(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.durable >= this.appended) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ upTo: this.appended, resolve, reject }));
    this.flushing ??= this.flush();
    return done;
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.commit().catch(() => {});
      await this.flushing;
      await this.file.close().catch(() => {});
      await unlock(this.dir);
    })();
    return this.closed;
  }

  /** Writes batches until the queue is empty: one write + fdatasync per batch, then the batch's waiters go. */
  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0 && this.failure === undefined) {
        const upTo = this.appended;
        if (this.bytesSinceSnapshot >= this.compactAfterBytes && this.bytesSinceSnapshot >= 2 * this.snapshotBytes) {
          // The snapshot is taken from the state as it is now, which includes every queued change.
          this.queue = [];
          await this.file.close();
          this.snapshotBytes = await writeSnapshot(this.dir, this.state, this.options.nowMs());
          this.file = await open(path.join(this.dir, JOURNAL_FILE), 'a');
          this.bytesSinceSnapshot = 0;
          this.options.log(`data ${this.dir}: journal compacted to ${this.snapshotBytes} bytes`);
        } else {
          const text = this.queue.join('');
          this.queue = [];
          this.bytesSinceSnapshot += await writeAll(this.file, text);
          await this.file.datasync();
        }
        this.durable = upTo;
        this.release();
      }
    } catch (err) {
      this.failure = new JournalWriteError(err);
      this.options.log(this.failure.message);
      for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure);
    } finally {
      this.flushing = undefined;
    }
  }

  private release(): void {
    let kept = 0;
    for (const waiter of this.waiters) {
      if (waiter.upTo <= this.durable) waiter.resolve();
      else this.waiters[kept++] = waiter;
    }
    this.waiters.length = kept;
  }
}

async function restore(dir: string, state: LocalState, nowMs: number): Promise<JournalLoad> {
  const file = path.join(dir, JOURNAL_FILE);
  const reader = new JournalReader((change) => {
    if (change.kind === 'nonce') state.nonces.restore(change.scope, change.key, change.expiresAt, nowMs);
    else state.store.restore(change);
  });
  let read;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) reader.push(chunk as Buffer);
    read = reader.end();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') read = { changes: 0, tornTail: false };
    else {
      if (err instanceof JournalCorruptError) err.message = `${file}: ${err.message}`;
      throw err;
    }
  }
  return { articles: state.store.size, nonces: state.nonces.size(), changes: read.changes, tornTail: read.tornTail };
}

/**
 * Replaces the journal with the live state: written to a new file, fsynced, renamed over the journal, and the
 * directory fsynced, so a crash at any point leaves either the old journal or the new one whole.
 * @returns the number of bytes written.
 */
async function writeSnapshot(dir: string, state: LocalState, nowMs: number): Promise<number> {
  const target = path.join(dir, SNAPSHOT_FILE);
  const file = await open(target, 'w');
  let bytes = 0;
  try {
    let chunk: string[] = [];
    const changes: Iterable<StateChange>[] = [state.store.snapshot(), state.nonces.snapshot(nowMs)];
    for (const source of changes) {
      for (const change of source) {
        chunk.push(encodeChange(change));
        if (chunk.length >= 4096) {
          bytes += await writeAll(file, chunk.join(''));
          chunk = [];
        }
      }
    }
    bytes += await writeAll(file, chunk.join(''));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(target, path.join(dir, JOURNAL_FILE));
  await syncDirectory(dir);
  return bytes;
}

/** Writes all of `text` at the end of `file` (a bare `write()` may write part of it); returns its size in bytes. */
async function writeAll(file: FileHandle, text: string): Promise<number> {
  await file.appendFile(text);
  return Buffer.byteLength(text);
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Data directories held by this process (a pid lock cannot tell two servers of one process apart). */
const heldHere = new Set<string>();

/** Takes `dir/lock` (the pid inside); a lock left by a process that is gone (a `kill -9`) is taken over. */
async function lock(dir: string): Promise<void> {
  const file = path.join(dir, LOCK_FILE);
  if (heldHere.has(path.resolve(dir))) throw new DataDirInUseError(dir, process.pid);
  heldHere.add(path.resolve(dir));
  try {
    await takeLock(dir, file);
  } catch (err) {
    heldHere.delete(path.resolve(dir));
    throw err;
  }
}

async function takeLock(dir: string, file: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DataDirInUseError(dir, pid);
    await rm(file, { force: true });
  }
  throw new Error(`cannot take the lock ${file}`);
}

async function unlock(dir: string): Promise<void> {
  const file = path.join(dir, LOCK_FILE);
  const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
  if (pid === process.pid) await rm(file, { force: true });
  heldHere.delete(path.resolve(dir));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
