/**
 * A growable byte buffer that `palette nbest`'s encoders write into: numbers go straight to ASCII digits, so a
 * task's statistics become bytes without a string per number, per row or per block (the old path built ~30 strings
 * per candidate, then joined and re-encoded them: most of the encoding time and much of the garbage of a run).
 *
 * {@link ByteOut.number} writes exactly `String(v)`, JavaScript's shortest round-trip form, which is what SCORES_TXT
 * and JSON hold (test/byte-out.test.ts checks it against `String` on random doubles):
 * - an integer of magnitude < 2³¹: its digits;
 * - a value equal to the double nearest k / 10⁵ for an integer k with 10⁻⁵ ≤ |v| < 21474 (ROUGE-1.5.5's rounded
 *   scores): the digits of k with the point five places from the right, trailing zeros dropped. That decimal is the
 *   unique shortest one: any other decimal with at most five fraction digits is ≥ 10⁻⁵ away, while neighbouring
 *   doubles below 21474 are < 4·10⁻¹² apart, so no shorter decimal rounds to the same double;
 * - anything else: `String(v)`, memoised (ratios such as ROUGE-L's P, R, F repeat a lot within a list).
 */

/** Decimal point position of the rounded-score form. */
const SCALE = 100000;
/** Distinct non-integer values remembered before the memo starts afresh. */
const MEMO_LIMIT = 1 << 16;

const U32 = new Uint32Array(1);
const U32_BYTES = new Uint8Array(U32.buffer);
const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);

export class ByteOut {
  private buf: Uint8Array;
  private pos = 0;
  private readonly memo = new Map<number, string>();
  private readonly encoder = new TextEncoder();

  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(capacity);
  }

  /** Bytes written since the last {@link take}. */
  get length(): number {
    return this.pos;
  }

  /** Makes room for `n` more bytes. */
  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(2 * this.buf.length, this.pos + n));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  /** Appends one byte. */
  byte(b: number): void {
    this.reserve(1);
    this.buf[this.pos++] = b;
  }

  /** Appends the decimal digits of a non-negative integer < 2³¹. */
  private digits(n: number): void {
    let len = 1;
    for (let p = 10; p <= n; p *= 10) len++;
    this.reserve(len);
    const buf = this.buf;
    let at = this.pos + len;
    this.pos = at;
    do {
      const q = (n / 10) | 0;
      buf[--at] = 0x30 + n - q * 10;
      n = q;
    } while (n > 0);
  }

  /** Appends a string that holds only ASCII (numbers' text, header words). */
  private ascii(s: string): void {
    const n = s.length;
    this.reserve(n);
    const buf = this.buf;
    let at = this.pos;
    for (let i = 0; i < n; i++) buf[at++] = s.charCodeAt(i);
    this.pos = at;
  }

  /** Appends `s[from, to)`, which holds only ASCII (a number's text copied from its line). */
  asciiRange(s: string, from: number, to: number): void {
    this.reserve(to - from);
    const buf = this.buf;
    let at = this.pos;
    for (let i = from; i < to; i++) buf[at++] = s.charCodeAt(i);
    this.pos = at;
  }

  /** Appends any text as UTF-8. */
  text(s: string): void {
    this.reserve(3 * s.length);
    this.pos += this.encoder.encodeInto(s, this.buf.subarray(this.pos)).written;
  }

  /** Appends raw bytes. */
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Appends `String(v)` (see the file comment). */
  number(v: number): void {
    let a = v;
    if (a < 0) {
      a = -a;
      if (a <= 0x7fffffff && Math.floor(a) === a) {
        this.byte(0x2d);
        this.digits(a);
        return;
      }
    } else if (a <= 0x7fffffff && Math.floor(a) === a) {
      // -0 lands here too, written "0" as String(-0).
      this.digits(a);
      return;
    }
    if (a >= 1 / SCALE && a < 21474) {
      const k = Math.round(a * SCALE);
      if (k / SCALE === a) {
        if (v < 0) this.byte(0x2d);
        const whole = Math.floor(k / SCALE);
        let frac = k - whole * SCALE;
        this.digits(whole);
        // frac > 0: a whole k was taken by the integer branch above.
        let places = 5;
        while (frac % 10 === 0) {
          frac /= 10;
          places--;
        }
        this.reserve(places + 1);
        const buf = this.buf;
        buf[this.pos] = 0x2e;
        let at = this.pos + places;
        this.pos = at + 1;
        for (let p = 0; p < places; p++) {
          const q = Math.floor(frac / 10);
          buf[at--] = 0x30 + frac - q * 10;
          frac = q;
        }
        return;
      }
    }
    let s = this.memo.get(v);
    if (s === undefined) {
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      s = String(v);
      this.memo.set(v, s);
    }
    this.ascii(s);
  }

  /** Appends an unsigned 32-bit integer in the platform's byte order (the binary rows of ./rows.ts). */
  uint32(v: number): void {
    U32[0] = v;
    this.bytes(U32_BYTES);
  }

  /** Appends the 8 bytes of a double in the platform's byte order (the binary rows of ./rows.ts). */
  float64(v: number): void {
    F64[0] = v;
    this.bytes(F64_BYTES);
  }

  /**
   * A copy of the bytes written since the last call (its own buffer, so it can be transferred); starts afresh. With
   * `spare` (arrays whose bytes are no longer needed), the copy goes into the first one long enough, taken off the
   * list, and is a view of its first bytes; when none is, into a new array with room to spare (for a later, slightly
   * longer take).
   */
  take(spare?: Uint8Array[]): Uint8Array {
    const n = this.pos;
    this.pos = 0;
    if (spare === undefined) return this.buf.slice(0, n);
    let target: Uint8Array | undefined;
    for (let i = 0; i < spare.length; i++) {
      if (spare[i].length >= n) {
        target = spare[i];
        spare[i] = spare[spare.length - 1];
        spare.pop();
        break;
      }
    }
    target ??= new Uint8Array(n + (n >> 2));
    target.set(this.buf.subarray(0, n));
    return target.subarray(0, n);
  }
}
