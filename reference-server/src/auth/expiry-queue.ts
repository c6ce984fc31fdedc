/** One queued expiry: when it falls due and what it names. */
export interface Expiry {
  at: number;
  scope: string;
  key: string;
  /** Insertion number, so a queued entry can tell whether its record was replaced in the meantime. */
  seq: number;
}

/** A binary min-heap of expiries ordered by time (ties by insertion), popped as the clock passes them. */
export class ExpiryQueue {
  private readonly heap: Expiry[] = [];

  /** Number of queued expiries. */
  get length(): number {
    return this.heap.length;
  }

  /** The earliest expiry, or undefined when empty. */
  peek(): Expiry | undefined {
    return this.heap[0];
  }

  /** Adds one expiry in O(log n). */
  push(item: Expiry): void {
    const heap = this.heap;
    heap.push(item);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(item, heap[parent] as Expiry)) break;
      heap[i] = heap[parent] as Expiry;
      i = parent;
    }
    heap[i] = item;
  }

  /** Removes and returns the earliest expiry in O(log n). */
  pop(): Expiry | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right] as Expiry, heap[left] as Expiry) ? right : left;
      if (!before(heap[child] as Expiry, last)) break;
      heap[i] = heap[child] as Expiry;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

function before(a: Expiry, b: Expiry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
