/**
 * The merged breakpoints of a MERT line search (Moses' `thresholds` map in `Optimizer::LineOptimize`: x → the
 * changes of 1-best at x, in order) in flat typed arrays, reused from one line search to the next.
 *
 * A change is a record (sentence, new row); the changes at one x form a list, chained through the records in the
 * order they were added; a hash table finds the list of an x. Moses' merge of a breakpoint closer than 1e-4 to the
 * sentence's previous one moves or appends that previous list whole, which here relinks a chain instead of copying
 * an array. The list at −FLT_MAX (x = −∞) is always there, as in Moses; its changes are never applied.
 */

/** Largest single-precision float (Moses' MAX_FLOAT). */
const FLT_MAX = 3.4028234663852886e38;
/** Moses' MIN_INTERVAL: a sentence's breakpoint closer than this to its previous one replaces it. */
const MIN_INTERVAL = Math.fround(0.0001);
const f32 = Math.fround;
/** Hash table slots: no list ever here, and a list that was removed. */
const EMPTY = -1;
const REMOVED = -2;

/** The bits of a double, to hash a key. */
const keyBits = new Float64Array(1);
const keyWords = new Int32Array(keyBits.buffer);

export class Breakpoints {
  /** Per record: sentence, new 1-best row, next record of its list (−1 at the end). */
  recSentence = new Int32Array(1024);
  recRow = new Int32Array(1024);
  recNext = new Int32Array(1024);
  private records = 0;
  /** Changes recorded since the last {@link reset} (some may sit in lists no longer in the table). */
  get recordCount(): number {
    return this.records;
  }
  /** Per list: its x, first and last record (−1 when empty). */
  listKey = new Float64Array(1024);
  listHead = new Int32Array(1024);
  listTail = new Int32Array(1024);
  private lists = 0;
  /** Open addressing, linear probing: a list index, EMPTY or REMOVED. */
  private slots = new Int32Array(2048).fill(EMPTY);
  private bits = 11;
  /** Slots not EMPTY (lists and REMOVED marks). */
  private used = 0;
  /** Lists in the table. */
  private live = 0;
  /** After {@link sorted}: the lists in increasing x. */
  order = new Int32Array(1024);
  keys = new Float64Array(1024);

  /** Empties the table and puts the list at −FLT_MAX (index 0) in it. */
  reset(): void {
    this.records = 0;
    this.lists = 0;
    this.slots.fill(EMPTY);
    this.used = 0;
    this.live = 0;
    this.insert(this.newList(-FLT_MAX));
  }

  /**
   * Adds one sentence's envelope walk (its changes at `stepX[from + k]` to row `stepRow[from + k]`,
   * k = 1 .. steps − 1), merged as Moses merges them:
   * - a breakpoint at least MIN_INTERVAL right of the sentence's previous one (in float) joins the list at its x
   *   (a new one if none), or replaces the sentence's change there when that list ends with it;
   * - a closer one (or one to the left) takes the previous breakpoint's whole list (every sentence's changes that
   *   shared that x) to its own x, after the changes already there, and the sentence's last change in it becomes
   *   the new row; at the same x, only that row changes.
   */
  addSentence(s: number, steps: number, stepX: Float32Array | Float64Array, stepRow: Int32Array, from = 0): void {
    // The sentence's previous breakpoint and its list, which ends with the sentence's change there (the list at
    // −FLT_MAX to begin with).
    let prevKey = -FLT_MAX;
    let prev = 0;
    for (let k = from + 1; k < from + steps; k++) {
      const nextX = stepX[k];
      const next = stepRow[k];
      if (f32(nextX - prevKey) < MIN_INTERVAL) {
        if (nextX !== prevKey) {
          const there = this.find(nextX);
          this.remove(prev);
          if (there < 0) {
            // + 0: a key −0 is stored as +0 (as a Map stores it).
            this.listKey[prev] = nextX + 0;
            this.insert(prev);
          } else {
            this.splice(prev, there);
            prev = there;
          }
          prevKey = nextX;
        }
        const tail = this.listTail[prev];
        if (tail >= 0) this.recRow[tail] = next;
      } else {
        let there = this.find(nextX);
        if (there < 0) {
          there = this.newList(nextX);
          this.insert(there);
          this.append(there, s, next);
        } else {
          const tail = this.listTail[there];
          if (tail >= 0 && this.recSentence[tail] === s) this.recRow[tail] = next;
          else this.append(there, s, next);
        }
        prev = there;
        prevKey = nextX;
      }
    }
  }

