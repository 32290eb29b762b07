/**
 * The n-gram bags of all-pairs scoring (src/metrics/ngram-bags.ts): a hypothesis's matches with every reference,
 * through the postings and through the bit-set index, equal Σ min(count, count) computed pair by pair from plain
 * string-keyed counts — for repeated n-grams (counts beyond 1, beyond 32, beyond 255), more than 32 references (several bit-set
 * words), empty texts, n-grams only the hypothesis has, and several channels; and chrF's and BLEU's pairs through the
 * bags (sets big enough to take them) and through the per-reference kernel (a few hypotheses against 300 references,
 * two column tiles) are the sentence scores of the pairs, bit for bit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pairwiseScores } from '../src/engine/pairwise/index.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import { sentenceScore, type Metric } from '../src/metrics/metric.js';
import {
  NgramIds, ngramBags, ngramBitsets, ngramPostings, rowMatcher, rowMatches, rowMatchesBits, worthBags, type NgramChannel,
} from '../src/metrics/ngram-bags.js';
import { csrFromArrays } from '../src/text/csr.js';

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

/** Texts of token ids: variations of one base (near-identical, as MBR samples) or unrelated. */
function texts(count: number, seed: number, related: boolean): number[][] {
  const r = rng(seed);
  const base = Array.from({ length: 40 }, () => Math.floor(r() * 6));
  return Array.from({ length: count }, (_, t) => {
    if (t % 9 === 4) return [];
    if (t % 9 === 5) return Array.from({ length: 70 }, () => 1); // one token 70 times: counts beyond 32
    if (!related) return Array.from({ length: Math.floor(r() * 30) }, () => Math.floor(r() * 12));
    const x = [...base];
    for (let e = 0; e < 4; e++) x.splice(Math.floor(r() * x.length), 1, Math.floor(r() * 8));
    return x;
  });
}

function plainCounts(t: readonly number[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let p = 0; p + n <= t.length; p++) {
    const k = t.slice(p, p + n).join(',');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

describe('rowMatches and rowMatchesBits', () => {
  for (const [label, related, refCount] of [['near-identical, 70 references', true, 70], ['unrelated, 33 references', false, 33], ['near-identical, 5 references', true, 5]] as const) {
    it(label, () => {
      const refTexts = texts(refCount, refCount * 31 + 1, related);
      // 300 tokens: counters of more than 8 bits (counts past 255).
      const hypTexts = [...texts(12, 77, related), [99, 98, 97], Array.from({ length: 300 }, (_, p) => p % 2), ...refTexts.slice(0, 3)];
      // Two channels: the tokens (orders 1..4) and the tokens mod 3 (orders 1..2).
      const channels = (ts: number[][]): NgramChannel[] => [
        { tokens: csrFromArrays(ts), maxOrder: 4 },
        { tokens: csrFromArrays(ts.map((t) => t.map((x) => x % 3))), maxOrder: 2 },
      ];
      const ids = new NgramIds(16);
      const refs = ngramBags(channels(refTexts), ids, true);
      const hyps = ngramBags(channels(hypTexts), ids, false);
      const postings = ngramPostings(refs, ids.size);
      const index = ngramBitsets(refs, ids.size);
      const K = refs.columns;
      expect(K).toBe(6);
      const a = new Int32Array(refCount * K);
      const b = new Int32Array(refCount * K);
      const c = new Int32Array(refCount * K);
      const planes = new Int32Array(40 * index.words);
      const matcher = rowMatcher(refs, postings, ids.size);
      hypTexts.forEach((h, i) => {
        rowMatches(hyps, i, postings, refCount, a);
        rowMatchesBits(hyps, i, index, refCount, b, planes);
        matcher(hyps, i, c);
        refTexts.forEach((r, j) => {
          const views = [[h, r], [h.map((x) => x % 3), r.map((x) => x % 3)]];
          let k = 0;
          for (const [channel, orders] of [[0, 4], [1, 2]] as const) {
            for (let n = 1; n <= orders; n++, k++) {
              const hc = plainCounts(views[channel][0], n);
              const rc = plainCounts(views[channel][1], n);
              let want = 0;
              for (const [g, x] of hc) want += Math.min(x, rc.get(g) ?? 0);
              if (a[k * refCount + j] !== want || b[k * refCount + j] !== want || c[k * refCount + j] !== want) {
                throw new Error(`hyp ${i} ref ${j} column ${k}: postings ${a[k * refCount + j]}, bits ${b[k * refCount + j]}, chosen ${c[k * refCount + j]}, want ${want}`);
              }
            }
          }
        });
        // Totals count every n-gram, with or without an id.
        expect(hyps.totals[i * K]).toBe(h.length);
        expect(hyps.totals[i * K + 3]).toBe(Math.max(0, h.length - 3));
      });
    });
  }
});

describe('pairs scored through the bags equal the sentence score of each pair', () => {
  const fixture = JSON.parse(readFileSync(new URL('fixtures/pairwise/wmt21-en-de-5.json', import.meta.url), 'utf8')) as {
    segments: { samples: string[] }[];
  };
  const corners = ['', 'a', 'the the the the the', 'Der Hund bellt, der Hund bellt!', 'x y', '日本語のテキスト', "It's a test-case: (ok)?"];
  const pool = [...corners, ...fixture.segments.flatMap((s) => s.samples)];
  const hyps = pool.slice(0, 64);
  const refs = pool.slice(36, 100);
  const metrics: [string, Metric][] = [
    ['chrF', new Chrf()],
    ['chrF++ lowercase', new Chrf({ wordOrder: 2, lowercase: true })],
    ['BLEU', new Bleu({ effectiveOrder: true })],
    ['BLEU intl, floor', new Bleu({ effectiveOrder: true, tokenize: 'intl', smoothMethod: 'floor' })],
  ];
  for (const [label, metric] of metrics) {
    it(label, () => {
      expect(worthBags(hyps.length, refs.length, false)).toBe(true);
      const m = pairwiseScores(metric, hyps, refs);
      hyps.forEach((h, i) => refs.forEach((r, j) => {
        const want = sentenceScore(metric, h, [r]).score;
        if (!Object.is(m[i * refs.length + j], want)) throw new Error(`${label} [${i}][${j}]: ${m[i * refs.length + j]} ≠ ${want}`);
      }));
      // Two hypotheses against 300 references: the per-reference kernel, its columns in two tiles.
      const many = Array.from({ length: 300 }, (_, k) => `${pool[k % pool.length]} ${k % 7 === 0 ? 'und' : ''}`);
      expect(worthBags(2, many.length, false)).toBe(false);
      const k = pairwiseScores(metric, hyps.slice(8, 10), many);
      hyps.slice(8, 10).forEach((h, i) => many.forEach((r, j) => {
        if (!Object.is(k[i * many.length + j], sentenceScore(metric, h, [r]).score)) throw new Error(`${label} kernel [${i}][${j}]`);
      }));
      // The samples as their own pseudo-references (the same array): the references' bags serve both sides.
      const self = pool.slice(7, 47);
      expect(worthBags(self.length, self.length, true)).toBe(true);
      const s = pairwiseScores(metric, self, self);
      self.forEach((h, i) => self.forEach((r, j) => {
        if (!Object.is(s[i * self.length + j], sentenceScore(metric, h, [r]).score)) throw new Error(`${label} self [${i}][${j}]`);
      }));
    });
  }
});
