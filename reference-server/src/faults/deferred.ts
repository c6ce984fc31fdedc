/**
 * Writes a handler leaves for later (the `put-non-atomic` and `lost-update` faults), as a server writing to slow
 * storage would: a request `handleAsync` serves (through {@link DeferredWrites.served}) has them run after a wait of
 * 0–9 ms, once its answer is ready; any other request (`handle`, a cluster's passes) runs them at once.
 */
import type { RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, Serve, ServerState } from '../types.js';

/** The writes left for later by the requests of one server. */
export class DeferredWrites {
  private readonly pending = new WeakMap<RequestRecord, () => void>();
  private readonly waiting = new WeakSet<RequestRecord>();

  /** Runs `write` once the answer to `req` is ready (after any write it left before), or now for a request served at once. */
  later(req: RequestRecord, write: () => void): void {
    if (!this.waiting.has(req)) return write();
    const before = this.pending.get(req);
    this.pending.set(
      req,
      before === undefined
        ? write
        : () => {
            before();
            write();
          },
    );
  }

  /** The `served` hook: the request's answer, then a wait of 0–9 ms, then the writes it left. */
  readonly served = async (
    req: RequestRecord,
    state: ServerState,
    deps: HandlerDeps,
    next: Serve,
  ): Promise<ResponseRecord> => {
    this.waiting.add(req);
    try {
      const response = await next(req, state, deps);
      const rest = this.pending.get(req);
      this.pending.delete(req);
      if (rest !== undefined) {
        await new Promise<void>((resolve) => setTimeout(resolve, Math.floor(Math.random() * 10)));
        rest();
      }
      return response;
    } finally {
      this.waiting.delete(req);
    }
  };
}
