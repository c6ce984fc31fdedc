/**
 * Writes a handler leaves for later (the `put-non-atomic` and `lost-update` faults only): the synchronous
 * {@link handle} runs them at once, {@link handleAsync} after an await, as a server writing to slow storage would.
 */
import type { RequestRecord } from '../records.js';

const pending = new WeakMap<RequestRecord, () => void>();

/** Leaves `write` to be run after the handler of `req` has answered, after any write it left before. */
export function deferWrite(req: RequestRecord, write: () => void): void {
  const before = pending.get(req);
  pending.set(
    req,
    before === undefined
      ? write
      : () => {
          before();
          write();
        },
  );
}

/** The write `req` left for later, removed; undefined when none. */
export function takeDeferredWrite(req: RequestRecord): (() => void) | undefined {
  const write = pending.get(req);
  pending.delete(req);
  return write;
}
