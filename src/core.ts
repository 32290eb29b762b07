/**
 * Palette's portable core: everything that runs on any JavaScript platform with WebAssembly (browsers, workers,
 * Deno, Node) — the metrics behind one {@link Metric} contract, the helpers that score corpora and sentences with
 * them, meta-evaluation, tuning helpers, tokenizers, decoding and parsing of inputs held in memory (lines, n-best
 * lists, score tables, paraphrase tables), and the HTML report. It imports no Node module: files, worker pools and
 * the command line are the Node entry's (`palette-mt`, src/index.ts), which re-exports all of this.
 *
 * Before the first score, hand over the kernels: the bytes of `build/release.wasm` (exported by the package as
 * `palette-mt/release.wasm`), or that module compiled. The `compromise` NP chunker needs its library handed over the
 * same way ({@link setCompromise}).
 *
 * @example
 * ```ts
 * import { Bleu, corpusScore, initWasm } from 'palette-mt/core';
 * initWasm(new Uint8Array(await (await fetch('/palette/release.wasm')).arrayBuffer()));
 * const bleu = corpusScore(new Bleu(), ['the cat sat on the mat'], [['the cat sat on a mat']]);
 * ```
 */

export { VERSION } from './version.js';
export { PaletteError, InputError, locate, type PaletteErrorCode } from './errors.js';

// Platform set-up: the kernels (and compromise, for the `compromise` NP chunker) handed over by the host.
export { compileWasm, initWasm, type WasmBuild } from './wasm/load.js';
export { setCompromise, type Compromise } from './text/chunk/compromise-chunker.js';

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
export {
  identitySegments,
  type ChunkTokenizer,
  type TokenBatch,
  type TokenSink,
  type TokenStage,
} from './metrics/token-stage.js';