  private slotOf(x: number): number {
    // + 0: −0 and +0 are one key (as in a Map).
    keyBits[0] = x + 0;
    return Math.imul(keyWords[0] ^ keyWords[1], 0x9e3779b1) >>> (32 - this.bits);
  }

  /** The list at x, or −1. */
  find(x: number): number {
    const mask = this.slots.length - 1;
    for (let i = this.slotOf(x); ; i = (i + 1) & mask) {
      const v = this.slots[i];
      if (v === EMPTY) return -1;
      if (v >= 0 && this.listKey[v] === x) return v;
    }
  }

  /** Puts list `l` (whose x no list in the table has) into the table. */
  insert(l: number): void {
    if (2 * (this.used + 1) > this.slots.length) this.rehash();
    const mask = this.slots.length - 1;
    let i = this.slotOf(this.listKey[l]);
    while (this.slots[i] >= 0) i = (i + 1) & mask;
    if (this.slots[i] === EMPTY) this.used++;
    this.slots[i] = l;
    this.live++;
  }

  /** Takes list `l` out of the table. */
  remove(l: number): void {
    const mask = this.slots.length - 1;
    let i = this.slotOf(this.listKey[l]);
    while (this.slots[i] !== l) i = (i + 1) & mask;
    this.slots[i] = REMOVED;
    this.live--;
  }

  /** Grows the table when the lists alone would fill more than a quarter of it, and drops the REMOVED marks. */
  private rehash(): void {
    const old = this.slots;
    if (4 * (this.live + 1) > old.length) this.bits++;
    this.slots = new Int32Array(1 << this.bits).fill(EMPTY);
    this.used = 0;
    this.live = 0;
    const mask = this.slots.length - 1;
    for (let k = 0; k < old.length; k++) {
      const l = old[k];
      if (l < 0) continue;
      let i = this.slotOf(this.listKey[l]);
      while (this.slots[i] !== EMPTY) i = (i + 1) & mask;
      this.slots[i] = l;
      this.used++;
      this.live++;
    }
  }

  /** A new empty list at x (not yet in the table); x = −0 is stored as +0. */
  newList(x: number): number {
    if (this.lists === this.listKey.length) {
      const n = 2 * this.lists;
      this.listKey = grow(this.listKey, new Float64Array(n));
      this.listHead = grow(this.listHead, new Int32Array(n));
      this.listTail = grow(this.listTail, new Int32Array(n));
    }
    const l = this.lists++;
    this.listKey[l] = x + 0;
    this.listHead[l] = -1;
    this.listTail[l] = -1;
    return l;
  }

  /** Appends the change (sentence s, row) to list `l`. */
  append(l: number, s: number, row: number): void {
    if (this.records === this.recRow.length) {
      const n = 2 * this.records;
      this.recSentence = grow(this.recSentence, new Int32Array(n));
      this.recRow = grow(this.recRow, new Int32Array(n));
      this.recNext = grow(this.recNext, new Int32Array(n));
    }
    const r = this.records++;
    this.recSentence[r] = s;
    this.recRow[r] = row;
    this.recNext[r] = -1;
    const tail = this.listTail[l];
    if (tail < 0) this.listHead[l] = r;
    else this.recNext[tail] = r;
    this.listTail[l] = r;
  }

  /** Moves every change of list `from` to the end of list `to` (`from` is left empty). */
  splice(from: number, to: number): void {
    const head = this.listHead[from];
    if (head < 0) return;
    const tail = this.listTail[to];
    if (tail < 0) this.listHead[to] = head;
    else this.recNext[tail] = head;
    this.listTail[to] = this.listTail[from];
    this.listHead[from] = -1;
    this.listTail[from] = -1;
  }

  /** The lists in the table by increasing x into `order` and their x into `keys`; returns how many. */
  sorted(): number {
    const n = this.live;
    if (this.keys.length < n) {
      this.keys = new Float64Array(2 * n);
      this.order = new Int32Array(2 * n);
    }
    const keys = this.keys;
    let k = 0;
    for (let i = 0; i < this.slots.length; i++) {
      const l = this.slots[i];
      if (l >= 0) keys[k++] = this.listKey[l];
    }
    // The keys are distinct (−0 and +0 are never both there), so each one names its list.
    keys.subarray(0, n).sort();
    for (let i = 0; i < n; i++) this.order[i] = this.find(keys[i]);
    return n;
  }
}

function grow<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
