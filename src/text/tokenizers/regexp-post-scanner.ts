/**
 * A char-code scanner that computes exactly what `regexpPost` (sacrebleu's `TokenizerRegexp`) computes, in one
 * pass and without intermediate strings.
 *
 * Each `re.sub` of the regex stage is a leftmost, non-overlapping rewrite of a two-character pattern `(X)(Y)`,
 * which is a one-character-lookahead transducer: hold the previous character; when the next one completes the
 * pattern, emit the replacement and drop both, else emit the held character and hold the new one. The four
 * substitutions plus the final whitespace split are chained as five such stages, fed one code unit at a time.
 * Only spaces are ever inserted, so every output token is a run of consecutive source characters: the last
 * stage records [start, end) of each token instead of building strings, and the result is the input itself
 * whenever it is already tokenized. `test/text-13a-scanner.test.ts` checks it against the regex version.
 */
import { isPyWhitespace } from '../unicode/whitespace.js';

const SPACE = 0x20;
const NONE = -2; // "no held character" in a stage
const VIRTUAL = -1; // index of an inserted space (not a source character)

// Stage 1: ASCII punctuation split off unconditionally, the class `[{-~[-` -&(-+:-@/]` (space included).
const SPLIT_ALWAYS = new Uint8Array(128);
for (const [a, b] of [
  [0x7b, 0x7e],
  [0x5b, 0x60],
  [0x20, 0x26],
  [0x28, 0x2b],
  [0x3a, 0x40],
  [0x2f, 0x2f],
]) {
  SPLIT_ALWAYS.fill(1, a, b + 1);
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isPeriodComma = (c: number): boolean => c === 0x2e || c === 0x2c;

/** The scanner's state; one instance is reused for every line (not re-entrant). */
class RegexpPostScanner {
  private src = '';
  // Held character of stages 2, 3 and 4: code unit and source index (VIRTUAL for an inserted space).
  private c2 = 0;
  private i2 = NONE;
  private c3 = 0;
  private i3 = NONE;
  private c4 = 0;
  private i4 = NONE;
  // Stage 5: the open token, or tokStart = -1.
  private tokStart = -1;
  private tokEnd = -1;
  /** Token bounds, [start, end) pairs into `src`. */
  bounds = new Int32Array(256);
  count = 0;

  run(src: string, pad: boolean): string {
    this.src = src;
    this.i2 = this.i3 = this.i4 = NONE;
    this.tokStart = -1;
    this.count = 0;
    if (pad) this.s1(SPACE, VIRTUAL);
    const n = src.length;
    for (let i = 0; i < n; i++) this.s1(src.charCodeAt(i), i);
    if (pad) this.s1(SPACE, VIRTUAL);
    this.flush();
    return this.result();
  }

  // Stage 1: ` \1 ` around the always-split ASCII punctuation.
  private s1(c: number, i: number): void {
    if (c < 128 && SPLIT_ALWAYS[c] === 1) {
      this.s2(SPACE, VIRTUAL);
      this.s2(c, i);
      this.s2(SPACE, VIRTUAL);
    } else {
      this.s2(c, i);
    }
  }

  // Stage 2: `([^0-9])([.,])` → `\1 \2 `.
  private s2(c: number, i: number): void {
    const hc = this.c2;
    const hi = this.i2;
    if (hi !== NONE && !isDigit(hc) && isPeriodComma(c)) {
      this.i2 = NONE;
      this.s3(hc, hi);
      this.s3(SPACE, VIRTUAL);
      this.s3(c, i);
      this.s3(SPACE, VIRTUAL);
      return;
    }
    if (hi !== NONE) this.s3(hc, hi);
    this.c2 = c;
    this.i2 = i;
  }

  // Stage 3: `([.,])([^0-9])` → ` \1 \2`.
  private s3(c: number, i: number): void {
    const hc = this.c3;
    const hi = this.i3;
    if (hi !== NONE && isPeriodComma(hc) && !isDigit(c)) {
      this.i3 = NONE;
      this.s4(SPACE, VIRTUAL);
      this.s4(hc, hi);
      this.s4(SPACE, VIRTUAL);
      this.s4(c, i);
      return;
    }
    if (hi !== NONE) this.s4(hc, hi);
    this.c3 = c;
    this.i3 = i;
  }

  // Stage 4: `([0-9])(-)` → `\1 \2 `.
  private s4(c: number, i: number): void {
    const hc = this.c4;
    const hi = this.i4;
    if (hi !== NONE && isDigit(hc) && c === 0x2d) {
      this.i4 = NONE;
      this.s5(hc, hi);
      this.s5(SPACE, VIRTUAL);
      this.s5(c, i);
      this.s5(SPACE, VIRTUAL);
      return;
    }
    if (hi !== NONE) this.s5(hc, hi);
    this.c4 = c;
    this.i4 = i;
  }

  // Stage 5: Python `split()`: whitespace (inserted or from the source) ends a token.
  private s5(c: number, i: number): void {
    if (i === VIRTUAL || isPyWhitespace(c)) {
      if (this.tokStart >= 0) this.closeToken();
    } else if (this.tokStart < 0) {
      this.tokStart = i;
      this.tokEnd = i + 1;
    } else {
      this.tokEnd = i + 1;
    }
  }

  private closeToken(): void {
    if (this.count * 2 + 2 > this.bounds.length) {
      const grown = new Int32Array(this.bounds.length * 2);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    this.bounds[this.count * 2] = this.tokStart;
    this.bounds[this.count * 2 + 1] = this.tokEnd;
    this.count++;
    this.tokStart = -1;
  }

  private flush(): void {
    if (this.i2 !== NONE) {
      const c = this.c2;
      const i = this.i2;
      this.i2 = NONE;
      this.s3(c, i);
    }
    if (this.i3 !== NONE) {
      const c = this.c3;
      const i = this.i3;
      this.i3 = NONE;
      this.s4(c, i);
    }
    if (this.i4 !== NONE) {
      const c = this.c4;
      const i = this.i4;
      this.i4 = NONE;
      this.s5(c, i);
    }
    if (this.tokStart >= 0) this.closeToken();
  }

  private result(): string {
    const { src, bounds, count } = this;
    if (count === 0) return '';
    // Already tokenized (single ASCII spaces between tokens, nothing around): return the input, no copy.
    let same = bounds[0] === 0 && bounds[count * 2 - 1] === src.length;
    for (let k = 1; same && k < count; k++) {
      const prevEnd = bounds[2 * k - 1];
      same = bounds[2 * k] === prevEnd + 1 && src.charCodeAt(prevEnd) === SPACE;
    }
    if (same) return src;
    let out = src.slice(bounds[0], bounds[1]);
    for (let k = 1; k < count; k++) out += ' ' + src.slice(bounds[2 * k], bounds[2 * k + 1]);
    return out;
  }
}

const scanner = new RegexpPostScanner();

/**
 * sacrebleu's `TokenizerRegexp` stage on `line` (padded with one space each side first when `pad`, as 13a
 * does), computed by the scanner; equal to `regexpPost(pad ? ' ' + line + ' ' : line)`.
 */
export function regexpPostScan(line: string, pad: boolean): string {
  return scanner.run(line, pad);
}
