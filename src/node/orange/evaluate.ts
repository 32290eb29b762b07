/**
 * ORANGE of many metric variants over an n-best list in one streamed pass: the references are read once, the
 * n-best list (Moses or Joshua `id ||| hypothesis ||| …` lines, src/corpus/nbest.ts) is cut into blocks of whole
 * sentences, every block is scored for all variants at once (src/meta/orange/scorer.ts) and reduced at once to
 * per-sentence ORANGE terms (src/meta/orange/orange.ts); only the terms (one number per sentence and variant) outlive a
 * block. Blocks are scored in this thread or on a pool of worker threads (src/pool/orange-pool.ts).
 *
 * Sentences of the references that have no candidate in the n-best list take no part (S counts the sentences that
 * have candidates). Input problems are `InputError`s naming the file and line: fewer than 2 reference files,
 * reference files of different lengths, an empty reference line (ORANGE ranks references, so every sentence needs
 * u ≥ 2 real ones), an n-best id without a reference line, a malformed n-best line, an n-best list without any
 * candidate; for the Metric-API variants (paraeval, impact, npchunk) also their settings' errors (a malformed or
 * missing paraphrase table, a bad parameter), checked once here before any worker starts, a reference line their
 * text pipeline refuses (a malformed pre-chunked line, checked file by file up front) and such a candidate line.
 */
import { InputError } from '../../errors.js';
import { readNbestBatches } from '../nbest.js';
import { readLines } from '../read-lines.js';
import { blockTerms, type OrangeBlock } from '../../meta/orange/block-terms.js';
import { OrangePool } from '../../pool/orange-pool.js';
import { OrangeScorer } from '../../meta/orange/scorer.js';
import { createOrangeMetric } from '../../meta/orange/metric-variants.js';
import type { Metric } from '../../metrics/metric.js';
import type { MetricSettings } from '../../metrics/registry.js';
import type { OrangeVariant } from '../../meta/orange/variants.js';

/** What {@link evaluateOrange} needs. */
export interface OrangeRun {
  /** The n-best list. */
  readonly nbest: string;
  /** Reference files, one sentence per line, all of one length (at least 2). */
  readonly refs: readonly string[];
  /** The metric variants. */
  readonly variants: readonly OrangeVariant[];
  /** Settings of the Metric-API variants (`palette score`'s metric flags: paraphrase table, chunker …). @default {} */
  readonly settings?: MetricSettings;
  /**
   * Candidates per scored block (whole sentences are kept together, so a block may be larger).
   * @default 20000
   */
  readonly blockCandidates?: number;
  /**
   * Worker threads: 1 scores in this thread; more score whole blocks on the worker pool (src/pool/orange-pool.ts),
   * the same terms bit for bit.
   * @default 1
   */
  readonly workers?: number;
  /** Called after every block with the candidates done so far and the fraction of reference sentences passed. */
  readonly onProgress?: (candidates: number, fraction: number) => void;
}

/** Per-sentence ORANGE terms of every variant. */
export interface OrangeTerms {
  /** The variants, in order. */
  readonly variants: readonly OrangeVariant[];
  /** Ids of the sentences that have candidates, ascending. */
  readonly sentences: Int32Array;
  /** Per variant: avgRank(references) / (N + 1) per sentence; the mean is ORANGE. */
  readonly terms: Float64Array[];
  /** Candidates read. */
  readonly candidates: number;
  /** References per sentence. */
  readonly referencesPerSentence: number;
}

