/**
 * A thread's reusable store for a task's statistics rows. A task's rows (hundreds of KB) used to be a new
 * `Float64Array` each: memory outside V8's heap, whose allocation counts towards the external-memory limit that
 * starts a full garbage collection every few dozen tasks. The rows of a task are read (encoded, copied into the
 * row kernel) before the thread's next task, so one store grown as needed serves every task of the thread.
 */
export class RowBuffer {
  private store = new Float64Array(0);

  /**
   * `length` zeros, in the store (grown to at least twice its size when too small, never shrunk): valid until the
   * next call, which overwrites them.
   */
  zeros(length: number): Float64Array {
    const rows = this.space(length);
    rows.fill(0);
    return rows;
  }

  /** {@link zeros} without the zeros: whatever the store held (for a caller that writes every value). */
  space(length: number): Float64Array {
    if (this.store.length < length) this.store = new Float64Array(Math.max(length, 2 * this.store.length));
    return this.store.subarray(0, length);
  }
}
