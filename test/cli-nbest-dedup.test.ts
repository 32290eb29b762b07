/**
 * The allocation-light duplicate removal of `palette nbest` against its string-key definition: the same kept
 * candidates in the same (Moses) order, and parsed-feature equality ⇔ feature-key equality, for features fields
 * given as texts and as UTF-8 byte ranges of a chunk alike.
 */
import { describe, expect, it } from 'vitest';
import {
  featureFieldsOfBytes,
  mosesFeatureHash,
  mosesFeatureHashBytes,
  mosesFeatureKey,
  mosesRemoveDuplicatesBy,
  sameMosesFeatureBytes,
  sameMosesFeatureFields,
} from '../src/engine/nbest/moses-dedup.js';
import { keptCandidates } from '../src/engine/nbest/nbest-task.js';
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
  'é= 1 2',
  'é= 1.0 2',
  'é=1 2',
  'e=1 2',
  '1\u00a0 2',
  '1 2\u00a0',
  '١ 2',
  '中=0.5 x',
];

const encoder = new TextEncoder();

/**
 * Fields as byte ranges of one UTF-8 buffer (with text between them, as in a chunk): `[bytes, starts, ends]`, field
 * `i` at `bytes[starts[i] .. ends[i])`.
 */
function asBytes(fields: readonly string[]): [Uint8Array, Int32Array, Int32Array] {
  const starts = new Int32Array(fields.length);
  const ends = new Int32Array(fields.length);
  let text = '';
  fields.forEach((f, i) => {
    text += ' ||| ';
    starts[i] = encoder.encode(text).length;
    text += f;
    ends[i] = encoder.encode(text).length;
  });
  return [encoder.encode(text + ' ||| 1'), starts, ends];
}

/**
 * Whether the byte forms of fields `a` and `b`, placed inside a larger buffer, compare as their keys do, and hash
 * alike when equal.
 */
function expectBytesLikeTexts(a: string, b: string): void {
  const [bytes, starts, ends] = asBytes([a, b]);
  const same = mosesFeatureKey(a) === mosesFeatureKey(b);
  expect(sameMosesFeatureBytes(bytes, starts[0], ends[0], starts[1], ends[1]), `${JSON.stringify(a)} | ${JSON.stringify(b)}`).toBe(same);
  expect(sameMosesFeatureBytes(bytes, starts[1], ends[1], starts[0], ends[0])).toBe(same);
  if (same) expect(mosesFeatureHashBytes(bytes, starts[0], ends[0])).toBe(mosesFeatureHashBytes(bytes, starts[1], ends[1]));
}

