/** A growable list of int32 values: the flat store behind the n-best fast path's memo and CSR rows. */
export class IntList {
  /** The values (only the first `length` are meaningful; the array is replaced when it grows). */
  data: Int32Array;
  /** Number of values. */
  length = 0;

  constructor(capacity = 64) {
    this.data = new Int32Array(Math.max(4, capacity));
  }

  /** Appends one value. */
  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  /** Appends `source[from .. to]`. */
  append(source: Int32Array, from: number, to: number): void {
    const n = to - from;
    if (this.length + n > this.data.length) this.grow(this.length + n);
    // A chunk holds a token or two: a loop beats a subarray view plus `set` per call.
    const { data } = this;
    let at = this.length;
    for (let k = from; k < to; k++) data[at++] = source[k];
    this.length = at;
  }

  /** A trimmed copy of the values. */
  finish(): Int32Array {
    return this.data.slice(0, this.length);
  }

  private grow(needed: number): void {
    const grown = new Int32Array(Math.max(needed, this.data.length * 2));
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }
}
