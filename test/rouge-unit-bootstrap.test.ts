/**
 * What ROUGE-1.5.5 prints as `Average_R/P/F` is a bootstrap mean over its per-unit values; reproducing it from
 * `rouge155Unit`'s values (../shared goldens, skipped when absent) checks that those values are the ones ROUGE
 * averages — in particular that `-t 1` pools raw counts and divides ROUGE-W's weighted counts WITHOUT f⁻¹ (its
 * bootstrap routine has no ROUGE-W case), which the rouge155 flavor's pooled average follows.
 *
 * The resampling, as ROUGE-1.5.5's `computeAverages`/`bootstrapResampling` do it, written here from that
 * description: units in string order of their ids (`<eval>.<peer>`); sample s = 0..B−1 seeds Perl's generator
 * (`srand(s)`: Perl ≥ 5.20's own drand48, x = (s << 16) + 0x330E, x ← (0x5DEECE66D·x + 0xB) mod 2⁴⁸,
 * rand() = x / 2⁴⁸) and draws N units with `int(rand(N))`; `-t 0` averages their R, P, F, `-t 1` sums their
 * counts and computes R = H/M, P = H/P', F = RP / ((1−α)P + αR); each of R, P, F's B sample values is sorted and
 * summed in that order, divided by B and printed with `%7.5f`. The confidence interval is left to the drop-in.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { perlFixed5 } from '../src/metrics/rouge155/perl-format.js';
import { rouge155Unit, type Rouge155TypeCounts } from '../src/metrics/rouge155/unit.js';
import { splitSentences } from '../src/text/rouge/index.js';
import { seeSentences, unitOptions } from './fixtures/rouge/golden-checks.js';
import { SHARED, haveShared } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/rouge155/sl2003.json');

/** Perl's drand48 (perl ≥ 5.20 ships its own): 48-bit state in a BigInt. */
class PerlRand {
  private x = 0n;
  srand(seed: number): void {
    this.x = (BigInt(seed >>> 0) << 16n) + 0x330en;
  }
  rand(n: number): number {
    this.x = (this.x * 0x5deece66dn + 0xbn) & 0xffffffffffffn;
    return n * (Number(this.x) / 2 ** 48);
  }
}

/** The unit indices sample s draws, for every s: the same for every type and record with N units (cached). */
const drawCache = new Map<number, Int32Array>();
function draws(n: number, samples: number): Int32Array {
  let d = drawCache.get(n * 100000 + samples);
  if (d === undefined) {
    d = new Int32Array(n * samples);
    const rng = new PerlRand();
    for (let s = 0; s < samples; s++) {
      rng.srand(s);
      for (let i = 0; i < n; i++) d[s * n + i] = Math.trunc(rng.rand(n));
    }
    drawCache.set(n * 100000 + samples, d);
  }
  return d;
}

/** ROUGE-1.5.5's printed averages of per-unit triples (R/P/F for -t 0, [model, peer, hit] counts for -t 1). */
function bootstrapAverages(units: Map<string, number[]>, countMode: 0 | 1, alpha: number, samples = 1000): string[] {
  const ids = [...units.keys()].sort(); // Perl `sort keys`: string order
  const values = ids.map((id) => units.get(id)!);
  const n = ids.length;
  const drawn = draws(n, samples);
  const columns: number[][] = [[], [], []];
  for (let s = 0; s < samples; s++) {
    const first = values[drawn[s * n]];
    const sum = [first[0], first[1], first[2]];
    for (let i = 1; i < n; i++) {
      const v = values[drawn[s * n + i]];
      for (let c = 0; c < 3; c++) sum[c] += v[c];
    }
    let out: number[];
    if (countMode === 0) {
      out = sum.map((x) => x / n);
    } else {
      const [m, p, h] = sum;
      const r = m > 0 ? h / m : 0;
      const pr = p > 0 ? h / p : 0;
      const d = (1 - alpha) * pr + alpha * r;
      out = [r, pr, d > 0 ? (r * pr) / d : 0];
    }
    for (let c = 0; c < 3; c++) columns[c].push(out[c]);
  }
  return columns.map((col) => {
    col.sort((a, b) => a - b);
    let total = 0;
    for (const x of col) total += x;
    return perlFixed5(total / col.length);
  });
}

