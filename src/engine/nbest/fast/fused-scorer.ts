/**
 * The fast path of `palette nbest` (issue 5): when every metric of a run is one whose tokens the chunk memo can give
 * (ROUGE-N, ROUGE-S/SU, ROUGE-L and ROUGE-W in any flavor, with a ROUGE tokenizer, no length limit and a sentence
 * split that keeps a line whole; WER with jiwer's split; PER with Python's split; either with or without
 * lowercasing) or Moses BLEU, a task's rows are computed here instead of through each metric's `segmentStats` in
 * layers: each candidate and reference line is scanned once (./chunk-memo.ts), the tokens of every tokenizer are
 * built as CSR arrays, and the kernels take all the candidates of the task at once with a candidate→segment map.
 * Rows are the Metric API's, column for column: the same kernels, the same pair arithmetic (`rougePairStats`), the
 * same multi-reference reduction (`SegmentCombiner` or its flat writers, WER's fewest-edits choice in the kernel,
 * PER's `writeFewestErrorRows`, imported from the metric); the tests compare both paths bit for bit.
 *
 * Moses BLEU's tokens are the chunks themselves (./bleu-rows.ts).
 */
import type { Csr } from '../../../text/csr.js';
import type { MosesBleu } from '../../../metrics/bleu/moses-metric.js';
import { type Per, writeFewestErrorRows } from '../../../metrics/per/per.js';
import type { Rouge } from '../../../metrics/rouge/rouge.js';
import { fMeasureOf } from '../../../metrics/rouge/f-measure.js';
import { rougePairStats } from '../../../metrics/rouge/pair-stats.js';
import { writeBestFRow } from '../../../metrics/rouge/best-f-row.js';
import { writeRouge155Row } from '../../../metrics/rouge/rouge155-row.js';
import { ROUGE_STATS_WIDTH, SegmentCombiner } from '../../../metrics/rouge/segment-row.js';
import { readsSentences, type SummaryStore } from '../../../metrics/rouge/summary-text.js';
import type { Wer } from '../../../metrics/wer/wer.js';
import { isRougeTokenizerName } from '../../../text/rouge/index.js';
import { editDistances } from '../../../wasm/edit.js';
import { perReferenceNgramCounts } from '../../../wasm/ngram.js';
import type { NbestMetric, ReferenceSource, TaskSegments } from '../nbest-metrics.js';
import { ChunkMemo, RowScratch } from './chunk-memo.js';
import { writeMosesBleuRows } from './bleu-rows.js';
import {
  rougeChunkTokenizer, spaceChunkTokenizer, wordChunkKey, wordChunkTokenizer, type ChunkTokenizer,
} from './chunk-tokenizers.js';

/** Candidates and references of a task as token ids of one tokenizer. */
interface TokenBatch {
  readonly hyps: Csr;
  readonly hypSegment: Int32Array;
  readonly refs: Csr;
  readonly segRefOffsets: Int32Array;
}

/** Writes a metric's rows (`width` columns at `column` of rows `stride` wide) from its tokenizer's batch. */
type RowWriter = (batch: TokenBatch, out: Float64Array, column: number, stride: number) => void;

/** One metric of the fused path: its tokenizer (a factory: every task gets fresh vocabularies) and its rows. */
interface FusedMetric {
  readonly makeTokenizer: () => ChunkTokenizer;
  readonly key: string;
  readonly write: RowWriter;
}

/**
 * ROUGE rows: pair statistics with the segment map, then the flavor's combination per candidate; ROUGE-1.5.5's
 * ROUGE-N/S/SU and the `best-f` rule (rouge-score's) without jackknifing by flat writers (same numbers, no object
 * or string per pair).
 */
