/**
 * The ROUGE kernels against extracts of the ROUGE-1.5.5 and rouge-score goldens kept in test/fixtures/rouge-kernels
 * (already tokenized; see its SOURCE.md), so that a clone of the repository checks them against the oracles:
 * - 42 one-sentence units: ROUGE-L, ROUGE-W-1.2, ROUGE-S4, ROUGE-SU4 `[model, peer, hit]` counts (-t 2);
 * - 3 SummEval units with 11 models (-f A): summary-level ROUGE-L and ROUGE-W-1.2 from the union masks with
 *   ROUGE-1.5.5's clipping (test/reference/rouge.ts), ROUGE-SU4 over the whole summaries;
 * - 4 SummEval summaries: rouge-score rougeL and rougeLsum precision/recall/F.
 * Tolerance: integers and rouge-score floats exact; ROUGE-W counts at the 15 significant digits Perl prints.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csrFromArrays } from '../src/text/csr.js';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import { RougeEngine, type RougeBatch, type RougeKernelExports } from '../src/wasm/rouge.js';
import { clippedUnionHits, rouge155WlcsHit } from './reference/rouge.js';

const DIR = new URL('./fixtures/rouge-kernels/', import.meta.url);

/** A fixture file. */
function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as T;
}

/** Interns space-separated tokens. */
function interner(): (text: string) => number[] {
  const ids = new Map<string, number>();
  return (text) => text.split(' ').filter((t) => t.length > 0).map((t) => {
    let id = ids.get(t);
    if (id === undefined) ids.set(t, (id = ids.size));
    return id;
  });
}

/** A value as Perl prints it (`%.15g`), read back. */
function perlPrinted(x: number): number {
  return Number(x.toPrecision(15));
}

/** One batch of `hyps[i]` against `refs[i]` (one segment each). */
function pairBatch(hyps: number[][], refs: number[][]): RougeBatch {
  return {
    hyps: csrFromArrays(hyps), hypSegment: null, refs: csrFromArrays(refs),
    segRefOffsets: Int32Array.from({ length: refs.length + 1 }, (_, i) => i),
  };
}

type Counts = [number, number, number];