interface Rouge155Record {
  hyp: string;
  refs: string[];
  config: { options: string; peer_id?: string };
  corpus: { printed: string[] };
  segments: unknown[][];
}

/** Checks a record's printed Average lines against the bootstrap of the units' values. */
function checkAverages(
  record: Rouge155Record,
  peerId: string,
  unitsOf: (segment: unknown[]) => Rouge155TypeCounts[],
): number {
  const options = unitOptions(record.config.options);
  const perType = new Map<string, Map<string, number[]>>();
  for (const segment of record.segments) {
    for (const t of unitsOf(segment)) {
      if (!perType.has(t.type)) perType.set(t.type, new Map());
      const values =
        options.countMode === 0 ? [t.recall, t.precision, t.fmeasure] : [t.modelCount, t.peerCount, t.hitCount];
      perType.get(t.type)!.set(`${segment[0]}.${peerId}`, values);
    }
  }
  let checked = 0;
  for (const [type, units] of perType) {
    const [r, p, f] = bootstrapAverages(units, options.countMode as 0 | 1, options.alpha);
    const expected = record.corpus.printed.filter((l) => l.startsWith(`${peerId} ${type} Average_`));
    expect(expected, `${record.config.options} ${type}`).toHaveLength(3);
    expect(
      expected.map((l) => l.split(' ')[3]),
      `${record.hyp} ${record.config.options} ${type}`,
    ).toEqual([r, p, f]);
    checked++;
  }
  return checked;
}

describe.skipIf(!HAVE_SHARED)("ROUGE-1.5.5's printed averages from rouge155Unit values (../shared)", () => {
  it('sl2003: every peer under the 8 option sets, -t 1 included (ROUGE-W pooled without f⁻¹)', () => {
    const file = JSON.parse(readFileSync(new URL('golden/rouge155/sl2003.json', SHARED), 'utf8')) as {
      records: Rouge155Record[];
    };
    const read = (pattern: string, e: number): string[] =>
      seeSentences(
        readFileSync(new URL(`data/${pattern.replace('{01..25}', String(e).padStart(2, '0'))}`, SHARED), 'utf8'),
      );
    let checked = 0;
    for (const record of file.records) {
      const options = unitOptions(record.config.options);
      checked += checkAverages(record, record.config.peer_id!, (segment) => {
        const e = segment[0] as number;
        return rouge155Unit(
          read(record.hyp, e),
          record.refs.map((r) => read(r, e)),
          options,
        );
      });
    }
    expect(checked).toBe(64 * 7 + 8); // 7 types per record, 8 per -2 -1 -U record
  });

  it('summeval.variants, systems M0 and M23: -l 100, -b 665, -f B, -t 1, -2 -1 -U', () => {
    const file = JSON.parse(readFileSync(new URL('golden/rouge155/summeval.variants.json', SHARED), 'utf8')) as {
      records: Rouge155Record[];
    };
    const cache = new Map<string, string[][]>();
    const sentences = (p: string): string[][] => {
      let s = cache.get(p);
      if (s === undefined) {
        const lines = readFileSync(new URL(`data/${p}`, SHARED), 'utf8').split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        cache.set(p, (s = lines.map((l) => splitSentences(l, 'punct'))));
      }
      return s;
    };
    let checked = 0;
    for (const record of file.records.filter((r) => /M(0|23)\.txt$/.test(r.hyp))) {
      const options = unitOptions(record.config.options);
      checked += checkAverages(record, 'X', (segment) => {
        const line = (segment[0] as number) - 1;
        return rouge155Unit(
          sentences(record.hyp)[line],
          record.refs.map((r) => sentences(r)[line]),
          options,
        );
      });
    }
    expect(checked).toBe(2 * (4 + 4 + 7 + 4 + 5));
  });
});