function rougeWriter(metric: Rouge): RowWriter {
  const { options } = metric;
  const combiner = new SegmentCombiner(options, fMeasureOf(options.weighting));
  const { flavor, jackknife, type, weighting, multiReference } = options;
  // Every rouge155 type (ROUGE-W with its f⁻¹, passed as the pairs give it) is the same Perl arithmetic.
  const flat = flavor === 'rouge155' && !jackknife;
  const flatBestF = flavor !== 'rouge155' && !jackknife && multiReference === 'best-f' && type.kind !== 'w';
  const fmeasure = fMeasureOf(weighting);
  const alpha = weighting.form === 'alpha' ? weighting.alpha : 0.5;
  const formula = multiReference === 'best-recall' ? 'B' : 'A';
  // ROUGE-1.5.5's ROUGE-L and ROUGE-W read sentences: with a whole-line split (see `fusedMetric`) a non-empty line
  // is one sentence, its token row. An empty line has none in the Metric API's reading and one empty sentence here:
  // both give no units, no weight and no hits, hence the same pair rows.
  const sentences = readsSentences(options);
  const store = (tokens: Csr): SummaryStore =>
    sentences
      ? { tokens, sentences: tokens, sentenceOffsets: identityOffsets(tokens.offsets.length - 1) }
      : { tokens, sentences: null, sentenceOffsets: null };
  return (batch, out, column, stride) => {
    const pairs = rougePairStats(store(batch.hyps), store(batch.refs), batch.segRefOffsets, options, batch.hypSegment);
    const n = batch.hypSegment.length;
    if (flat) {
      const { rows, rowOffsets } = pairs;
      const inverse = type.kind === 'w' ? pairs.inverse : undefined;
      for (let h = 0; h < n; h++) {
        writeRouge155Row(rows, rowOffsets[h], rowOffsets[h + 1], formula, alpha, out, h * stride + column, inverse);
      }
      return;
    }
    if (flatBestF) {
      const { rows, rowOffsets } = pairs;
      for (let h = 0; h < n; h++) writeBestFRow(rows, rowOffsets[h], rowOffsets[h + 1], fmeasure, out, h * stride + column);
      return;
    }
    if (stride === ROUGE_STATS_WIDTH && column === 0) {
      for (let h = 0; h < n; h++) {
        combiner.write(pairs.rows, pairs.rowOffsets[h], pairs.rowOffsets[h + 1], pairs.inverse, out, h * stride);
      }
      return;
    }
    const row = new Float64Array(ROUGE_STATS_WIDTH);
    for (let h = 0; h < n; h++) {
      combiner.write(pairs.rows, pairs.rowOffsets[h], pairs.rowOffsets[h + 1], pairs.inverse, row, 0);
      out.set(row, h * stride + column);
    }
  };
}

/** `[0, 1, …, n]`: row `i` of a store is sentence `i`. */
function identityOffsets(n: number): Int32Array {
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) offsets[i] = i;
  return offsets;
}

/** WER rows: the kernel's alignment counts against the reference with the fewest edits. */
const werWriter: RowWriter = (batch, out, column, stride) => {
  const { ops } = editDistances(batch, { alignment: true });
  const n = batch.hypSegment.length;
  // ops rows are `best, hits, substitutions, deletions, insertions`: the row is its last four.
  for (let h = 0; h < n; h++) for (let c = 0; c < 4; c++) out[h * stride + column + c] = ops![5 * h + 1 + c];
};

/** PER rows: clipped unigram counts against the reference with the fewest errors max(n, m) − correct (first on ties). */
const perWriter: RowWriter = (batch, out, column, stride) => {
  const { rows, rowOffsets } = perReferenceNgramCounts(batch, 1);
  writeFewestErrorRows(rows, rowOffsets, batch.hypSegment.length, out, column, stride);
};

