/**
 * Flat segment store: token ids of many sequences in one typed array, with offsets (CSR layout).
 * Sequence `i` is `tokens[offsets[i] .. offsets[i + 1])`. No object per sequence or token.
 */
export interface Csr {
  /** Token ids, all sequences back to back. */
  readonly tokens: Int32Array;
  /** `count + 1` offsets into `tokens`; `offsets[0] = 0`. */
  readonly offsets: Int32Array;
}

/** Number of sequences in a CSR store. */
export function csrCount(csr: Csr): number {
  return csr.offsets.length - 1;
}

/** Length of sequence `i`. */
export function csrLength(csr: Csr, i: number): number {
  return csr.offsets[i + 1] - csr.offsets[i];
}

/** A view (no copy) of the token ids of sequence `i`. */
export function csrRow(csr: Csr, i: number): Int32Array {
  return csr.tokens.subarray(csr.offsets[i], csr.offsets[i + 1]);
}

/** Builds a CSR store from arrays of ids (tests and small inputs; hot paths build CSR directly). */
export function csrFromArrays(rows: ArrayLike<number>[]): Csr {
  let total = 0;
  for (const r of rows) total += r.length;
  const tokens = new Int32Array(total);
  const offsets = new Int32Array(rows.length + 1);
  let at = 0;
  rows.forEach((r, i) => {
    tokens.set(r, at);
    at += r.length;
    offsets[i + 1] = at;
  });
  return { tokens, offsets };
}

/** Growable CSR builder: append sequences one by one, then `finish()`. */
export class CsrBuilder {
  private tokens: Int32Array;
  private offsets: Int32Array;
  private nTokens = 0;
  private nRows = 0;

  constructor(tokenCapacity = 1024, rowCapacity = 64) {
    this.tokens = new Int32Array(Math.max(16, tokenCapacity));
    this.offsets = new Int32Array(Math.max(2, rowCapacity + 1));
  }

  /** Appends one token to the current (open) sequence. */
  push(id: number): void {
    if (this.nTokens === this.tokens.length) {
      const grown = new Int32Array(this.tokens.length * 2);
      grown.set(this.tokens);
      this.tokens = grown;
    }
    this.tokens[this.nTokens++] = id;
  }

  /** Closes the current sequence. */
  endRow(): void {
    if (this.nRows + 2 > this.offsets.length) {
      const grown = new Int32Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.offsets[++this.nRows] = this.nTokens;
  }

  /** Number of closed sequences. */
  get rows(): number {
    return this.nRows;
  }

  /** The finished store (trimmed copies). */
  finish(): Csr {
    return { tokens: this.tokens.slice(0, this.nTokens), offsets: this.offsets.slice(0, this.nRows + 1) };
  }
}