// Metrics.
export { Bleu, characterBleu, type BleuOptions, type BleuRefLength, type BleuReferences } from './metrics/bleu/bleu.js';
export { bleuFromStats, type BleuResult, type BleuSmoothMethod } from './metrics/bleu/score.js';
export { NltkBleu, type NltkBleuMetricOptions, type NltkReferences } from './metrics/bleu/nltk-metric.js';
export {
  NltkBleuError,
  nltkCorpusBleu,
  nltkSentenceBleu,
  type NltkBleuOptions,
  type NltkSmoothingMethod,
} from './metrics/bleu/nltk.js';
export { LinOchBleu, linOchBleu, linOchBleuFromStats, type LinOchBleuOptions } from './metrics/bleu/lin-och.js';
export {
  MosesBleu,
  MOSES_REF_LENGTHS,
  type MosesBleuMetricOptions,
  type MosesBleuReferences,
} from './metrics/bleu/moses-metric.js';
export {
  mosesBleu,
  mosesBleuStats,
  mosesSentenceBleuPlusOne,
  mosesSmoothedSentenceBleu,
  prepareMosesReferences,
  type MosesRefLength,
} from './metrics/bleu/moses.js';
export { Chrf, type ChrfOptions, type ChrfReferences } from './metrics/chrf/chrf.js';
export { Nist, NIST_FLAVORS, type NistFlavor, type NistOptions, type NistReferences } from './metrics/nist/nist.js';
export { NistOracleError } from './metrics/nist/failure.js';
export {
  Rouge,
  parseRougeType,
  resolveRougeOptions,
  ROUGE_FLAVORS,
  ROUGE_MULTI_REFERENCE,
  ROUGE_STATS_COLUMNS,
  ROUGE_STATS_WIDTH,
  rougeTypeId,
  rougeTypeName,
  type HumanScores,
  type ResolvedRougeOptions,
  type RougeAverage,
  type RougeFlavor,
  type RougeMultiReference,
  type RougeOptions,
  type RougeReferences,
  type RougeType,
} from './metrics/rouge/rouge.js';
export { Ter, type TerOptions, type TerReferences, type TerSegmentAlignment } from './metrics/ter/ter.js';
export {
  TercomTer,
  TERCOM_STATS_COLUMNS,
  type TercomReferences,
  type TercomResult,
  type TercomSegmentAlignment,
  type TercomTerOptions,
} from './metrics/ter/tercom-ter.js';
export { TerOp, type TerAlignment, type TerOpCode, type TerResult, type TerShift } from './metrics/ter/alignment.js';
export { Wer, WER_STATS_COLUMNS, type WerOptions } from './metrics/wer/wer.js';
export { Per, PER_STATS_COLUMNS, perFromStats, type PerOptions } from './metrics/per/per.js';
export { Cer, CER_STATS_COLUMNS, type CerOptions } from './metrics/cer/cer.js';
export { Gleu, GLEU_STATS_COLUMNS, type GleuOptions } from './metrics/gleu/gleu.js';
export { Ribes, RIBES_STATS_COLUMNS, type RibesOptions } from './metrics/ribes/ribes.js';
export { Meteor, METEOR_STATS_COLUMNS, type MeteorOptions } from './metrics/meteor/meteor.js';
export { setWordnetLoader, type WordnetData } from './metrics/meteor/wordnet.js';
export { Gtm, GTM_STATS_COLUMNS, gtmFromStats, type GtmOptions } from './metrics/gtm/gtm.js';
export { Impact, IMPACT_STATS_COLUMNS, type ImpactOptions } from './metrics/impact/impact.js';
export { NpChunk, NPCHUNK_STATS_COLUMNS, type NpChunkOptions } from './metrics/npchunk/npchunk.js';
export { NPCHUNK_DEFAULTS, type ChunkedReferences } from './metrics/npchunk/chunk-metric.js';
export {
  BracketedChunker,
  CHUNKER_NAMES,
  CompromiseChunker,
  createChunker,
  DEFAULT_CHUNKER,
  type ChunkedSentence,
  type NpChunker,
} from './text/chunk/index.js';
export {
  ParaEval,
  paraEvalFromStats,
  PARAEVAL_SCORES,
  PARAEVAL_STATS_COLUMNS,
  PARAEVAL_STATS_WIDTH,
  type ParaEvalOptions,
  type ParaEvalReferences,
  type ParaEvalScoreKind,
} from './metrics/paraeval/paraeval.js';
export { EDIT_TOKENIZERS, type EditReferences, type EditTokenizer } from './metrics/edit/words.js';
export { rouge155Unit, type Rouge155TypeCounts, type Rouge155UnitOptions } from './metrics/rouge155/unit.js';
export { BASIC_ELEMENT_MODES, type BasicElementMode } from './metrics/rouge155/basic-elements.js';
export {
  rouge155Bootstrap,
  type Rouge155BootstrapOptions,
  type Rouge155Counting,
  type Rouge155Estimate,
} from './meta/rouge155-bootstrap.js';
// Meta-evaluation: correlation with human judgments.
export { averageRanks, kendallTauB, pearson, spearman, wmtRankPairs, wmtRankTau, type WmtRankCounts } from './meta/correlation.js';
export {
  correlate,
  CORRELATION_METHODS,
  documentUnits,
  itemUnits,
  meanSide,
  segmentCorrelations,
  systemCorrelations,
  systemScores,
  type BootstrapOptions,
  type CorrelationEstimate,
  type CorrelationMethod,
  type SegmentRecords,
  type SystemLevelData,
  type SystemSide,
} from './meta/correlation-bootstrap.js';
export { parseScoreTable, type ScoreColumns, type ScoreFileFormat, type ScoreTable } from './meta/human-scores.js';
export { alignScores, type AlignedScores, type AlignOptions, type MetricSource } from './meta/metric-scores.js';
// Meta-evaluation: ORANGE (seed 002).
export {
  bootstrapMeanInterval,
  numpyResampler,
  orange,
  orangeOfTerms,
  orangeSentenceTerms,
  type ConfidenceInterval,
  type OrangeSentenceScores,
  type ResampleIndices,
  type ScoreDirection,
} from './meta/orange/orange.js';
export { OrangeScorer, type OrangeBlockScores } from './meta/orange/scorer.js';
export { lowerIsBetter, ORANGE_METRIC_NAMES, parseOrangeMetric, parseOrangeMetrics, type OrangeVariant } from './meta/orange/variants.js';
// Meta-evaluation: sacreBLEU's significance tests and bootstrap confidence (numpy's PCG64 stream, bit for bit),
// agreement on the seed-004 grade scale, jackknifing over references.
export {
  bootstrapScores,
  DEFAULT_SAMPLES,
  DEFAULT_SEED,
  pairedTest,
  seedFromEnv,
  seedLabel,
  testedMetric,
  type MetricSystems,
  type PairedResult,
  type PairedTestOptions,
  type PairedTestOutcome,
  type StatsRows,
  type TestedMetric,
} from './meta/significance.js';
export {
  estimateCiNumpy,
  estimateCiPython,
  numpyMean,
  numpySum,
  pValue,
  pythonMean,
  type BootstrapEstimate,
} from './meta/significance-stats.js';
export { exactScorer, resampleScorer, type StatsScorer } from './meta/significance-float32.js';
export {
  BoolStream,
  BoundedIntStream,
  defaultRng,
  NumpyGenerator,
  Pcg64,
  SeedSequence,
  type NumpySeed,
} from './meta/numpy-random.js';
export { cohenKappa, gradedKappa, grade, grades, GRADES, GRADE_TOLERANCE } from './meta/agreement.js';
export { ANALOGY_SHARE, bleuWcStudy, type BleuWcRow, type ScoresByOrder } from './meta/bleu-wc-study.js';
export {
  jackknifeRows,
  jackknifeScore,
  leaveOneOutRows,
  prepareLeaveOneOut,
  type JackknifeReferences,
  type JackknifeScore,
  type LeaveOneOutReferences,
} from './meta/jackknife.js';
export {
  BLEU_FLAVORS,
  cliMetric,
  defaultRegistry,
  defaultRougeFlavor,
  ROUGE_METRIC_FAMILIES,
  TER_FLAVORS,
  type BleuFlavor,
  type EditSettings,
  type GtmSettings,
  type JsonScoreField,
  type SegmentAlignment,
  type TerFlavor,
  type TerSettings,
  type BleuSettings,
  type ChrfSettings,
  type CliMetric,
  type MetricRegistry,
  type MetricSettings,
  type NistSettings,
  type NpChunkSettings,
  type ParaEvalSettings,
  type RougeSettings,
} from './metrics/registry.js';
export {
  METRIC_CATALOG,
  METRIC_FAMILY_PATTERNS,
  METRIC_FLAGS,
  METRIC_IDS,
  lowerIsBetterMetric,
  metricDescriptor,
  readMetricSettings,
  type MetricSettingsKey,
} from './metrics/catalog.js';
export {
  composeFlags,
  describedMetric,
  FRACTION_WIDTH,
  type CorpusReduction,
  type FlagValues,
  type MetricContext,
  type MetricDescriptor,
  type MetricFamily,
  type MetricOption,
  type OptionDefault,
} from './metrics/descriptor.js';
export type { OptionArity, OptionSpec } from './util/option-spec.js';