/** A growable Float64Array. */
class DoubleList {
  private data = new Float64Array(256);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }

  finish(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * Reads and checks the reference files: `streams[j][s]` is line s of file j.
 * @throws InputError (see the file comment).
 */
export function readOrangeReferences(files: readonly string[]): string[][] {
  if (files.length < 2) {
    throw new InputError(
      'E_BAD_INPUT',
      `ORANGE needs at least 2 references per sentence (got ${files.length} reference file${files.length === 1 ? '' : 's'}): ` +
        'each reference is ranked against the others',
      files.length === 1 ? { file: files[0] } : {},
    );
  }
  const streams = files.map((f) => readLines(f));
  streams.forEach((stream, j) => {
    if (stream.length !== streams[0].length) {
      throw new InputError(
        'E_LINE_COUNT_MISMATCH',
        `has ${stream.length} lines but ${files[0]} has ${streams[0].length}: references must have the same length`,
        { file: files[j] },
      );
    }
    for (let s = 0; s < stream.length; s++) {
      if (stream[s].trim().length === 0) {
        throw new InputError(
          'E_BAD_INPUT',
          'empty reference: ORANGE needs at least 2 non-empty references for every sentence',
          { file: files[j], line: s + 1 },
        );
      }
    }
  });
  return streams;
}

/**
 * Builds the metrics of the Metric-API variants (loading a paraphrase table once) and has each read every
 * reference file alone, so that their input errors name the file and line before any scoring starts.
 * @returns per variant, its metric (null for the other variants).
 * @throws InputError from a metric's settings or a reference line it refuses.
 */
export function checkMetricVariants(
  variants: readonly OrangeVariant[],
  settings: MetricSettings,
  refStreams: readonly (readonly string[])[],
  files: readonly string[],
): (Metric | null)[] {
  return variants.map((v) => {
    if (v.kind !== 'metric') return null;
    const metric = createOrangeMetric(v, settings);
    refStreams.forEach((stream, j) => {
      try {
        metric.prepareReferences([stream]);
      } catch (err) {
        if (!(err instanceof InputError) || err.file !== undefined) throw err;
        const located = new InputError(err.code, err.message, { file: files[j], line: err.line });
        located.cause = err;
        throw located;
      }
    });
    return metric;
  });
}

/** A candidate's input error (located at its n-best line by the scorer) with the n-best file named. */
function inNbest(err: unknown, nbest: string): unknown {
  if (!(err instanceof InputError) || err.file !== undefined) return err;
  const located = new InputError(err.code, err.message, { file: nbest, line: err.line });
  located.cause = err;
  return located;
}

/** Per-sentence ORANGE terms of every variant (see the file comment). @throws InputError for bad input. */
export async function evaluateOrange(run: OrangeRun): Promise<OrangeTerms> {
  const refStreams = readOrangeReferences(run.refs);
  const settings = run.settings ?? {};
  const metrics = checkMetricVariants(run.variants, settings, refStreams, run.refs);
  const workers = run.workers ?? 1;
  const pool = workers > 1 ? new OrangePool(run.variants, refStreams, workers, settings) : null;
  // The main thread needs a scorer only to score in-thread; with a pool it only reads and orders.
  const scorer = pool === null ? new OrangeScorer(run.variants, refStreams, settings, metrics) : null;
  const segments = refStreams[0].length;
  const blockSize = run.blockCandidates ?? 20000;
  const terms = run.variants.map(() => new DoubleList());
  const sentenceIds: number[] = [];
  // Blocks in flight, in file order; at most two per worker so that memory stays bounded.
  const pending: { block: OrangeBlock; terms: Promise<Float64Array[]> }[] = [];
  let done = 0;
  const collect = async (): Promise<void> => {
    const { block, terms: result } = pending.shift()!;
    let blockTermsDone: Float64Array[];
    try {
      blockTermsDone = await result;
    } catch (err) {
      throw inNbest(err, run.nbest);
    }
    run.variants.forEach((_, v) => {
      const t = blockTermsDone[v];
      for (let i = 0; i < t.length; i++) terms[v].push(t[i]);
    });
    for (const s of block.sentences) sentenceIds.push(s);
    done += block.candidates.length;
    run.onProgress?.(done, (block.sentences[block.sentences.length - 1] + 1) / segments);
  };

  let blockSentences: number[] = [];
  let blockTexts: string[] = [];
  let blockOffsets: number[] = [0];
  let blockLines: number[] = [];
  const flush = async (): Promise<void> => {
    if (blockSentences.length === 0) return;
    const block: OrangeBlock = {
      sentences: Int32Array.from(blockSentences),
      candidates: blockTexts,
      candidateOffsets: Int32Array.from(blockOffsets),
      candidateLines: Int32Array.from(blockLines),
    };
    let terms: Promise<Float64Array[]>;
    if (pool !== null) terms = pool.run(block);
    else {
      try {
        terms = Promise.resolve(blockTerms(scorer!, block));
      } catch (err) {
        terms = Promise.reject(err);
      }
    }
    // Marked handled now: a block may fail while an earlier one is awaited; collect() still sees its rejection.
    terms.catch(() => undefined);
    pending.push({ block, terms });
    blockSentences = [];
    blockTexts = [];
    blockOffsets = [0];
    blockLines = [];
    while (pending.length > (pool === null ? 0 : 2 * workers)) await collect();
  };

  try {
    let current = -1;
    for await (const batch of readNbestBatches(run.nbest, { segmentCount: segments })) {
      for (let c = 0; c < batch.count; c++) {
        const id = batch.ids[c];
        if (id !== current) {
          // A sentence is complete when the next one starts: only then may the block be scored.
          if (current >= 0) blockOffsets.push(blockTexts.length);
          if (blockTexts.length >= blockSize) await flush();
          blockSentences.push(id);
          current = id;
        }
        blockTexts.push(batch.hypotheses[c]);
        blockLines.push(batch.lines[c]);
      }
    }
    if (current < 0) throw new InputError('E_EMPTY_INPUT', 'the n-best list has no candidate', { file: run.nbest });
    blockOffsets.push(blockTexts.length);
    await flush();
    while (pending.length > 0) await collect();
  } finally {
    // Blocks still in flight after an input error are abandoned; their promises must not reject unobserved.
    for (const p of pending) p.terms.catch(() => undefined);
    await pool?.close();
  }
  return {
    variants: run.variants,
    sentences: Int32Array.from(sentenceIds),
    terms: terms.map((t) => t.finish()),
    candidates: done,
    referencesPerSentence: refStreams.length,
  };
}