for (const build of ['release', 'debug'] as WasmBuild[]) {
  describe(`ROUGE kernels vs oracle extracts (${build} build)`, () => {
    const engine = new RougeEngine(instantiateKernels(wasmModule(build)) as RougeKernelExports);
    const f = (x: number): number => engine.wlcsWeight(x, 1.2);

    it('ROUGE-1.5.5, 42 one-sentence units: ROUGE-L, ROUGE-W-1.2, ROUGE-S4, ROUGE-SU4 counts', () => {
      interface Pair {
        pair: number;
        hyp: string;
        ref: string;
        'ROUGE-L': Counts;
        'ROUGE-W-1.2': Counts | { error: string };
        'ROUGE-S4': Counts;
        'ROUGE-SU4': Counts;
      }
      const pairs = fixture<Pair[]>('rouge155-pairs.json');
      expect(pairs).toHaveLength(42);
      const ids = interner();
      const hyps = pairs.map((p) => ids(p.hyp));
      const refs = pairs.map((p) => ids(p.ref));
      const batch = pairBatch(hyps, refs);
      const lcs = engine.lcsLengths(batch).rows;
      const wlcs = engine.wlcsPairStats(batch, 1.2).rows;
      const s4 = engine.skipBigramCounts(batch, { maxGap: 4 }).rows;
      const su4 = engine.skipBigramCounts(batch, { maxGap: 4, unigrams: 'rouge155' }).rows;
      pairs.forEach((p, i) => {
        const [m, n] = [refs[i].length, hyps[i].length];
        const at = `pair ${p.pair}`;
        expect([m, n, lcs[i]], at).toEqual(p['ROUGE-L']);
        expect([s4[3 * i + 2], s4[3 * i + 1], s4[3 * i]], at).toEqual(p['ROUGE-S4']);
        expect([su4[3 * i + 2], su4[3 * i + 1], su4[3 * i]], at).toEqual(p['ROUGE-SU4']);
        const w = p['ROUGE-W-1.2'];
        if ('error' in w) expect(m, at).toBe(0);
        else expect([f(f(m)), f(n), wlcs[3 * i]].map(perlPrinted), at).toEqual(w);
      });
    });

    it('ROUGE-1.5.5, 3 SummEval units × 11 models (-f A): summary-level ROUGE-L, ROUGE-W-1.2, ROUGE-SU4 counts', () => {
      interface Unit { line: number; peer: string[]; models: string[][]; 'ROUGE-L': Counts; 'ROUGE-W-1.2': Counts; 'ROUGE-SU4': Counts }
      const { units } = fixture<{ units: Unit[] }>('rouge155-summeval.json');
      const ids = interner();
      for (const unit of units) {
        const peer = unit.peer.map(ids);
        const models = unit.models.map((m) => m.map(ids));
        const input = {
          hyps: csrFromArrays(peer),
          refs: csrFromArrays(models.flat()),
          units: Int32Array.from(models.flatMap((_, k) => {
            const from = models.slice(0, k).reduce((a, m) => a + m.length, 0);
            return [from, from + models[k].length, 0, peer.length];
          })),
        };
        const lcs = engine.lcsUnionMasks(input);
        const wlcs = engine.wlcsUnionMasks(input, 1.2);
        const su4 = engine.skipBigramCounts({
          hyps: csrFromArrays([peer.flat()]), hypSegment: null, refs: csrFromArrays(models.map((m) => m.flat())),
          segRefOffsets: Int32Array.of(0, models.length),
        }, { maxGap: 4, unigrams: 'rouge155' }).rows;
        const n = peer.flat().length;
        const l = [0, 0, 0];
        const w = [0, 0, 0];
        const s = [0, 0, 0];
        models.forEach((m, k) => {
          const lengths = m.map((sentence) => sentence.length);
          l[0] += lengths.reduce((a, b) => a + b, 0);
          l[1] += n;
          l[2] += clippedUnionHits(m, lcs.masks.subarray(lcs.maskOffsets[k], lcs.maskOffsets[k + 1]), peer);
          w[0] += f(lengths.reduce((a, len) => a + f(len), 0));
          w[1] += f(n);
          w[2] += rouge155WlcsHit(m, wlcs.masks.subarray(wlcs.maskOffsets[k], wlcs.maskOffsets[k + 1]), peer, f);
          s[0] += su4[3 * k + 2];
          s[1] += su4[3 * k + 1];
          s[2] += su4[3 * k];
        });
        const at = `line ${unit.line}`;
        expect(l, at).toEqual(unit['ROUGE-L']);
        expect(w.map(perlPrinted), at).toEqual(unit['ROUGE-W-1.2']);
        expect(s, at).toEqual(unit['ROUGE-SU4']);
      }
    });

    it('rouge-score, 4 SummEval summaries: rougeL and rougeLsum', () => {
      interface Unit { line: number; hyp: string[]; ref: string[]; rougeL: Counts; rougeLsum: Counts }
      const { units } = fixture<{ units: Unit[] }>('rouge-score-summeval.json');
      const ids = interner();
      const fmeasure = (p: number, r: number): number => (p + r > 0 ? (2 * p * r) / (p + r) : 0);
      for (const unit of units) {
        const hyp = unit.hyp.map(ids);
        const ref = unit.ref.map(ids);
        const [n, m] = [hyp.flat().length, ref.flat().length];
        const lcs = engine.lcsLengths(pairBatch([hyp.flat()], [ref.flat()])).rows[0];
        expect([lcs / n, lcs / m, fmeasure(lcs / n, lcs / m)], `line ${unit.line}`).toEqual(unit.rougeL);
        const { masks } = engine.lcsUnionMasks({ hyps: csrFromArrays(hyp), refs: csrFromArrays(ref), units: Int32Array.of(0, ref.length, 0, hyp.length) });
        const hits = clippedUnionHits(ref, masks, hyp);
        expect([hits / n, hits / m, fmeasure(hits / n, hits / m)], `line ${unit.line}`).toEqual(unit.rougeLsum);
      }
    });
  });
}