/** The fused form of a metric, or undefined when its settings need the generic path. */
function fusedMetric(m: NbestMetric): FusedMetric | 'bleu' | undefined {
  if (m.id === 'bleu') {
    const bleu = m.metric as MosesBleu;
    // Other settings (never those of `palette nbest` today) keep Moses' own statistics function.
    if (bleu.refLength !== 'closest' || bleu.lowercase) return 'bleu';
    const order = bleu.maxNgramOrder;
    return {
      makeTokenizer: spaceChunkTokenizer,
      key: 'space',
      write: (batch, out, column, stride) => writeMosesBleuRows(batch, order, out, column, stride),
    };
  }
  if (m.id === 'wer' || m.id === 'per') {
    const w = m.metric as Wer | Per;
    const split = m.id === 'wer' ? 'jiwer' : 'none';
    if (w.tokenize !== split) return undefined;
    const { lowercase } = w;
    return {
      makeTokenizer: () => wordChunkTokenizer(split, lowercase),
      key: wordChunkKey(split, lowercase),
      write: m.id === 'wer' ? werWriter : perWriter,
    };
  }
  if (!m.id.startsWith('rouge') || !('options' in m.metric)) return undefined;
  const { options } = m.metric as Rouge;
  const { type, tokenizer, limit, split } = options;
  // ROUGE-Lsum's sentences are its own; the rouge155 ROUGE-L/W sentences are whole lines (see `rougeWriter`).
  const lineUnits = type.kind !== 'lsum';
  // Sentence splits other than none/newline could cut inside a line (a candidate or reference holds no newline),
  // and t-tags/marker:STR also take their markup out of the text, which the chunk memo, reading whole lines, cannot.
  const wholeLine = split.kind === 'none' || split.kind === 'newline';
  if (!lineUnits || !wholeLine || !isRougeTokenizerName(tokenizer) || limit.words > 0 || limit.bytes > 0) {
    return undefined;
  }
  const { stem, removeStopwords } = options;
  return {
    makeTokenizer: () => rougeChunkTokenizer(tokenizer, stem, removeStopwords),
    key: `rouge|${tokenizer}|${stem}|${removeStopwords}`,
    write: rougeWriter(m.metric as Rouge),
  };
}

/** Distinct chunks a thread's memo holds before it is started afresh (bounds its memory on long lists). */
const MEMO_CHUNK_LIMIT = 1 << 20;

/** Rows of a task for every metric of a run (the fused replacement of the per-metric loop of `scoreTask`). */
export type FusedRows = (task: TaskSegments, refs: ReferenceSource) => Float64Array;

/**
 * The fused rows of a run's metrics, or undefined when some metric needs the generic path (or none would gain:
 * BLEU alone already is one batched call).
 */
export function fusedRows(metrics: readonly NbestMetric[]): FusedRows | undefined {
  const parts: (FusedMetric | 'bleu')[] = [];
  for (const m of metrics) {
    const f = fusedMetric(m);
    if (f === undefined) return undefined;
    parts.push(f);
  }
  if (metrics.every((m) => m.id === 'bleu')) return undefined;
  const keys: string[] = [];
  const makers: (() => ChunkTokenizer)[] = [];
  const slot = parts.map((p) => {
    if (p === 'bleu') return -1;
    let k = keys.indexOf(p.key);
    if (k < 0) {
      k = keys.length;
      keys.push(p.key);
      makers.push(p.makeTokenizer);
    }
    return k;
  });
  let stride = 0;
  for (const m of metrics) stride += m.width;
  let memo: ChunkMemo | undefined;
  // The token rows of a task live until its kernels have run (they copy them), so the next task may reuse them.
  const refScratch = new RowScratch();
  const hypScratch = new RowScratch();
  return (task, refs) => {
    const n = task.hyps.length;
    const nSegments = task.segmentIds.length;
    const { nRefs } = refs;
    // One memo for the tasks of a thread (rows depend only on token equality, so ids from a table grown over
    // earlier tasks give the same rows), started afresh when it has grown large.
    if (memo === undefined || memo.size > MEMO_CHUNK_LIMIT) memo = new ChunkMemo(makers.map((make) => make()));
    const refCsr = memo.rows(nSegments * nRefs, (i) => refs.line(i % nRefs, task.segmentIds[Math.floor(i / nRefs)]), refScratch);
    const hypCsr = memo.rows(n, (h) => task.hyps[h], hypScratch);
    const segRefOffsets = new Int32Array(nSegments + 1);
    for (let k = 0; k <= nSegments; k++) segRefOffsets[k] = k * nRefs;
    const out = new Float64Array(n * stride);
    let column = 0;
    metrics.forEach((m, i) => {
      const p = parts[i];
      if (p === 'bleu') {
        const rows = m.rows(task, refs);
        for (let h = 0; h < n; h++) out.set(rows.subarray(h * m.width, (h + 1) * m.width), h * stride + column);
      } else {
        const t = slot[i];
        p.write({ hyps: hypCsr[t], hypSegment: task.hypLocal, refs: refCsr[t], segRefOffsets }, out, column, stride);
      }
      column += m.width;
    });
    return out;
  };
}