// Text and corpora.
export { getTokenizer, TOKENIZER_NAMES, type Tokenizer, type TokenizerName } from './text/tokenizers/index.js';
export {
  parseSentenceSplit,
  ROUGE_TOKENIZER_NAMES,
  SENTENCE_SPLIT_NAMES,
  splitSentences,
  type Rouge155Limit,
  type RougeTokenizerName,
  type SentenceSplit,
} from './text/rouge/index.js';
export { Vocabulary, internLines } from './text/intern.js';
export {
  parseParaphraseTable,
  ParaphraseTable,
  ParaphraseTableBuilder,
  PARAPHRASE_FORMATS,
  type LoadParaphraseTableOptions,
  type ParaphraseFormat,
  type ParaphraseTableInfo,
  type ParaphraseTableOptions,
} from './text/paraphrase/index.js';
export { CsrBuilder, csrFromArrays, type Csr } from './text/csr.js';
export { decodeLines, type NewlineMode, type ReadLinesOptions } from './corpus/read-lines.js';
export { batchLine, batchLines, splitBatches, type LineBatch, type LineStreamOptions } from './corpus/stream/line-batch.js';
export type { StringBatch } from './corpus/stream/string-batch.js';
export { parseNbestLines, type NbestBatch, type NbestOptions, type NbestParseState } from './corpus/nbest.js';
/** Whole segments of an n-best list cut from its bytes (what the `palette nbest` workers parse). */
export type { SegmentChunk } from './corpus/stream/segment-chunks.js';

// Streaming n-best scoring through the engine (what `palette nbest` runs: bytes or text in, statistics rows out), in
// this thread or on a pool the host hands over (the Node entry's `nbestWorkerPool`).
export {
  DEFAULT_TASK_SIZE,
  scoreNbest,
  scoreNbestRows,
  type NbestBytesOptions,
  type NbestChunkRunner,
  type NbestInput,
  type NbestRowBlock,
  type NbestRowsOptions,
  type NbestRunInfo,
  type NbestRunnerFactory,
  type NbestRunnerSetup,
  type NbestScoringOptions,
  type NbestStatsFormat,
  type PreviousRunFile,
} from './engine/index.js';

