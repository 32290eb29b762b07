/**
 * Token bounds found by the tokenizer scanners, as [start, end) pairs of UTF-16 indices into the scanned line,
 * and the joined result. Every scanner only ever splits the line and drops whitespace, so each output token is
 * a substring of the input and no string is built until the end (or ever, when the tokens are interned
 * straight from the bounds).
 */

/** A reusable list of token bounds, refilled for every line by its owner. */
export class TokenBounds {
  /**
   * Token `k` is `[bounds[2k], bounds[2k + 1])` for `k < count` (read directly by loops over every token, which
   * run long before they are optimized in a short process: a call per bound cost more than the lookup).
   */
  bounds = new Int32Array(512);
  private pieces: string[] = [];
  /** Number of tokens. */
  count = 0;

  /** Empties the list for the next line. */
  clear(): void {
    this.count = 0;
  }

  /** Start (UTF-16 index, inclusive) of token `k`. */
  start(k: number): number {
    return this.bounds[2 * k];
  }

  /** End (UTF-16 index, exclusive) of token `k`. */
  end(k: number): number {
    return this.bounds[2 * k + 1];
  }

  /** Appends the token `[start, end)`. */
  push(start: number, end: number): void {
    const at = 2 * this.count;
    if (at + 2 > this.bounds.length) {
      const grown = new Int32Array(this.bounds.length * 2);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    this.bounds[at] = start;
    this.bounds[at + 1] = end;
    this.count++;
  }

  /**
   * The tokens of `s` joined by single spaces. Tokens already separated by exactly one ASCII space in `s` are
   * copied as one piece, so a line costs one slice per edit, not per token; `s` itself is returned when it
   * needs no edit. `Array#join` builds a flat string (`+=` would leave a rope for the interner to flatten).
   */
  join(s: string): string {
    const { bounds, count, pieces } = this;
    if (count === 0) return '';
    pieces.length = 0;
    let pieceStart = bounds[0];
    let pieceEnd = bounds[1];
    for (let k = 1; k < count; k++) {
      const start = bounds[2 * k];
      if (start === pieceEnd + 1 && s.charCodeAt(pieceEnd) === 0x20) {
        pieceEnd = bounds[2 * k + 1];
      } else {
        pieces.push(s.slice(pieceStart, pieceEnd));
        pieceStart = start;
        pieceEnd = bounds[2 * k + 1];
      }
    }
    if (pieces.length === 0 && pieceStart === 0 && pieceEnd === s.length) return s;
    pieces.push(s.slice(pieceStart, pieceEnd));
    return pieces.join(' ');
  }
}

/**
 * A tokenizer in scanner form: fills `out` with the bounds of the tokens BLEU would get from `line` (the
 * Python-`split()` tokens of what the tokenizer of the same name returns) and returns the string they index
 * (the line itself, or the line after the tokenizer's own rewriting such as 13a's entity decoding).
 */
export type TokenScanner = (line: string, out: TokenBounds) => string;
