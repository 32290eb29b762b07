/**
 * The worked examples of the ROUGE papers, through the metric API (paper flavor unless said otherwise):
 * - Lin & Och 2004 (../shared/papers/000_*.txt) §3.1 and §4: reference S1 "police killed the gunman", candidates
 *   S2 "police kill the gunman", S3 "the gunman kill police", S4 "the gunman police killed"; ROUGE-L (β = 1)
 *   0.75 / 0.5 / 0.5 and ROUGE-S* 0.5 / 0.167 / 0.333 as the paper prints them (compared at the paper's 3
 *   decimals, and exactly as the fractions 3/4, 2/4, 3/6, 1/6, 2/6 they come from);
 * - §3.2: multiple references take the best recall and the best precision separately;
 * - §3.3 (hand-derived with f(k) = k²): X = A B C D E F G, Y1 = A B C D H I K, Y2 = A H B K C I D have the same
 *   ROUGE-L but WLCS 16 vs 4, so ROUGE-W recall f⁻¹(16/49) = 4/7 vs f⁻¹(4/49) = 2/7;
 * - §4: with skip distance 0, ROUGE-S is bigram overlap (ROUGE-2);
 * - §5: jackknifing averages the best scores over the N sets of N−1 references.
 */
import { describe, expect, it } from 'vitest';
import { sentenceScore } from '../src/metrics/metric.js';
import { Rouge, type RougeOptions } from '../src/metrics/rouge/rouge.js';

const S1 = 'police killed the gunman';
const S2 = 'police kill the gunman';
const S3 = 'the gunman kill police';
const S4 = 'the gunman police killed';

/** P, R, F of one hypothesis against its references. */
function prf(options: RougeOptions, hyp: string, refs: string[]): [number, number, number] {
  const d = sentenceScore(new Rouge(options), hyp, refs).details!;
  return [d.precision as number, d.recall as number, d.fmeasure as number];
}

describe('Lin & Och 2004 worked examples (paper flavor)', () => {
  it('ROUGE-L of S2, S3, S4 against S1: 0.75, 0.5, 0.5 (β = 1)', () => {
    const scores = [S2, S3, S4].map((c) => prf({ type: 'rouge-l', flavor: 'paper' }, c, [S1]));
    expect(scores.map(([, , f]) => Number(f.toFixed(3)))).toEqual([0.75, 0.5, 0.5]);
    expect(scores).toEqual([
      [3 / 4, 3 / 4, 3 / 4],
      [2 / 4, 2 / 4, 2 / 4],
      [2 / 4, 2 / 4, 2 / 4],
    ]);
  });

  it('ROUGE-S* of S2, S3, S4 against S1: 0.5, 0.167, 0.333 (6 skip-bigrams each)', () => {
    const scores = [S2, S3, S4].map((c) => prf({ type: 'rouge-s*', flavor: 'paper' }, c, [S1]));
    expect(scores.map(([, , f]) => Number(f.toFixed(3)))).toEqual([0.5, 0.167, 0.333]);
    expect(scores.map(([p, r]) => [p, r])).toEqual([
      [3 / 6, 3 / 6],
      [1 / 6, 1 / 6],
      [2 / 6, 2 / 6],
    ]);
  });

  it('the same numbers from the rouge155 and rouge-score flavors (one sentence, one reference)', () => {
    for (const c of [S2, S3, S4]) {
      const paper = prf({ type: 'rouge-l', flavor: 'paper' }, c, [S1]);
      expect(prf({ type: 'rougeL', flavor: 'rouge-score' }, c, [S1])).toEqual(paper);
      expect(prf({ type: 'rouge-l', flavor: 'rouge155' }, c, [S1])).toEqual(paper.map((x) => Number(x.toFixed(5))));
    }
    expect(prf({ type: 'rouge-s*', flavor: 'rouge155' }, S3, [S1])).toEqual([0.16667, 0.16667, 0.16667]);
  });

  it('§3.2: several references give the best recall and the best precision, F from those two', () => {
    // Against S1 alone, S2 has R = P = 3/4; against "police the gunman" (3 words) R = 1 and P = 3/4.
    const [p, r, f] = prf({ type: 'rouge-l', flavor: 'paper' }, S2, [S3, 'police the gunman', S1]);
    expect([p, r]).toEqual([3 / 4, 1]);
    expect(f).toBe((2 * 1 * (3 / 4)) / (1 + 3 / 4));
    // β weighs recall: β → ∞ tends to R, β = 0 gives P.
    expect(prf({ type: 'rouge-l', flavor: 'paper', beta: 0 }, S2, [S1, 'police the gunman'])[2]).toBe(3 / 4);
  });

  it('§3.3: ROUGE-W separates consecutive from spread matches (f(k) = k²)', () => {
    const X = 'a b c d e f g';
    const Y1 = 'a b c d h i k';
    const Y2 = 'a h b k c i d';
    const l1 = prf({ type: 'rouge-l', flavor: 'paper' }, Y1, [X]);
    const l2 = prf({ type: 'rouge-l', flavor: 'paper' }, Y2, [X]);
    expect(l1).toEqual(l2);
    const [p1, r1] = prf({ type: 'rouge-w-2', flavor: 'paper' }, Y1, [X]);
    const [p2, r2] = prf({ type: 'rouge-w-2', flavor: 'paper' }, Y2, [X]);
    expect(r1).toBeCloseTo(4 / 7, 15);
    expect(p1).toBeCloseTo(4 / 7, 15);
    expect(r2).toBeCloseTo(2 / 7, 15);
    expect(p2).toBeCloseTo(2 / 7, 15);
  });

  it('§4: ROUGE-S with skip distance 0 is bigram overlap', () => {
    for (const c of [S2, S3, S4, 'police police killed the the gunman']) {
      expect(prf({ type: 'rouge-s0', flavor: 'paper' }, c, [S1])).toEqual(
        prf({ type: 'rouge-2', flavor: 'paper' }, c, [S1]),
      );
    }
  });

  it('§5: jackknifing averages the best scores over the N leave-one-out reference sets', () => {
    const refs = [S1, 'police the gunman', S3];
    const options = { type: 'rouge-l', flavor: 'paper' } as const;
    const leaveOut = [0, 1, 2].map((k) =>
      prf(
        options,
        S2,
        refs.filter((_, j) => j !== k),
      ),
    );
    const jack = prf({ ...options, jackknife: true }, S2, refs);
    for (let c = 0; c < 3; c++) expect(jack[c]).toBe((leaveOut[0][c] + leaveOut[1][c] + leaveOut[2][c]) / 3);
    // One reference: nothing to leave out.
    expect(prf({ ...options, jackknife: true }, S2, [S1])).toEqual(prf(options, S2, [S1]));
  });

  it('§5: a human reference is scored against the other N−1 (humanScores), and the N scores averaged', () => {
    const humans = [S1, 'police the gunman', S3];
    const metric = new Rouge({ type: 'rouge-l', flavor: 'paper', jackknife: true });
    const { perReference, mean } = metric.humanScores(humans.map((h) => [h]));
    const expected = humans.map((h, k) =>
      prf(
        { type: 'rouge-l', flavor: 'paper' },
        h,
        humans.filter((_, j) => j !== k),
      ),
    );
    expect(perReference.map((s) => [s.details!.precision, s.details!.recall, s.details!.fmeasure])).toEqual(expected);
    expect(mean.fmeasure).toBe((expected[0][2] + expected[1][2] + expected[2][2]) / 3);
    expect(() => metric.humanScores([[S1]])).toThrow(expect.objectContaining({ code: 'E_BAD_INPUT' }));
  });
});
