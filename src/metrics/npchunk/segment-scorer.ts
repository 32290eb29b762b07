/**
 * One hypothesis against its references, seed 003 §2.2–2.4:
 * - word level (eqs. 3–5): S = Σ_{i=0}^{RN} α^i Σ_c length(c)^β from the common-part rounds, R = (S/m^β)^{1/β},
 *   P = (S/n^β)^{1/β} (m reference words, n hypothesis words); with several references R and P are each the
 *   maximum over the references (eqs. 6–7) and score_wd = F(R, P) (eq. 8; {@link gammaF});
 * - phrase level (eqs. 9–11): both sentences are generalised to their noun-phrase sequences (a corresponding pair
 *   shares one label, other phrases match nothing), the same rounds give S_np, and
 *   R_np = (S_np / (m_cnp·√m_no_cnp)^β)^{1/β}, P_np likewise with n_cnp, n_no_cnp (counts of corresponding and
 *   other phrases; a count of 0 other phrases is taken as 1, as the paper says); with no corresponding phrase
 *   score_np = 0. Several references: the mean of score_np (eq. 12);
 * - the final score (eq. 13): (score_wd + δ·score_np)/(1 + δ).
 * The route choice of the word level weighs words of corresponding phrases 2 (eq. 2); IMPACT is the word level with
 * every weight 1 and no phrase level.
 */
import { CommonPartSearch, type CommonPartParams } from './common-parts.js';
import { NpCorrespondence } from './correspondence.js';
import { gammaF } from './f-measure.js';
import type { ChunkedCorpus } from './chunked-corpus.js';

/** Parameters of the NP-chunk metric (IMPACT uses α, β, RN). */
export interface NpChunkParams extends CommonPartParams {
  /** δ of eq. 13, the weight of the phrase level. */
  readonly delta: number;
}

/** Per-segment results, written by {@link SegmentScorer.score}. */
export interface SegmentResult {
  score: number;
  wordScore: number;
  phraseScore: number;
  wordRecall: number;
  wordPrecision: number;
}

/** Word-level R or P of eqs. 3–4: (S / len^β)^{1/β}, 0 for an empty side. */
function levelRatio(sum: number, length: number, beta: number): number {
  return length === 0 ? 0 : Math.pow(sum / Math.pow(length, beta), 1 / beta);
}

/** Scores segments; holds the scratch state of the searches (one instance per thread). */
export class SegmentScorer {
  private readonly words: CommonPartSearch;
  private readonly phrases: CommonPartSearch;
  private readonly correspondence = new NpCorrespondence();
  private pairA = new Int32Array(64);
  private pairB = new Int32Array(64);
  private labelsA = new Int32Array(16);
  private labelsB = new Int32Array(16);

  /** @param useNps false: IMPACT (unit weights, no phrase level). */
  constructor(
    private readonly params: NpChunkParams,
    private readonly useNps: boolean,
  ) {
    this.words = new CommonPartSearch(params);
    this.phrases = new CommonPartSearch(params);
  }

  /** The word-level search, whose `rounds` trace the last pair scored. */
  get wordSearch(): CommonPartSearch {
    return this.words;
  }

  /**
   * Scores hypothesis row `h` of `hyps` against reference rows `r0 … r1 − 1` of `refs`, into `out`.
   */
  score(hyps: ChunkedCorpus, h: number, refs: ChunkedCorpus, r0: number, r1: number, out: SegmentResult): void {
    const { beta, delta } = this.params;
    const hw = hyps.words;
    const hOff = hw.offsets[h];
    const n = hw.offsets[h + 1] - hOff;
    let bestR = 0;
    let bestP = 0;
    let phraseTotal = 0;
    for (let r = r0; r < r1; r++) {
      const rw = refs.words;
      const rOff = rw.offsets[r];
      const m = rw.offsets[r + 1] - rOff;
      let sum: number;
      if (this.useNps) {
        sum = this.wordSumWithNps(hyps, h, hOff, n, refs, r, rOff, m);
        phraseTotal += this.phraseScore(hyps, h, refs, r);
      } else {
        sum = this.words.run(hw.tokens, hOff, n, rw.tokens, rOff, m, null, null);
      }
      bestR = Math.max(bestR, levelRatio(sum, m, beta));
      bestP = Math.max(bestP, levelRatio(sum, n, beta));
    }
    const nRefs = r1 - r0;
    const wordScore = gammaF(bestR, bestP);
    const phraseScore = this.useNps && nRefs > 0 ? phraseTotal / nRefs : 0;
    out.wordRecall = bestR;
    out.wordPrecision = bestP;
    out.wordScore = wordScore;
    out.phraseScore = phraseScore;
    out.score = this.useNps ? (wordScore + delta * phraseScore) / (1 + delta) : wordScore;
  }

