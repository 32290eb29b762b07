/**
 * Corresponding noun phrases (seed 003 §2.1): the similarity of a hypothesis NP h and a reference NP r is the
 * F-measure ({@link gammaF}) of the two PER ratios match/|h| (precision) and match/|r| (recall), match being the
 * size of the multiset intersection of their words (position-independent, as PER). h and r correspond when each is
 * the other's most similar phrase and the similarity is above 0.
 *
 * Ties: a pair corresponds when its similarity is the maximum of its row and of its column (ties allowed), and a
 * phrase takes the first (leftmost) such partner still free. The paper's Figure 1 needs ties: "the crowning fall" is
 * as similar to "the amount" as to "crowning drop" (0.3714 both), and corresponds to "crowning drop" because
 * "the amount" is the best match of the hypothesis's "the amount" (1.0).
 */
import { gammaF } from './f-measure.js';

/** Reusable scratch state; {@link NpCorrespondence.find} fills `hypPartner`/`refPartner`. */
export class NpCorrespondence {
  private sim = new Float64Array(0);
  private taken = new Uint8Array(0);
  private rowMax = new Float64Array(0);
  private colMax = new Float64Array(0);
  private nr = 0;
  /** For hypothesis NP k (k below the last `nh`), the index of its corresponding reference NP, or −1. */
  hypPartner = new Int32Array(16);
  /** For reference NP k (k below the last `nr`), the index of its corresponding hypothesis NP, or −1. */
  refPartner = new Int32Array(16);

  /**
   * Finds the correspondences between the hypothesis NPs (`hypSpans[hs, hs + 2·nh)`, word indices into
   * `hyp[hOff…]`) and the reference NPs. Returns the number of corresponding pairs.
   */
  find(
    hyp: Int32Array,
    hOff: number,
    hypSpans: Int32Array,
    hs: number,
    nh: number,
    ref: Int32Array,
    rOff: number,
    refSpans: Int32Array,
    rs: number,
    nr: number,
  ): number {
    this.reserve(nh, nr);
    const { sim, rowMax, colMax, hypPartner, refPartner } = this;
    for (let x = 0; x < nh; x++) {
      const h0 = hOff + hypSpans[hs + 2 * x];
      const hLen = hypSpans[hs + 2 * x + 1] - hypSpans[hs + 2 * x];
      for (let y = 0; y < nr; y++) {
        const r0 = rOff + refSpans[rs + 2 * y];
        const rLen = refSpans[rs + 2 * y + 1] - refSpans[rs + 2 * y];
        const match = this.bagMatch(hyp, h0, hLen, ref, r0, rLen);
        sim[x * nr + y] = match === 0 ? 0 : gammaF(match / rLen, match / hLen);
      }
    }
    // Row and column maxima; a pair corresponds when its similarity is above 0 and the maximum of both.
    for (let x = 0; x < nh; x++) {
      let best = 0;
      for (let y = 0; y < nr; y++) best = Math.max(best, sim[x * nr + y]);
      rowMax[x] = best;
    }
    for (let y = 0; y < nr; y++) {
      let best = 0;
      for (let x = 0; x < nh; x++) best = Math.max(best, sim[x * nr + y]);
      colMax[y] = best;
    }
    hypPartner.fill(-1, 0, nh);
    refPartner.fill(-1, 0, nr);
    let pairs = 0;
    for (let x = 0; x < nh; x++) {
      for (let y = 0; y < nr; y++) {
        const s = sim[x * nr + y];
        if (s > 0 && s === rowMax[x] && s === colMax[y] && refPartner[y] < 0) {
          hypPartner[x] = y;
          refPartner[y] = x;
          pairs++;
          break;
        }
      }
    }
    return pairs;
  }

  /** Similarity of hypothesis NP x and reference NP y from the last {@link find}. */
  similarity(x: number, y: number): number {
    return this.sim[x * this.nr + y];
  }

  /** Size of the multiset intersection of two word ranges (NPs are short: quadratic with a taken-flag per word). */
  private bagMatch(a: Int32Array, a0: number, an: number, b: Int32Array, b0: number, bn: number): number {
    const taken = this.taken;
    if (taken.length < bn) this.taken = new Uint8Array(Math.max(bn, 2 * taken.length));
    this.taken.fill(0, 0, bn);
    let match = 0;
    for (let p = 0; p < an; p++) {
      const w = a[a0 + p];
      for (let q = 0; q < bn; q++) {
        if (this.taken[q] === 0 && b[b0 + q] === w) {
          this.taken[q] = 1;
          match++;
          break;
        }
      }
    }
    return match;
  }

  private reserve(nh: number, nr: number): void {
    if (this.sim.length < nh * nr) this.sim = new Float64Array(Math.max(nh * nr, 2 * this.sim.length));
    if (this.rowMax.length < nh) this.rowMax = new Float64Array(Math.max(nh, 2 * this.rowMax.length));
    if (this.colMax.length < nr) this.colMax = new Float64Array(Math.max(nr, 2 * this.colMax.length));
    if (this.hypPartner.length < nh) this.hypPartner = new Int32Array(Math.max(nh, 2 * this.hypPartner.length));
    if (this.refPartner.length < nr) this.refPartner = new Int32Array(Math.max(nr, 2 * this.refPartner.length));
    this.nr = nr;
  }
}
