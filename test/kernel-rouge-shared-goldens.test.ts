/**
 * The ROUGE kernels against ROUGE-1.5.5 and rouge-score on the goldens in ../shared (skipped when ../shared is
 * absent). The kernels give pair statistics and masks; the few steps between them and the oracles' counts are done
 * here the way the oracles do them (tokenizers, the `tokpunct` sentence split of golden/README.md, the summary-level
 * clipping of test/reference/rouge.ts):
 * - golden/edge/pairs_rouge155.jsonl (199 one-sentence units, no stemming): ROUGE-L, ROUGE-W-1.2, ROUGE-S4 and
 *   ROUGE-SU4 model/peer/hit counts (-t 2);
 * - golden/rouge155/summeval.multiref11.json (16 systems × 100 units × 11 models, -f A, no stemming): ROUGE-L,
 *   ROUGE-W-1.2 (summary level: union masks + clipping) and ROUGE-SU4 counts (-t 2);
 * - golden/rouge155/summeval.variants.json, `-2 -1 -U` records: ROUGE-S* and ROUGE-SU* counts (any gap);
 * - golden/rouge-score/summeval.ref0.json, no stemming: rougeL (LCS of whole summaries, 40–130 tokens: multi-word
 *   vectors) and rougeLsum (union LCS over sentences) precision/recall/F.
 * Tolerance: integers exact; ROUGE-W counts equal at the 15 significant digits Perl prints them with; rouge-score
 * floats exactly equal (the README allows 1e-9 relative; the same IEEE operations give the same values).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { csrFromArrays, type Csr } from '../src/text/csr.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';
import { RougeEngine, type RougeBatch, type RougeKernelExports } from '../src/wasm/rouge.js';
import { clippedUnionHits, rouge155WlcsHit } from './reference/rouge.js';
import { SHARED, dataLines, haveShared } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/edge/pairs_rouge155.jsonl');

/** Interns token strings to ids (test-local; no object per token matters here). */
class Ids {
  private readonly map = new Map<string, number>();
  of(tokens: readonly string[]): number[] {
    return tokens.map((t) => {
      let id = this.map.get(t);
      if (id === undefined) this.map.set(t, (id = this.map.size));
      return id;
    });
  }
}

/** ROUGE-1.5.5 tokens (no stemming): ASCII-lowercase, every byte outside [a-z0-9] separates, `-` tokens dropped. */
function rouge155Tokens(text: string): string[] {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase()).match(/[a-z0-9]+/g) ?? [];
}

/** rouge-score tokens (no stemmer): lowercase, runs outside [a-z0-9] become spaces, split. */
function rougeScoreTokens(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').split(' ').filter((t) => t.length > 0);
}

/** The `tokpunct` sentences of a line: a sentence ends after each maximal run of `.`, `!`, `?` tokens. */
function tokpunctSentences(line: string): string[] {
  const tokens = line.split(/\s+/).filter((t) => t.length > 0);
  const sentences: string[] = [];
  let current: string[] = [];
  tokens.forEach((t, i) => {
    current.push(t);
    const end = /^[.!?]$/.test(t) && (i + 1 === tokens.length || !/^[.!?]$/.test(tokens[i + 1]));
    if (end) {
      sentences.push(current.join(' '));
      current = [];
    }
  });
  if (current.length > 0) sentences.push(current.join(' '));
  return sentences;
}

/** A golden JSON file. */
function golden<T>(path: string): T {
  return JSON.parse(readFileSync(new URL(`golden/${path}`, SHARED), 'utf8')) as T;
}

/** A JSON Lines golden file without its header line. */
function goldenLines<T>(path: string): T[] {
  return readFileSync(new URL(`golden/${path}`, SHARED), 'utf8')
    .split('\n').filter((l) => l.length > 0).slice(1).map((l) => JSON.parse(l) as T);
}

/** A value as Perl prints it (`%.15g`), read back. */
function perlPrinted(x: number): number {
  return Number(x.toPrecision(15));
}

/** ROUGE-1.5.5 -t 2 counts of one type. */
interface Counts {
  readonly model_count: number;
  readonly peer_count: number;
  readonly hit_count: number;
}

/** A record of the ROUGE-1.5.5 SummEval goldens. */
interface Rouge155Record {
  readonly hyp: string;
  readonly refs: string[];
  readonly config: { readonly options: string };
  readonly segment_fields: string[];
  readonly segments: unknown[][];
}

