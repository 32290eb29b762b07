/**
 * numpy's default_rng stream (src/meta/numpy-random.ts) against numpy's own output (test/fixtures/numpy-random/
 * numpy-vectors.json, see its SOURCE.md) and, for arbitrary seeds and range sizes, against a BigInt transcription of
 * PCG64 and Lemire's bounded draw kept in this file. Tolerance: exact (integers).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedIntStream, defaultRng, Pcg64, SeedSequence } from '../src/meta/numpy-random.js';

interface Vectors {
  seeds: { seed: string; state: string; inc: string; raw: string[] }[];
  choice: { seed: number; n: number; values: number[] }[];
  sequence: { seed: number; calls: { call: 'choice' | 'bool'; n?: number; values: number[] }[] };
  big: {
    call: 'choice' | 'bool';
    seed: number;
    n?: number;
    rows: number;
    cols?: number;
    sum?: number;
    ones?: number;
    weighted_mod: number;
    head?: number[];
    tail: number[];
    choice_after?: number[];
  }[];
}

const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/numpy-random/numpy-vectors.json', import.meta.url), 'utf8'),
) as Vectors;

const MASK64 = (1n << 64n) - 1n;
const MASK128 = (1n << 128n) - 1n;
const PCG_MULT = (0x2360ed051fc65da4n << 64n) | 0x4385df649fccf645n;

/** PCG64 in BigInt from a known state (the oracle for the limb arithmetic), with numpy's 32-bit half-word buffer. */
class BigPcg64 {
  private spare: number | null = null;
  constructor(
    private state: bigint,
    private readonly inc: bigint,
  ) {}
  next64(): bigint {
    this.state = (this.state * PCG_MULT + this.inc) & MASK128;
    const x = ((this.state >> 64n) ^ this.state) & MASK64;
    const rot = this.state >> 122n;
    return ((x >> rot) | (x << ((64n - rot) & 63n))) & MASK64;
  }
  next32(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const v = this.next64();
    this.spare = Number(v >> 32n);
    return Number(v & 0xffffffffn);
  }
  /** Lemire's multiply-and-reject as numpy writes it for a range [0, n). */
  bounded(n: number): number {
    if (n === 1) return 0;
    const nb = BigInt(n);
    const threshold = ((1n << 32n) - nb) % nb;
    for (;;) {
      const m = BigInt(this.next32()) * nb;
      if ((m & 0xffffffffn) >= threshold) return Number(m >> 32n);
    }
  }
}

describe('SeedSequence and PCG64 against numpy', () => {
  it('SeedSequence(12345).pool is numpy’s', () => {
    expect(Array.from(new SeedSequence(12345).pool)).toEqual([4069775156, 4251353637, 4182767765, 2267058336]);
  });

  it.each(vectors.seeds)('PCG64($seed): state, inc and random_raw', ({ seed, state, inc, raw }) => {
    const g = new Pcg64(BigInt(seed));
    expect(g.state.state).toBe(BigInt(state));
    expect(g.state.inc).toBe(BigInt(inc));
    const words = new Uint32Array(raw.length * 2);
    g.randomRaw(words);
    const got = raw.map((_, k) => ((BigInt(words[2 * k + 1]) << 32n) | BigInt(words[2 * k])).toString(16).padStart(16, '0'));
    expect(got).toEqual(raw);
  });

  it('accepts numbers and bigints alike and rejects negative or fractional seeds', () => {
    expect(new Pcg64(12345).state).toEqual(new Pcg64(12345n).state);
    expect(() => new Pcg64(-1)).toThrow(RangeError);
    expect(() => new Pcg64(1.5)).toThrow(RangeError);
    expect(() => new Pcg64(-1n)).toThrow(RangeError);
  });

  it('seed null draws fresh entropy (two generators differ)', () => {
    expect(new Pcg64(null).state.state).not.toBe(new Pcg64(null).state.state);
  });
});

