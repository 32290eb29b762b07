/**
 * chrF statistics rows against a naive transcription of sacrebleu 2.6.0's algorithm (string-keyed counters, as
 * `extract_all_char_ngrams` / `extract_word_ngrams` / `_get_match_statistics` / best-reference loop), on random
 * small-alphabet text with lengths around 63/64/65 and 127/128/129 code points, astral characters, Python
 * whitespace and ASCII punctuation, 1–3 references. Rows must be identical.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Chrf, type ChrfOptions } from '../src/metrics/chrf/chrf.js';
import { chrfScore } from '../src/metrics/chrf/score.js';
import { pySplit } from '../src/text/pystr.js';

function counter(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** `Counter([line[i:i + n] …])` over code points, after `''.join(line.split())` unless whitespace is kept. */
function charNgrams(line: string, n: number, whitespace: boolean): Map<string, number> {
  const cps = Array.from(whitespace ? line : pySplit(line).join(''));
  const grams: string[] = [];
  for (let i = 0; i + n <= cps.length; i++) grams.push(cps.slice(i, i + n).join(''));
  return counter(grams);
}

function wordNgrams(words: string[], n: number): Map<string, number> {
  const grams: string[] = [];
  for (let i = 0; i + n <= words.length; i++) grams.push(words.slice(i, i + n).join(' '));
  return counter(grams);
}

const PUNCTS = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/** `CHRF._remove_punctuation`, over code points. */
function naiveWords(line: string): string[] {
  const out: string[] = [];
  for (const w of pySplit(line)) {
    const cps = Array.from(w);
    if (cps.length === 1) out.push(w);
    else if (PUNCTS.has(cps[cps.length - 1])) out.push(cps.slice(0, -1).join(''), cps[cps.length - 1]);
    else if (PUNCTS.has(cps[0])) out.push(cps[0], cps.slice(1).join(''));
    else out.push(w);
  }
  return out;
}

function naiveRow(o: Required<ChrfOptions>, hyp: string, refs: string[]): number[] {
  const all = (s: string) => {
    const out: Map<string, number>[] = [];
    for (let n = 1; n <= o.charOrder; n++) out.push(charNgrams(s, n, o.whitespace));
    const words = naiveWords(s);
    for (let n = 1; n <= o.wordOrder; n++) out.push(wordNgrams(words, n));
    return out;
  };
  const h = all(hyp);
  let best: number[] = [];
  let bestF = -1;
  for (const ref of refs) {
    const r = all(ref);
    const stats: number[] = [];
    h.forEach((hm, i) => {
      const rm = r[i];
      let match = 0;
      let hypCount = 0;
      for (const [g, c] of hm) {
        hypCount += c;
        match += Math.min(c, rm.get(g) ?? 0);
      }
      let refCount = 0;
      for (const c of rm.values()) refCount += c;
      stats.push(rm.size > 0 ? hypCount : 0, refCount, match);
    });
    const f = chrfScore(stats, 0, o.charOrder + o.wordOrder, o.beta, o.epsSmoothing);
    if (f > bestF) {
      bestF = f;
      best = stats;
    }
  }
  return best;
}

const CHARS = ['a', 'b', 'c', ' ', ' ', '.', ',', '(', ')', '\u00a0', '\u3000', '\t', '😀', 'é', 'B'];
const LENGTHS = [0, 1, 2, 5, 63, 64, 65, 127, 128, 129];
const text = fc
  .constantFrom(...LENGTHS)
  .chain((n) => fc.array(fc.constantFrom(...CHARS), { minLength: n, maxLength: n }).map((a) => a.join('')));

describe('chrF rows = naive sacrebleu transcription (fast-check)', () => {
  const configs: Required<ChrfOptions>[] = [
    { charOrder: 6, wordOrder: 0, beta: 2, lowercase: false, whitespace: false, epsSmoothing: false },
    { charOrder: 6, wordOrder: 2, beta: 2, lowercase: false, whitespace: false, epsSmoothing: true },
    { charOrder: 3, wordOrder: 1, beta: 3, lowercase: false, whitespace: true, epsSmoothing: false },
  ];
  it.each(configs)('%j', (o) => {
    const metric = new Chrf(o);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, fc.array(text, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 8 }),
        (segs) => {
          // Every segment gets the same number of references (the Metric contract): pad with the first one.
          const nRefs = Math.max(...segs.map(([, r]) => r.length));
          const refStreams = Array.from({ length: nRefs }, (_, j) => segs.map(([, r]) => r[j] ?? r[0]));
          const rows = metric.segmentStats(
            segs.map(([h]) => h),
            metric.prepareReferences(refStreams),
          );
          segs.forEach(([h], i) => {
            const want = naiveRow(
              o,
              h,
              refStreams.map((s) => s[i]),
            );
            expect(Array.from(rows.subarray(i * metric.statsWidth, (i + 1) * metric.statsWidth))).toEqual(want);
          });
        },
      ),
      { numRuns: 60, seed: 20240517 },
    );
  });
});
