/**
 * Palette's public API: the metrics (BLEU and its flavors, chrF/chrF++, NIST) behind one {@link Metric} contract,
 * the helpers that score corpora and sentences with it, tokenizers, file reading, and the `palette` CLI as a
 * function.
 *
 * @example
 * ```ts
 * import { Bleu, corpusScore, readLines } from 'palette-mt';
 * const hyps = readLines('sys.de');
 * const refs = readLines('ref.de');
 * const bleu = corpusScore(new Bleu(), hyps, [refs]); // { name: 'BLEU', score: 22.67…, verboseScore: '56.2/…' }
 * ```
 */

export { VERSION } from './version.js';
export { PaletteError, InputError, locate, type PaletteErrorCode } from './errors.js';

// The metric contract and the scoring helpers.
export {
  corpusScore,
  sentenceScore,
  sentenceScores,
  sumRows,
  type Metric,
  type MetricScore,
  type PreparedReferences,
} from './metrics/metric.js';
export { formatSignature, parseSignature, type SignatureField } from './metrics/signature.js';

// Metrics.
export { Bleu, characterBleu, type BleuOptions, type BleuRefLength, type BleuReferences } from './metrics/bleu.js';
export { bleuFromStats, type BleuResult, type BleuSmoothMethod } from './metrics/bleu-score.js';
export { NltkBleu, type NltkBleuMetricOptions } from './metrics/bleu-nltk-metric.js';
export { linOchBleu } from './metrics/bleu-lin-och.js';
export { mosesBleu, mosesBleuStats, mosesSmoothedSentenceBleu, prepareMosesReferences } from './metrics/bleu-moses.js';
export { Chrf, type ChrfOptions, type ChrfReferences } from './metrics/chrf.js';
export { Nist, NIST_FLAVORS, type NistFlavor, type NistOptions, type NistReferences } from './metrics/nist.js';
export {
  defaultRegistry,
  type CliMetric,
  type MetricRegistry,
  type MetricSettings,
} from './metrics/registry.js';

// Text and corpora.
export { getTokenizer, TOKENIZER_NAMES, type Tokenizer, type TokenizerName } from './text/tokenizers/index.js';
export { Vocabulary, internLines } from './text/intern.js';
export { CsrBuilder, csrFromArrays, type Csr } from './corpus/csr.js';
export { readLines, decodeLines, readStreamLines, type ReadLinesOptions } from './corpus/read-lines.js';

// The command line as a function (what bin/palette runs).
export { run, type CliIo } from './cli/main.js';