describe('choice and bool draws against numpy', () => {
  it.each(vectors.choice)('default_rng($seed).choice($n, 41)', ({ seed, n, values }) => {
    expect(Array.from(defaultRng(seed).choice(n, values.length))).toEqual(values);
  });

  it('one generator through alternating choice and bool calls', () => {
    const rng = defaultRng(vectors.sequence.seed);
    for (const call of vectors.sequence.calls) {
      if (call.call === 'choice') {
        expect(Array.from(rng.choice(call.n ?? 0, call.values.length))).toEqual(call.values);
      } else {
        const out = new Uint8Array(call.values.length);
        rng.boolStream().fill(out);
        expect(Array.from(out)).toEqual(call.values);
      }
    }
  });

  it('choice(3004, size=(1000, 3004)) drawn a row at a time equals the one numpy call', () => {
    const big = vectors.big.find((b) => b.call === 'choice');
    if (!big?.n || big.head === undefined) throw new Error('fixture lacks the choice record');
    const stream = defaultRng(big.seed).boundedStream(big.n);
    const row = new Int32Array(big.n);
    let sum = 0;
    let weighted = 0;
    let k = 0;
    const head: number[] = [];
    for (let r = 0; r < big.rows; r++) {
      stream.fill(row);
      for (let i = 0; i < row.length; i++) {
        k++;
        sum += row[i];
        weighted = (weighted + row[i] * (k % 1000003)) % 1000003;
        if (head.length < 10) head.push(row[i]);
      }
    }
    expect({ sum, weighted, head, tail: Array.from(row.subarray(row.length - 10)) }).toEqual({
      sum: big.sum,
      weighted: big.weighted_mod,
      head: big.head,
      tail: big.tail,
    });
  });

  it('integers(2, size=(10000, 3004), dtype=bool) in rows, then choice from the same generator', () => {
    const big = vectors.big.find((b) => b.call === 'bool');
    if (!big?.cols || big.choice_after === undefined) throw new Error('fixture lacks the bool record');
    const rng = defaultRng(big.seed);
    const bools = rng.boolStream();
    const row = new Uint8Array(big.cols);
    let ones = 0;
    let weighted = 0;
    let k = 0;
    for (let r = 0; r < big.rows; r++) {
      bools.fill(row);
      for (let i = 0; i < row.length; i++) {
        k++;
        ones += row[i];
        if (row[i]) weighted = (weighted + (k % 1000003)) % 1000003;
      }
    }
    expect(ones).toBe(big.ones);
    expect(weighted).toBe(big.weighted_mod);
    expect(Array.from(row.subarray(row.length - 10))).toEqual(big.tail);
    expect(Array.from(rng.choice(3004, 10))).toEqual(big.choice_after);
  });

  it('rejects range sizes outside [1, 2^32)', () => {
    const g = new Pcg64(1);
    expect(() => new BoundedIntStream(g, 0)).toThrow(RangeError);
    expect(() => new BoundedIntStream(g, 2 ** 32)).toThrow(RangeError);
    expect(() => new BoundedIntStream(g, 2.5)).toThrow(RangeError);
  });
});

describe('limb arithmetic against BigInt (property)', () => {
  it('random_raw, next32 and bounded draws agree with the BigInt transcription', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 96n) - 1n }),
        fc.array(fc.integer({ min: 1, max: 2 ** 32 - 1 }), { minLength: 1, maxLength: 6 }),
        (seed, sizes) => {
          const fast = new Pcg64(seed);
          const { state, inc } = fast.state;
          const slow = new BigPcg64(state, inc);
          const raw = new Uint32Array(6);
          fast.randomRaw(raw);
          for (let k = 0; k < 3; k++) {
            expect((BigInt(raw[2 * k + 1]) << 32n) | BigInt(raw[2 * k])).toBe(slow.next64());
          }
          for (const n of sizes) {
            const stream = new BoundedIntStream(fast, n);
            for (let i = 0; i < 5; i++) expect(stream.next()).toBe(slow.bounded(n));
            expect(fast.nextUint32()).toBe(slow.next32());
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
