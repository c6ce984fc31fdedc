/** Judging requests sent at once: is there an order of them that explains every answer? */

/**
 * Linearizability of requests sent at once: the orders (every permutation: the requests overlap in time) in which
 * applying them one by one to `initial` explains every answer, each order's end state kept when `final` accepts it.
 * `answers[i](state)` judges request i's answer in `state` and returns the state after it, or undefined when the
 * answer is impossible there. At most 6 requests (720 orders).
 */
export function linearizations<S>(
  initial: S,
  answers: ReadonlyArray<(state: S) => S | undefined>,
  final: (state: S) => boolean = () => true,
): Array<{ order: number[]; state: S }> {
  if (answers.length > 6) throw new RangeError('linearizations: at most 6 concurrent requests');
  const found: Array<{ order: number[]; state: S }> = [];
  const walk = (state: S, order: number[], left: number[]) => {
    if (left.length === 0) {
      if (final(state)) found.push({ order, state });
      return;
    }
    for (const i of left) {
      const next = answers[i]!(state);
      if (next !== undefined)
        walk(
          next,
          [...order, i],
          left.filter((j) => j !== i),
        );
    }
  };
  walk(
    initial,
    [],
    answers.map((_, i) => i),
  );
  return found;
}
