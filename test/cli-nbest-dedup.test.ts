/**
 * The allocation-light duplicate removal of `palette nbest` against its string-key definition: the same kept
 * candidates in the same (Moses) order, and parsed-feature equality ⇔ feature-key equality.
 */
import { describe, expect, it } from 'vitest';
import {
  mosesFeatureKey,
  mosesRemoveDuplicatesBy,
  parseMosesFeatures,
  sameMosesFeatures,
} from '../src/cli/nbest/moses-dedup.js';
import { mosesRemoveDuplicates } from './reference/moses-dedup.js';

/** A small deterministic generator (LCG) so that the cases are reproducible. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FIELDS = [
  'lm= -10.5 tm= 0.1 0.2',
  'lm= -10.50 tm= 0.1 0.2',
  'lm= -10.5 tm= 0.1\t0.2 ',
  'lm= -10.5 tm= 0.10000000001 0.2',
  'lm= -10.5 tm= 0.1 0.3',
  'a=1 b=2',
  'a=1.0 b=2',
  'a=1 c=2',
  '1 2',
  'x=1 2',
  'x==1 2',
  '-0 0',
  '0 0',
  'NaN 1',
  'nan 1',
  'Infinity 1',
  '1e40 1',
  '',
  '   ',
];

describe('palette nbest duplicate removal', () => {
  it('parsed features are equal exactly when their keys are, and a key parses like its field', () => {
    for (const a of FIELDS) {
      for (const b of FIELDS) {
        const same = mosesFeatureKey(a) === mosesFeatureKey(b);
        expect(sameMosesFeatures(parseMosesFeatures(a), parseMosesFeatures(b)), `${a} | ${b}`).toBe(same);
        expect(sameMosesFeatures(parseMosesFeatures(mosesFeatureKey(a)), parseMosesFeatures(b)), `${a} | ${b}`).toBe(same);
      }
    }
  });

  it('keeps the same candidates in the same order as the string-key removal', () => {
    const next = rng(7);
    for (let trial = 0; trial < 300; trial++) {
      const n = Math.floor(next() * 40);
      const stats = Array.from({ length: n }, () => [Math.floor(next() * 3), Math.floor(next() * 2)]);
      const feats = Array.from({ length: n }, () => FIELDS[Math.floor(next() * FIELDS.length)]);
      const keys = stats.map((row, i) => `${mosesFeatureKey(feats[i])}|${row.join(' ')}`);
      const want = mosesRemoveDuplicates(keys);
      // A deliberately weak hash (first statistic only) so that buckets hold several candidates.
      const got = mosesRemoveDuplicatesBy(
        n,
        (i) => stats[i][0],
        (i, j) =>
          stats[i][0] === stats[j][0] &&
          stats[i][1] === stats[j][1] &&
          sameMosesFeatures(parseMosesFeatures(feats[i]), parseMosesFeatures(feats[j])),
      );
      expect(Array.from(got)).toEqual(want);
    }
  });
});