  /** Finds the corresponding NPs of the pair (left in `correspondence`) and runs the weighted word search. */
  private wordSumWithNps(
    hyps: ChunkedCorpus,
    h: number,
    hOff: number,
    n: number,
    refs: ChunkedCorpus,
    r: number,
    rOff: number,
    m: number,
  ): number {
    const hs = hyps.spanOffsets[h];
    const nh = (hyps.spanOffsets[h + 1] - hs) >> 1;
    const rs = refs.spanOffsets[r];
    const nr = (refs.spanOffsets[r + 1] - rs) >> 1;
    const c = this.correspondence;
    c.find(hyps.words.tokens, hOff, hyps.spans, hs, nh, refs.words.tokens, rOff, refs.spans, rs, nr);
    if (this.pairA.length < n) this.pairA = new Int32Array(Math.max(n, 2 * this.pairA.length));
    if (this.pairB.length < m) this.pairB = new Int32Array(Math.max(m, 2 * this.pairB.length));
    const { pairA, pairB } = this;
    pairA.fill(-1, 0, n);
    pairB.fill(-1, 0, m);
    // A correspondence is named by its reference phrase's index on both sides.
    for (let x = 0; x < nh; x++) {
      const y = c.hypPartner[x];
      if (y >= 0) pairA.fill(y, hyps.spans[hs + 2 * x], hyps.spans[hs + 2 * x + 1]);
    }
    for (let y = 0; y < nr; y++) {
      if (c.refPartner[y] >= 0) pairB.fill(y, refs.spans[rs + 2 * y], refs.spans[rs + 2 * y + 1]);
    }
    return this.words.run(hyps.words.tokens, hOff, n, refs.words.tokens, rOff, m, pairA, pairB);
  }

  /** score_np of eqs. 9–11 for the correspondences the last {@link wordSumWithNps} found. */
  private phraseScore(hyps: ChunkedCorpus, h: number, refs: ChunkedCorpus, r: number): number {
    const { beta } = this.params;
    const nh = (hyps.spanOffsets[h + 1] - hyps.spanOffsets[h]) >> 1;
    const nr = (refs.spanOffsets[r + 1] - refs.spanOffsets[r]) >> 1;
    const c = this.correspondence;
    if (this.labelsA.length < nh) this.labelsA = new Int32Array(Math.max(nh, 2 * this.labelsA.length));
    if (this.labelsB.length < nr) this.labelsB = new Int32Array(Math.max(nr, 2 * this.labelsB.length));
    const { labelsA, labelsB } = this;
    let common = 0;
    // Labels: a corresponding pair shares its reference phrase's index; every other phrase gets a negative label of
    // its own, distinct across both sides, so it matches nothing.
    for (let x = 0; x < nh; x++) {
      const y = c.hypPartner[x];
      labelsA[x] = y >= 0 ? y : -1 - x;
      if (y >= 0) common++;
    }
    for (let y = 0; y < nr; y++) labelsB[y] = c.refPartner[y] >= 0 ? y : -1 - nh - y;
    if (common === 0) return 0;
    const sum = this.phrases.run(labelsA, 0, nh, labelsB, 0, nr, null, null);
    const recall = Math.pow(sum / Math.pow(common * Math.sqrt(Math.max(1, nr - common)), beta), 1 / beta);
    const precision = Math.pow(sum / Math.pow(common * Math.sqrt(Math.max(1, nh - common)), beta), 1 / beta);
    return gammaF(recall, precision);
  }
}
