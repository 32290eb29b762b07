/**
 * NIST against naive transcriptions of its two oracles on random token sequences (fast-check): mteval-v13a.pl's
 * `compute_ngram_info` (with Perl's false `"0"` prefix), `score_segment` and `nist_score`, and NLTK 3.8's
 * `corpus_nist` / `sentence_nist` (ZeroDivisionError → NaN). Small vocabulary with the words `0` and `00`,
 * 0–12 tokens, 1–3 references, 1–6 segments. Relative tolerance 1e-12 (summation orders differ).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sumRows } from '../src/metrics/metric.js';
import { Nist } from '../src/metrics/nist/nist.js';
import { csrFromArrays } from '../src/text/csr.js';
import { ngramWeights } from '../src/wasm/ngram.js';

type Segment = { hyp: string[]; refs: string[][] };

function ngrams(words: string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= words.length; i++) out.push(words.slice(i, i + n).join(' '));
  return out;
}

function counts(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** mteval-v13a.pl: info from all references, Perl truthiness of the prefix string. */
function mtevalNaive(segs: Segment[], N: number): { corpus: number; segments: number[] } {
  const all = new Map<string, number>();
  let total = 0;
  for (const s of segs) {
    for (const r of s.refs) {
      total += r.length;
      for (let n = 1; n <= N; n++) for (const g of ngrams(r, n)) all.set(g, (all.get(g) ?? 0) + 1);
    }
  }
  const info = (g: string) => {
    const prefix = g.split(' ').slice(0, -1).join(' ');
    const perlTrue = prefix !== '' && prefix !== '0';
    return -Math.log(perlTrue ? all.get(g)! / all.get(prefix)! : all.get(g)! / total) / Math.log(2);
  };
  const nsys = segs[0].refs.length;
  const score = (tstInfo: number[], tstCnt: number[], refCnt1: number) => {
    const ratio = tstCnt[0] / (refCnt1 / nsys);
    const beta = -Math.log(0.5) / Math.log(1.5) / Math.log(1.5);
    const pen = ratio >= 1 ? 1 : ratio <= 0 ? 0 : Math.exp(-beta * Math.log(ratio) * Math.log(ratio));
    let sc = 0;
    for (let n = 0; n < N; n++) sc += tstInfo[n] / Math.max(tstCnt[n], 1);
    return refCnt1 === 0 ? Number.NaN : sc * pen;
  };
  const cumInfo = new Array<number>(N).fill(0);
  const cumCnt = new Array<number>(N).fill(0);
  let cumRef = 0;
  const segments = segs.map((s) => {
    const tstInfo = new Array<number>(N).fill(0);
    const tstCnt = new Array<number>(N).fill(0);
    let refCnt1 = 0;
    for (let n = 1; n <= N; n++) {
      tstCnt[n - 1] = Math.max(s.hyp.length - n + 1, 0);
      const max = new Map<string, number>();
      for (const r of s.refs) for (const [g, c] of counts(ngrams(r, n))) max.set(g, Math.max(max.get(g) ?? 0, c));
      for (const [g, c] of counts(ngrams(s.hyp, n))) {
        if (max.has(g)) tstInfo[n - 1] += info(g) * Math.min(c, max.get(g)!);
      }
    }
    for (const r of s.refs) refCnt1 += r.length;
    for (let n = 0; n < N; n++) {
      cumInfo[n] += tstInfo[n];
      cumCnt[n] += tstCnt[n];
    }
    cumRef += refCnt1;
    return score(tstInfo, tstCnt, refCnt1);
  });
  return { corpus: score(cumInfo, cumCnt, cumRef), segments };
}

/**
 * NLTK 3.8 corpus_nist, throwing where Python raises ZeroDivisionError. NLTK keeps the reference with the largest
 * (precision, numerator, …) tuple, so exact ties between references (log2 9 = 2 · log2 3 in real numbers) are
 * decided by the last bit of the weights: the oracle takes its weight values from `ngramWeights` (the kernels'
 * `log(x) / log(2)`, Python's `math.log(x, 2)`, checked against Python elsewhere) instead of V8's `Math.log`, and
 * transcribes everything else.
 */
