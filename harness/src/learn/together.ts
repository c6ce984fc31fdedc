/**
 * Questions of the learning asked together (each on a connection of its own) and reported as if asked one after
 * another: each records its exchanges into its own list, and the lists are appended in the order the questions were
 * asked once all are answered. So the report, and everything concluded from it, is what the sequential learning gave.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RawExchange } from '../runner/exec-types.js';

export interface OrderedExchanges {
  /** Records one exchange: into the list of the question being asked together, else straight into `exchanges`. */
  record(exchange: RawExchange): void;
  /** Runs `tasks` at once; their results, and the exchanges they recorded, in the order given. */
  together<T>(tasks: ReadonlyArray<() => Promise<T>>): Promise<T[]>;
}

export function orderedExchanges(exchanges: RawExchange[]): OrderedExchanges {
  const own = new AsyncLocalStorage<RawExchange[]>();
  const record = (exchange: RawExchange) => void (own.getStore() ?? exchanges).push(exchange);
  return {
    record,
    async together(tasks) {
      const lists = tasks.map((): RawExchange[] => []);
      const out = await Promise.all(tasks.map((task, k) => own.run(lists[k]!, task)));
      // Back in the caller's context: into its own list when it is itself one of questions asked together.
      for (const list of lists) for (const x of list) record(x);
      return out;
    },
  };
}
