/**
 * The pairwise stage of a metric that has a token stage (src/metrics/token-stage.ts: ROUGE-N/L/W/S/SU, WER, PER,
 * Moses BLEU …) but no pairwise stage of its own: each text is cut at spaces and tokenized once with the stage's
 * tokenizer (one vocabulary for both sides); the pairs of a tile are one token batch whose "segments" are the tile's
 * references, one each, every segment holding all of the tile's hypotheses (token ids copied, not tokenized
 * again); the metric's own row writer fills the rows, and a pair's score is its `sentenceScoreFromStats`.
 */
import { InputError } from '../../errors.js';
import { CsrBuilder, type Csr } from '../../text/csr.js';
import type { Metric } from '../../metrics/metric.js';
import { checkPairRange, csrRepeat, csrSlice, type PairwiseStage, type PairwiseTexts } from '../../metrics/pairwise.js';
import type { ChunkTokenizer, TokenStage } from '../../metrics/token-stage.js';

/** Texts as token ids of the stage's tokenizer. */
interface TokenTexts extends PairwiseTexts {
  readonly tokens: Csr;
}

/** References also carry the tokenizer, whose vocabulary the hypotheses then share. */
interface TokenReferences extends TokenTexts {
  readonly tokenizer: ChunkTokenizer;
}

/**
 * Characters at which a metric may read a line as several (Python's `str.splitlines` breaks): the token stage only
 * covers single lines, so texts holding one are refused rather than scored differently.
 */
const LINE_BREAK = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

function tokenRows(tokenizer: ChunkTokenizer, texts: readonly string[], metric: Metric): Csr {
  const out = new CsrBuilder(texts.length * 24, texts.length);
  texts.forEach((text, i) => {
    if (LINE_BREAK.test(text)) {
      throw new InputError('E_BAD_INPUT', `text ${i + 1} holds a line break: pairwise ${metric.id} scores one line per text`);
    }
    for (const chunk of text.split(' ')) if (chunk.length > 0) tokenizer.tokenize(chunk, out);
    out.endRow();
  });
  return out.finish();
}

/** The pairwise stage of `metric` through its token stage `stage`. */
export function tokenPairwiseStage(metric: Metric, stage: TokenStage): PairwiseStage<TokenTexts, TokenReferences> {
  const width = metric.statsWidth;
  const row = new Float64Array(width);
  return {
    statsWidth: width,
    references: (texts) => {
      const tokenizer = stage.createTokenizer();
      return { count: texts.length, tokens: tokenRows(tokenizer, texts, metric), tokenizer };
    },
    hypotheses: (texts, refs) => ({ count: texts.length, tokens: tokenRows(refs.tokenizer, texts, metric) }),
    pairStats: (hyps, hypFrom, hypTo, refs, refFrom, refTo) => {
      checkPairRange('hypothesis', hypFrom, hypTo, hyps.count);
      checkPairRange('reference', refFrom, refTo, refs.count);
      const n = hypTo - hypFrom;
      const m = refTo - refFrom;
      const out = new Float64Array(n * m * width);
      if (n === 0 || m === 0) return out;
      const hypSegment = new Int32Array(n * m);
      for (let j = 0; j < m; j++) hypSegment.fill(j, j * n, (j + 1) * n);
      const segRefOffsets = new Int32Array(m + 1);
      for (let j = 0; j <= m; j++) segRefOffsets[j] = j;
      // Rows come segment-major (reference j, then hypothesis i); the stage's contract is hypothesis-major.
      const rows = new Float64Array(n * m * width);
      stage.writeRows(
        { hyps: csrRepeat(hyps.tokens, hypFrom, hypTo, m), hypSegment, refs: csrSlice(refs.tokens, refFrom, refTo), segRefOffsets },
        rows, 0, width,
      );
      for (let j = 0; j < m; j++) {
        for (let i = 0; i < n; i++) out.set(rows.subarray((j * n + i) * width, (j * n + i + 1) * width), (i * m + j) * width);
      }
      return out;
    },
    score: (rows, at) => {
      row.set(rows.subarray(at, at + width));
      return metric.sentenceScoreFromStats(row).score;
    },
  };
}