function nltkNaive(segs: Segment[], N: number): number {
  const ids = new Map<string, number>();
  const id = (w: string) => ids.get(w) ?? (ids.set(w, ids.size), ids.size - 1);
  const refRows = segs.flatMap((s) => s.refs.map((r) => r.map(id)));
  const table = ngramWeights(csrFromArrays(refRows), N);
  const weight = (g: string) => {
    const toks = g.split(' ').map(id);
    return table.weight(toks, 0, toks.length);
  };
  const num = new Array<number>(N).fill(0);
  const den = new Array<number>(N).fill(0);
  let lRef = 0;
  let lSys = 0;
  for (let i = 1; i <= N; i++) {
    for (const s of segs) {
      let best: [number, number, number, number] | null = null;
      for (const r of s.refs) {
        const h = counts(ngrams(s.hyp, i));
        const rc = counts(ngrams(r, i));
        let nu = 0;
        for (const [g, c] of h) if (rc.has(g)) nu += weight(g) * Math.min(c, rc.get(g)!);
        const de = Math.max(s.hyp.length - i + 1, 0);
        const cand: [number, number, number, number] = [de === 0 ? 0 : nu / de, nu, de, r.length];
        const better =
          best === null ||
          cand.some((v, k) => v !== best![k] && cand.slice(0, k).every((w, j) => w === best![j]) && v > best![k]);
        if (better) best = cand;
      }
      num[i - 1] += best![1];
      den[i - 1] += best![2];
      lRef += best![3];
      lSys += s.hyp.length;
    }
  }
  let precision = 0;
  for (let i = 0; i < N; i++) {
    if (den[i] === 0) throw new Error('ZeroDivisionError');
    precision += num[i] / den[i];
  }
  if (lRef === 0) throw new Error('ZeroDivisionError');
  const ratio = lSys / lRef;
  const pen =
    ratio > 0 && ratio < 1
      ? Math.exp((Math.log(0.5) / Math.log(1.5) ** 2) * Math.log(ratio) ** 2)
      : Math.max(Math.min(ratio, 1), 0);
  return precision * pen;
}

function orNaN(f: () => number): number {
  try {
    return f();
  } catch {
    return Number.NaN;
  }
}

function same(got: number, want: number): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  return Math.abs(got - want) <= 1e-12 * Math.max(Math.abs(want), 1e-300) || got === want;
}

const sentence = fc.array(fc.constantFrom('0', '0', '00', 'a', 'b', 'c', 'd'), { minLength: 0, maxLength: 12 });
const corpusArb = fc.integer({ min: 1, max: 3 }).chain((nRefs) =>
  fc.array(fc.record({ hyp: sentence, refs: fc.array(sentence, { minLength: nRefs, maxLength: nRefs }) }), {
    minLength: 1,
    maxLength: 6,
  }),
);

describe('NIST = naive oracle transcriptions (fast-check)', () => {
  it.each([1, 2, 5])('mteval flavor, N = %i: corpus and segment scores', (N) => {
    const metric = new Nist({ tokenize: 'none', maxOrder: N });
    fc.assert(
      fc.property(corpusArb, (segs) => {
        const refs = metric.prepareReferences(segs[0].refs.map((_, j) => segs.map((s) => s.refs[j].join(' '))));
        const rows = metric.segmentStats(
          segs.map((s) => s.hyp.join(' ')),
          refs,
        );
        const want = mtevalNaive(segs, N);
        expect(same(metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score, want.corpus)).toBe(true);
        want.segments.forEach((w, i) => {
          const got = metric.sentenceScoreFromStats(rows.subarray(i * metric.statsWidth, (i + 1) * metric.statsWidth));
          expect(same(got.score, w), `segment ${i}: ${got.score} want ${w}`).toBe(true);
        });
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it.each([1, 2, 5])('nltk flavor, N = %i: corpus_nist and sentence_nist', (N) => {
    const metric = new Nist({ flavor: 'nltk', tokenize: 'none', maxOrder: N });
    fc.assert(
      fc.property(corpusArb, (segs) => {
        const refs = metric.prepareReferences(segs[0].refs.map((_, j) => segs.map((s) => s.refs[j].join(' '))));
        const rows = metric.segmentStats(
          segs.map((s) => s.hyp.join(' ')),
          refs,
        );
        const corpus = metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score;
        expect(
          same(
            corpus,
            orNaN(() => nltkNaive(segs, N)),
          ),
        ).toBe(true);
        segs.forEach((s, i) => {
          const got = metric.sentenceScoreFromStats(rows.subarray(i * metric.statsWidth, (i + 1) * metric.statsWidth));
          const want = orNaN(() => nltkNaive([s], N));
          expect(same(got.score, want), `segment ${i}: ${got.score} want ${want}`).toBe(true);
        });
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});
