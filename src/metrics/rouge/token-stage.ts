/**
 * ROUGE's token stage (../token-stage.ts), and the rows from pair statistics that every ROUGE path shares: pair
 * statistics of each candidate against its segment's references (./pair-stats.ts, with a candidate→segment map),
 * then the flavor's combination per candidate (./segment-row.ts).
 *
 * The stage takes ROUGE-N, ROUGE-S/SU, ROUGE-L and ROUGE-W in any flavor with a ROUGE tokenizer (which lowercases
 * itself), no length limit and a sentence split that keeps a line whole (`none`, `newline`: a batch's lines hold
 * no line break): the tokens of a line are then its chunks' tokens, and ROUGE-1.5.5's ROUGE-L and ROUGE-W, which
 * read sentences, read one per line. Other settings (ROUGE-Lsum's sentences, other splits, markup, limits,
 * sacrebleu tokenizers) need the text and keep `segmentStats` alone.
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { Vocabulary } from '../../text/intern.js';
import { isRougeTokenizerName, RougeInterner, type RougeTokenizerName } from '../../text/rouge/index.js';
import type { ChunkTokenizer, TokenStage } from '../token-stage.js';
import type { ResolvedRougeOptions } from './options.js';
import { rougePairStats, writeKernelRows } from './pair-stats.js';
import { writeRougeRows } from '../../wasm/rouge-rows.js';
import { rougeRowSettings } from './segment-row.js';
import { readsSentences, type SummaryStore } from './summary-text.js';

/** A ROUGE tokenizer (`rouge155`, `rouge-score`) with its stopword and stemming settings, one chunk at a time. */
export function rougeChunkTokenizer(tokenizer: RougeTokenizerName, stem: boolean, removeStopwords: boolean): ChunkTokenizer {
  const interner = new RougeInterner({ tokenizer, stem, removeStopwords }, new Vocabulary());
  return {
    tokenize(chunk, out) {
      // Once per distinct chunk of a memo: a small builder is cheap there.
      const row = new CsrBuilder(16, 1);
      const n = interner.appendIds(chunk, row);
      if (n > 0) {
        row.endRow();
        const { tokens } = row.finish();
        for (let k = 0; k < n; k++) out.push(tokens[k]);
      }
    },
  };
}

/**
 * Writes the row of each candidate `h` of `hyps` against the references of its segment `hypSegment[h]` (rows
 * `segRefOffsets[s] .. segRefOffsets[s + 1]` of `refs`): `ROUGE_STATS_WIDTH` numbers at `out[h · stride + column ..]`.
 */
export type RougeRowWriter = (
  hyps: SummaryStore, refs: SummaryStore, segRefOffsets: Int32Array, hypSegment: Int32Array,
  out: Float64Array, column: number, stride: number,
) => void;

/**
 * The rows for `options`: pair statistics reduced by the flavor's rule (the row kernel's, the one definition of each
 * rule), each candidate's row written where the caller wants it. Where a kernel's pair rows are the statistics
 * (./pair-stats.ts `writeKernelRows`) they are reduced where the kernel wrote them.
 */
export function rougeRowWriter(options: ResolvedRougeOptions): RougeRowWriter {
  const settings = rougeRowSettings(options);
  return (hyps, refs, segRefOffsets, hypSegment, out, column, stride) => {
    if (writeKernelRows(hyps.tokens, refs.tokens, segRefOffsets, hypSegment, options, settings, out, column, stride)) return;
    const pairs = rougePairStats(hyps, refs, segRefOffsets, options, hypSegment);
    writeRougeRows(pairs.rows, pairs.rowOffsets, hypSegment.length, settings, out, column, stride);
  };
}

/** `[0, 1, …, n]`: row `i` of a store is sentence `i`. */
function identityOffsets(n: number): Int32Array {
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) offsets[i] = i;
  return offsets;
}

/** The token stage of a ROUGE metric with `options`, or undefined when they need the text (see the file comment). */
export function rougeTokenStage(options: ResolvedRougeOptions): TokenStage | undefined {
  const { type, tokenizer, limit, split, stem, removeStopwords } = options;
  const wholeLine = split.kind === 'none' || split.kind === 'newline';
  if (type.kind === 'lsum' || !wholeLine || !isRougeTokenizerName(tokenizer) || limit.words > 0 || limit.bytes > 0) {
    return undefined;
  }
  const write = rougeRowWriter(options);
  // ROUGE-1.5.5's ROUGE-L and ROUGE-W read sentences: a non-empty line is one sentence, its token row. An empty
  // line has none in the text path and one empty sentence here: both give no units, no weight and no hits, hence
  // the same pair rows.
  const sentences = readsSentences(options);
  const store = (tokens: Csr): SummaryStore =>
    sentences
      ? { tokens, sentences: tokens, sentenceOffsets: identityOffsets(tokens.offsets.length - 1) }
      : { tokens, sentences: null, sentenceOffsets: null };
  return {
    tokenizerKey: `rouge|${tokenizer}|${stem}|${removeStopwords}`,
    createTokenizer: () => rougeChunkTokenizer(tokenizer, stem, removeStopwords),
    writeRows(batch, out, column, stride) {
      write(store(batch.hyps), store(batch.refs), batch.segRefOffsets, batch.hypSegment, out, column, stride);
    },
  };
}
