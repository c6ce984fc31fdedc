/**
 * The lanes of a run (runner/schedule.ts): how many items go at once, exclusive items alone, an item stepping aside
 * while it only waits for a clock, and spare work in lanes nobody wants. Pure admission: no HTTP, no clock.
 */
/**
 * Admission to `size` lanes. `acquire(false)` waits for a free lane; `acquire(true)` waits until no item is active
 * and then keeps every other item from starting or resuming until it is released. An item may step aside while it
 * only waits for a clock ({@link idle}): it keeps its lane but no longer counts as active, so an exclusive item
 * can run meanwhile; it resumes once no exclusive item is running. First come, first served, resumptions first: a
 * waiting exclusive item also holds back the items queued behind it, so it cannot be starved.
 */
export class Lanes {
  private readonly free: number[];
  private active = 0;
  private exclusiveHeld = false;
  private readonly queue: { kind: 'shared' | 'exclusive' | 'resume'; admit: (lane: number) => void }[] = [];
  /** Spare work: admitted only to a lane nobody in `queue` wants. */
  private readonly spare: Array<(lane: number) => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`lanes: size must be a positive integer, got ${size}`);
    // Lowest lane first, so a sequential run (size 1, or one item at a time) always uses lane 0.
    this.free = Array.from({ length: size }, (_, k) => size - 1 - k);
  }

  /** Resolves to the lane to use; give it back with {@link release}. */
  acquire(exclusive: boolean): Promise<number> {
    return new Promise((admit) => {
      this.queue.push({ kind: exclusive ? 'exclusive' : 'shared', admit });
      this.pump();
    });
  }

  /** Like `acquire(false)`, but only ever admitted to a lane that no item waiting in the queue wants. */
  acquireSpare(): Promise<number> {
    return new Promise((admit) => {
      this.spare.push(admit);
      this.pump();
    });
  }

  /**
   * A lane now, if one is free that nothing waiting wants (no queued item, no spare job, no exclusive item running):
   * for an item to run part of its own work beside itself. Undefined otherwise; never waits. Give it back with
   * {@link release}.
   */
  trySpare(): number | undefined {
    if (this.exclusiveHeld || this.queue.length > 0 || this.spare.length > 0 || this.free.length === 0)
      return undefined;
    this.active++;
    return this.free.pop()!;
  }

  /** Gives back a lane taken with {@link acquire} (from an active item). */
  release(lane: number): void {
    this.active--;
    this.exclusiveHeld = false;
    this.free.push(lane);
    this.free.sort((a, b) => b - a);
    this.pump();
  }

  /**
   * Runs `wait` with the item stepped aside (it holds its lane but is not active), then resumes it. Only for an
   * item that is not exclusive and sends nothing during `wait`. `waited` is called once `wait` is over, before the
   * item waits to resume.
   */
  async idle<T>(wait: () => Promise<T>, waited?: () => void): Promise<T> {
    this.active--;
    this.pump();
    try {
      return await wait();
    } finally {
      waited?.();
      await new Promise<number>((admit) => {
        // Resumptions go first: the item already holds a lane and only waits for an exclusive one to end.
        this.queue.unshift({ kind: 'resume', admit });
        this.pump();
      });
    }
  }

  /** Items active now. */
  get running(): number {
    return this.active;
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.exclusiveHeld) {
      const head = this.queue[0]!;
      if (
        head.kind === 'exclusive'
          ? this.active > 0 || this.free.length === 0
          : head.kind === 'shared' && this.free.length === 0
      )
        return;
      this.queue.shift();
      this.active++;
      if (head.kind === 'exclusive') this.exclusiveHeld = true;
      head.admit(head.kind === 'resume' ? -1 : this.free.pop()!);
    }
    while (this.queue.length === 0 && !this.exclusiveHeld && this.spare.length > 0 && this.free.length > 0) {
      this.active++;
      this.spare.shift()!(this.free.pop()!);
    }
  }
}