/** Sentences of many summaries as CSR rows, each summary a range of rows. */
interface Summaries {
  /** Token ids per sentence, summary after summary. */
  readonly sentences: number[][];
  /** Rows of summary `i`: `from[i] .. from[i + 1]`. */
  readonly from: number[];
}

/** Splits and tokenizes summaries into sentence rows. */
function summaries(lines: readonly string[], tokenize: (s: string) => string[], ids: Ids, split: (line: string) => string[]): Summaries {
  const sentences: number[][] = [];
  const from = [0];
  for (const line of lines) {
    for (const s of split(line)) sentences.push(ids.of(tokenize(s)));
    from.push(sentences.length);
  }
  return { sentences, from };
}

describe.skipIf(!HAVE_SHARED)('ROUGE kernels vs ROUGE-1.5.5 and rouge-score goldens (../shared)', () => {
  const engine = new RougeEngine(instantiateKernels(wasmModule('release')) as RougeKernelExports);
  const f = (x: number): number => engine.wlcsWeight(x, 1.2);

  it('pairs_rouge155: ROUGE-L, ROUGE-W-1.2, ROUGE-S4 and ROUGE-SU4 counts of 199 one-sentence units', () => {
    interface PairRecord { pair: number; hyp: string; ref: string }
    interface CountsRecord { pair: number; counts_nostem: Record<string, Counts | { error: string }> }
    const pairs = new Map(goldenLines<PairRecord>('edge/pairs.jsonl').map((p) => [p.pair, p]));
    const records = goldenLines<CountsRecord>('edge/pairs_rouge155.jsonl');
    expect(records).toHaveLength(199);
    const ids = new Ids();
    const hyps: number[][] = [];
    const refs: number[][] = [];
    for (const r of records) {
      hyps.push(ids.of(rouge155Tokens(pairs.get(r.pair)!.hyp)));
      refs.push(ids.of(rouge155Tokens(pairs.get(r.pair)!.ref)));
    }
    const batch: RougeBatch = {
      hyps: csrFromArrays(hyps), hypSegment: null, refs: csrFromArrays(refs),
      segRefOffsets: Int32Array.from({ length: refs.length + 1 }, (_, i) => i),
    };
    const lcs = engine.lcsLengths(batch).rows;
    const wlcs = engine.wlcsPairStats(batch, 1.2).rows;
    const s4 = engine.skipBigramCounts(batch, { maxGap: 4 }).rows;
    const su4 = engine.skipBigramCounts(batch, { maxGap: 4, unigrams: 'rouge155' }).rows;
    records.forEach((r, i) => {
      const m = refs[i].length;
      const n = hyps[i].length;
      const at = `pair ${r.pair}`;
      expect(r.counts_nostem['ROUGE-L'], at).toEqual({ model_count: m, peer_count: n, hit_count: lcs[i] });
      expect(r.counts_nostem['ROUGE-S4'], at).toEqual({ model_count: s4[3 * i + 2], peer_count: s4[3 * i + 1], hit_count: s4[3 * i] });
      expect(r.counts_nostem['ROUGE-SU4'], at).toEqual({ model_count: su4[3 * i + 2], peer_count: su4[3 * i + 1], hit_count: su4[3 * i] });
      const w = r.counts_nostem['ROUGE-W-1.2'];
      if ('error' in w) {
        // ROUGE-1.5.5 dies on a model without tokens (its f⁻¹ divides by the model's weight).
        expect(m, at).toBe(0);
      } else {
        expect({ model: perlPrinted(f(f(m))), peer: perlPrinted(f(n)), hit: perlPrinted(wlcs[3 * i]) }, at)
          .toEqual({ model: w.model_count, peer: w.peer_count, hit: w.hit_count });
      }
    });
  });

  describe('SummEval, 11 references', () => {
    const REFS = Array.from({ length: 11 }, (_, k) => `summeval/refs/ref.${k}.txt`);
    const ids = new Ids();
    let models: Summaries[] = [];
    let modelRows: Csr;
    /** Row offset of each model file's sentences in `modelRows`. */
    let modelBase: number[] = [];

    beforeAll(() => {
      models = REFS.map((path) => summaries(dataLines(path), rouge155Tokens, ids, tokpunctSentences));
      const all = models.flatMap((m) => m.sentences);
      modelRows = csrFromArrays(all);
      modelBase = [];
      let base = 0;
      for (const m of models) {
        modelBase.push(base);
        base += m.sentences.length;
      }
    });

    /** Column index of a `segment_fields` name. */
    const column = (record: Rouge155Record, name: string): number => {
      const at = record.segment_fields.indexOf(name);
      expect(at, name).toBeGreaterThan(0);
      return at;
    };

    /** Units (one per line and model) of a peer file, with its sentence rows. */
    const unitsOf = (peer: Summaries): Int32Array => {
      const units: number[] = [];
      for (let line = 0; line + 1 < peer.from.length; line++) {
        models.forEach((m, k) => {
          units.push(modelBase[k] + m.from[line], modelBase[k] + m.from[line + 1], peer.from[line], peer.from[line + 1]);
        });
      }
      return Int32Array.from(units);
    };

    /** Sentences of line `line` of a summary file. */
    const linesOf = (s: Summaries, line: number): number[][] => s.sentences.slice(s.from[line], s.from[line + 1]);

    it('multiref11: ROUGE-L, ROUGE-W-1.2 and ROUGE-SU4 counts of 16 systems × 100 units (-f A)', () => {
      const file = golden<{ records: Rouge155Record[] }>('rouge155/summeval.multiref11.json');
      expect(file.records).toHaveLength(16);
      for (const record of file.records) {
        expect(record.refs).toEqual(REFS);
        expect(record.config.options).toBe('-n 4 -w 1.2 -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0');
        const peer = summaries(dataLines(record.hyp), rouge155Tokens, ids, tokpunctSentences);
        const input = { hyps: csrFromArrays(peer.sentences), refs: modelRows, units: unitsOf(peer) };
        const lcs = engine.lcsUnionMasks(input);
        const wlcs = engine.wlcsUnionMasks(input, 1.2);
        const su4 = skipBigramsOf(peer, { maxGap: 4, unigrams: 'rouge155' });
        const [lAt, wAt, suAt] = ['ROUGE-L', 'ROUGE-W-1.2', 'ROUGE-SU4'].map((t) => column(record, `${t} counts(-t 2)`));
        for (const segment of record.segments) {
          const line = (segment[0] as number) - 1;
          const peerSentences = linesOf(peer, line);
          const n = peerSentences.reduce((a, s) => a + s.length, 0);
          let l = [0, 0, 0];
          let w = [0, 0, 0];
          models.forEach((m, k) => {
            const u = line * models.length + k;
            const modelSentences = linesOf(m, line);
            const lengths = modelSentences.map((s) => s.length);
            const lm = lcs.masks.subarray(lcs.maskOffsets[u], lcs.maskOffsets[u + 1]);
            const wm = wlcs.masks.subarray(wlcs.maskOffsets[u], wlcs.maskOffsets[u + 1]);
            l = [l[0] + lengths.reduce((a, b) => a + b, 0), l[1] + n, l[2] + clippedUnionHits(modelSentences, lm, peerSentences)];
            const base = lengths.reduce((a, len) => a + f(len), 0);
            w = [w[0] + f(base), w[1] + f(n), w[2] + rouge155WlcsHit(modelSentences, wm, peerSentences, f)];
          });
          const at = `${record.hyp} line ${line + 1}`;
          expect(l, at).toEqual(segment[lAt]);
          expect(w.map(perlPrinted), at).toEqual(segment[wAt]);
          expect(su4[line], at).toEqual(segment[suAt]);
        }
      }
    });

    it('variants -2 -1 -U: ROUGE-S* and ROUGE-SU* counts of 4 systems × 100 units (-f A)', () => {
      const file = golden<{ records: Rouge155Record[] }>('rouge155/summeval.variants.json');
      const records = file.records.filter((r) => r.config.options.startsWith('-n 2 -2 -1 -U '));
      expect(records).toHaveLength(4);
      for (const record of records) {
        expect(record.refs).toEqual(REFS);
        const peer = summaries(dataLines(record.hyp), rouge155Tokens, ids, tokpunctSentences);
        const s = skipBigramsOf(peer, { maxGap: -1, unigrams: 'none' });
        const su = skipBigramsOf(peer, { maxGap: -1, unigrams: 'rouge155' });
        const [sAt, suAt] = ['ROUGE-S*', 'ROUGE-SU*'].map((t) => column(record, `${t} counts(-t 2)`));
        for (const segment of record.segments) {
          const line = (segment[0] as number) - 1;
          expect(s[line], `${record.hyp} line ${line + 1}`).toEqual(segment[sAt]);
          expect(su[line], `${record.hyp} line ${line + 1}`).toEqual(segment[suAt]);
        }
      }
    });

    /**
     * ROUGE-1.5.5 skip-bigram -t 2 counts `[model, peer, hit]` per line, summed over the 11 models (-f A): each side
     * is the whole summary (its sentences joined), one segment per line with the 11 models as references.
     */
    function skipBigramsOf(peer: Summaries, options: { maxGap: number; unigrams: 'none' | 'rouge155' }): number[][] {
      const lines = peer.from.length - 1;
      const hyps: number[][] = [];
      const refs: number[][] = [];
      for (let line = 0; line < lines; line++) {
        hyps.push(linesOf(peer, line).flat());
        for (const m of models) refs.push(linesOf(m, line).flat());
      }
      const batch: RougeBatch = {
        hyps: csrFromArrays(hyps), hypSegment: null, refs: csrFromArrays(refs),
        segRefOffsets: Int32Array.from({ length: lines + 1 }, (_, i) => i * models.length),
      };
      const { rows } = engine.skipBigramCounts(batch, options);
      const totals: number[][] = [];
      for (let line = 0; line < lines; line++) {
        const t = [0, 0, 0];
        for (let k = 0; k < models.length; k++) {
          const at = 3 * (line * models.length + k);
          t[0] += rows[at + 2];
          t[1] += rows[at + 1];
          t[2] += rows[at];
        }
        totals.push(t);
      }
      return totals;
    }
  });

  it('rouge-score summeval.ref0 (no stemming): rougeL and rougeLsum of 16 systems × 100 summaries', () => {
    interface ScoreRecord {
      hyp: string;
      refs: string[];
      config: { use_stemmer: boolean };
      segment_fields: string[];
      segments: [number, ...number[][]][];
    }
    const file = golden<{ records: ScoreRecord[] }>('rouge-score/summeval.ref0.json');
    const records = file.records.filter((r) => !r.config.use_stemmer);
    expect(records).toHaveLength(16);
    const ids = new Ids();
    const split = (line: string): string[] => tokpunctSentences(line);
    const whole = (line: string): string[] => [line];
    const refLines = dataLines('summeval/refs/ref.0.txt');
    const refSentences = summaries(refLines, rougeScoreTokens, ids, split);
    const refWhole = summaries(refLines, rougeScoreTokens, ids, whole);
    const fmeasure = (p: number, r: number): number => (p + r > 0 ? (2 * p * r) / (p + r) : 0);
    for (const record of records) {
      expect(record.refs).toEqual(['summeval/refs/ref.0.txt']);
      const lines = dataLines(record.hyp);
      const hypSentences = summaries(lines, rougeScoreTokens, ids, split);
      const hypWhole = summaries(lines, rougeScoreTokens, ids, whole);
      const lAt = record.segment_fields.indexOf('rougeL');
      const lsumAt = record.segment_fields.indexOf('rougeLsum');
      const batch: RougeBatch = {
        hyps: csrFromArrays(hypWhole.sentences), hypSegment: null, refs: csrFromArrays(refWhole.sentences),
        segRefOffsets: Int32Array.from({ length: lines.length + 1 }, (_, i) => i),
      };
      const lcs = engine.lcsLengths(batch).rows;
      const units = Int32Array.from(lines.flatMap((_, i) => [
        refSentences.from[i], refSentences.from[i + 1], hypSentences.from[i], hypSentences.from[i + 1],
      ]));
      const masks = engine.lcsUnionMasks({
        hyps: csrFromArrays(hypSentences.sentences), refs: csrFromArrays(refSentences.sentences), units,
      });
      for (const segment of record.segments) {
        const i = segment[0] - 1;
        const at = `${record.hyp} line ${i + 1}`;
        const n = hypWhole.sentences[i].length;
        const m = refWhole.sentences[i].length;
        const p = n && m ? lcs[i] / n : 0;
        const r = n && m ? lcs[i] / m : 0;
        expect([p, r, fmeasure(p, r)], at).toEqual(segment[lAt]);
        const refS = refSentences.sentences.slice(refSentences.from[i], refSentences.from[i + 1]);
        const hypS = hypSentences.sentences.slice(hypSentences.from[i], hypSentences.from[i + 1]);
        const hits = n && m ? clippedUnionHits(refS, masks.masks.subarray(masks.maskOffsets[i], masks.maskOffsets[i + 1]), hypS) : 0;
        expect([hits / (n || 1), hits / (m || 1), fmeasure(hits / (n || 1), hits / (m || 1))], at).toEqual(segment[lsumAt]);
      }
    }
  });
});
