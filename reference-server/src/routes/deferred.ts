/**
 * Writes a handler leaves for later (the `put-non-atomic` fault only): the synchronous {@link handle} runs them at
 * once, {@link handleAsync} after an await, as a server writing field by field to slow storage would.
 */
import type { RequestRecord } from '../records.js';

const pending = new WeakMap<RequestRecord, () => void>();

/** Leaves `write` to be run after the handler of `req` has answered. */
export function deferWrite(req: RequestRecord, write: () => void): void {
  pending.set(req, write);
}

/** The write `req` left for later, removed; undefined when none. */
export function takeDeferredWrite(req: RequestRecord): (() => void) | undefined {
  const write = pending.get(req);
  pending.delete(req);
  return write;
}
