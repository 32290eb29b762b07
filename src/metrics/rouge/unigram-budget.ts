/**
 * Whole-summary unigram counts that summary-level ROUGE-L and ROUGE-W spend as they count hits (ROUGE-1.5.5's
 * `%model_1grams`/`%peer_1grams`, rouge-score's `token_cnts_r`/`token_cnts_c`): a token on the union LCS counts
 * only while both summaries still have an unused occurrence of it, so the summary-level hit never exceeds the
 * unigram overlap.
 */

/** Counts of token ids, refilled per summary; clearing costs the tokens counted, not the vocabulary. */
export class UnigramBudget {
  private counts: Int32Array;
  private touched: Int32Array;
  private nTouched = 0;

  constructor(vocabularySize = 1024) {
    this.counts = new Int32Array(Math.max(16, vocabularySize));
    this.touched = new Int32Array(64);
  }

  /** Forgets every count, then counts the ids `tokens[from, to)`. */
  fill(tokens: ArrayLike<number>, from = 0, to = tokens.length): void {
    this.clear();
    for (let i = from; i < to; i++) this.add(tokens[i]);
  }

  /** Unused occurrences of `id`. */
  available(id: number): number {
    return id < this.counts.length ? this.counts[id] : 0;
  }

  /** Uses one occurrence of `id` (the caller has checked {@link available}). */
  spend(id: number): void {
    this.counts[id]--;
  }

  /** Sets every count back to 0. */
  clear(): void {
    const { counts, touched } = this;
    for (let k = 0; k < this.nTouched; k++) counts[touched[k]] = 0;
    this.nTouched = 0;
  }

  private add(id: number): void {
    if (id >= this.counts.length) {
      const grown = new Int32Array(Math.max(id + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    if (this.counts[id] === 0) {
      if (this.nTouched === this.touched.length) {
        const grown = new Int32Array(this.touched.length * 2);
        grown.set(this.touched);
        this.touched = grown;
      }
      this.touched[this.nTouched++] = id;
    }
    this.counts[id]++;
  }
}