describe('palette nbest duplicate removal', () => {
  it('fields compare equal exactly when their keys are, and a key compares like its field', () => {
    for (const a of FIELDS) {
      for (const b of FIELDS) {
        const same = mosesFeatureKey(a) === mosesFeatureKey(b);
        expect(sameMosesFeatureFields(a, b), `${a} | ${b}`).toBe(same);
        expect(sameMosesFeatureFields(mosesFeatureKey(a), b), `${a} | ${b}`).toBe(same);
        expect(sameMosesFeatureFields(b, mosesFeatureKey(a)), `${b} | key of ${a}`).toBe(same);
        if (same) expect(mosesFeatureHash(a), `${a} | ${b}`).toBe(mosesFeatureHash(b));
        expectBytesLikeTexts(a, b);
      }
    }
  });

  it('random fields: equal exactly when their keys are', () => {
    const next = rng(11);
    const LABELS = ['lm=', 'tm=', 'x=', 'd='];
    const VALUES = ['é', '1\u00a0', '١', '0', '-0', '+0', '0.0', '1', '1.0', '1.', '.5', '0.5', '1e0', '0.1', '0.10', '0.1000000001', '0.10000001', '2', '-3.5', '+3.5', '-.', '.', 'NaN', 'abc', '1e40', '1234567890.12345', '1234567890.123456', '16777217', '16777216', '5\r'];
    const SPARSE = ['a=', 'b=', 'a==', '=', 'a=b='];
    const BLANKS = [' ', '  ', '\t', ' \t '];
    const field = (): string => {
      let f = next() < 0.3 ? BLANKS[Math.floor(next() * BLANKS.length)] : '';
      const n = Math.floor(next() * 5);
      for (let k = 0; k < n; k++) {
        const r = next();
        if (r < 0.2) f += LABELS[Math.floor(next() * LABELS.length)];
        else if (r < 0.4) f += SPARSE[Math.floor(next() * SPARSE.length)] + VALUES[Math.floor(next() * VALUES.length)];
        else f += VALUES[Math.floor(next() * VALUES.length)];
        f += BLANKS[Math.floor(next() * BLANKS.length)];
      }
      return f;
    };
    let equal = 0;
    let collisions = 0;
    for (let trial = 0; trial < 20000; trial++) {
      const a = field();
      // Half the pairs are variants of one field (same tokens, other spellings), so that equal pairs are common.
      const b = next() < 0.5 ? field() : a.replace(/\b1\b/g, '1.0').replace(/ /g, '\t');
      const same = mosesFeatureKey(a) === mosesFeatureKey(b);
      if (same) equal++;
      expect(sameMosesFeatureFields(a, b), `${JSON.stringify(a)} | ${JSON.stringify(b)}`).toBe(same);
      if (same) expect(mosesFeatureHash(a)).toBe(mosesFeatureHash(b));
      else if (mosesFeatureHash(a) === mosesFeatureHash(b)) collisions++;
      expectBytesLikeTexts(a, b);
    }
    expect(equal).toBeGreaterThan(2000);
    // The hash separates most of what differs (it reads the first four counted tokens only).
    expect(collisions).toBeLessThan(200);
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
          sameMosesFeatureFields(feats[i], feats[j]),
      );
      expect(Array.from(got)).toEqual(want);
    }
  });

  it('with a second hash computed on demand: the same candidates, order, and that hash only where the first meets', () => {
    const next = rng(11);
    for (let trial = 0; trial < 400; trial++) {
      const n = Math.floor(next() * 60);
      // Few statistics values, so that many candidates share a row (one text from several derivations).
      const stats = Array.from({ length: n }, () => [Math.floor(next() * 3), Math.floor(next() * 2)]);
      const feats = Array.from({ length: n }, () => FIELDS[Math.floor(next() * FIELDS.length)]);
      const keys = stats.map((row, i) => `${mosesFeatureKey(feats[i])}|${row.join(' ')}`);
      const want = mosesRemoveDuplicates(keys);
      // The first hash: the first statistic, or a constant (every candidate in one bucket), or a key of its own per
      // row (each candidate alone unless its row repeats).
      const kind = trial % 3;
      const hash = (i: number): number => (kind === 0 ? stats[i][0] : kind === 1 ? 5 : stats[i][0] * 2 + stats[i][1]);
      const narrowed = new Set<number>();
      const got = mosesRemoveDuplicatesBy(
        n,
        hash,
        (i, j) =>
          stats[i][0] === stats[j][0] &&
          stats[i][1] === stats[j][1] &&
          sameMosesFeatureFields(feats[i], feats[j]),
        (i) => {
          narrowed.add(i);
          return mosesFeatureHash(feats[i]);
        },
      );
      expect(Array.from(got)).toEqual(want);
      // A candidate whose first hash no other candidate has is never narrowed.
      for (const i of narrowed) expect(stats.some((_, j) => j !== i && hash(j) === hash(i))).toBe(true);
    }
  });

  it('keptCandidates: the same candidates and order with the fields as texts and as byte ranges', () => {
    const next = rng(13);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(next() * 50);
      const width = 2;
      const stats = new Float64Array(n * width);
      for (let k = 0; k < stats.length; k++) stats[k] = Math.floor(next() * 2) * 0.5;
      const feats = Array.from({ length: n }, () => FIELDS[Math.floor(next() * FIELDS.length)]);
      const keys = feats.map((f, i) => `${mosesFeatureKey(f)}|${stats[i * width]} ${stats[i * width + 1]}`);
      const from = Math.floor(next() * n);
      const want = mosesRemoveDuplicates(keys.slice(from)).map((i) => i + from);
      const [bytes, starts, ends] = asBytes(feats);
      expect(Array.from(keptCandidates(stats, width, feats, from, n))).toEqual(want);
      expect(Array.from(keptCandidates(stats, width, featureFieldsOfBytes(bytes, starts, ends), from, n))).toEqual(want);
    }
  });
});