// Corpus scoring of several systems through the engine (what `palette score` runs: each distinct segment hypothesis
// scored once per metric), in this thread or with a pool (the Node entry's corpusWorkerPool).
export {
  distinctHypotheses,
  MIN_POOL_WORK,
  scoreSystemRows,
  SystemRowsError,
  type CorpusRows,
  type CorpusRowsOptions,
  type CorpusRunnerFactory,
  type CorpusRunnerSetup,
  type CorpusTask,
  type CorpusTaskError,
  type CorpusTaskResult,
  type CorpusTaskRunner,
  type DistinctHypotheses,
} from './engine/corpus/index.js';

// All-pairs sentence scores (chrF, chrF++, BLEU, TER): the |A| × |B| matrix of each hypothesis against each
// reference alone, every text tokenized once, and minimum Bayes risk selection over a segment's matrix (one metric
// or a weighted sum of metrics; reference aggregation for chrF and BLEU).
export {
  hasPairwise,
  mbrDecode,
  mbrSelect,
  pairwiseRowBlocks,
  pairwiseScores,
  pairwiseStageOf,
  PairwiseScorer,
  resolveUtility,
  utilityFromSpecs,
  utilityScores,
  type MbrChoice,
  type MbrDecodeOptions,
  type MbrOptions,
  type PairwiseOptions,
  type PairwiseRowBlock,
  type ResolvedUtility,
  type Utility,
  type UtilitySpec,
  type UtilityTerm,
} from './engine/pairwise/index.js';
export type { AggregateOptions, PairwiseStage, PairwiseTexts } from './metrics/pairwise.js';

// Tuning loops: statistics matrices, corpus scores from summed rows, selections.
export { buildStatsMatrix, matrixColumnSums, type StatsMatrix } from './tuning/stats-matrix.js';
export { scoreFromTotals } from './tuning/score-from-totals.js';
export { applyRowDelta, selectionScore, selectionTotals } from './tuning/selection.js';
// MERT (Moses mert): the problem as flat typed arrays, one exact line search, a selection's score, a whole
// optimisation with Moses' random restarts (glibc's rand), and Moses' FEATURES_TXT / SCORES_TXT / INIT files as lines.
export {
  metricObjective,
  mertProblem,
  mosesBleuObjective,
  type MertObjective,
  type MertProblem,
  type MertProblemInput,
} from './tuning/mert/problem.js';
export { mertLineSearch, mertSelectionScore, type MertLineResult, type MertSelection } from './tuning/mert/api.js';
export {
  MERT_OPTIMIZERS,
  mertOptimize,
  type MertOptimizerType,
  type MertOptions,
  type MertResult,
  type MertRun,
  type MertRunStreams,
} from './tuning/mert/optimizer.js';
export { mertObjective } from './tuning/mert/objective-name.js';
export { readMertFiles, readMertInit, type MertFiles, type MertInit, type MertInputFile } from './tuning/mert/moses-files.js';
export { GlibcRandom, GLIBC_RAND_MAX } from './tuning/mert/glibc-random.js';
// PRO (Moses pro): the sampler of pairs by sentence BLEU+1, its MegaM lines, and Moses' FEATURES_TXT / SCORES_TXT
// files of several runs as flat matrices (no deduplication, as pro and kbmira read them).
export {
  proMegamText,
  proSample,
  type ProSamplerInput,
  type ProSamplerOptions,
  type ProSamples,
} from './tuning/pro/sampler.js';
export { readMosesTuningFiles, type MosesStatsFile, type MosesTuningFiles } from './tuning/pro/moses-files.js';
// k-best batch MIRA (Moses kbmira): hope/fear updates against a decaying BLEU background, averaged weights, Moses'
// shuffles (glibc's rand), and its --dense-init files.
export {
  kbmiraBackgroundBleu,
  kbmiraOptimize,
  type KbmiraEpoch,
  type KbmiraInput,
  type KbmiraOptions,
  type KbmiraResult,
  type KbmiraUpdate,
} from './tuning/kbmira/optimizer.js';
export { readKbmiraDenseInit, type KbmiraDenseInit } from './tuning/kbmira/dense-init.js';

// The HTML report: data model, computation, self-contained rendering.
export {
  buildReport,
  renderReportHtml,
  REPORT_FORMAT,
  type BuildReportOptions,
  type ReportData,
} from './report/index.js';
