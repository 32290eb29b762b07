/**
 * ORANGE of many metric variants over an n-best list in one streamed pass: the references are read once, the
 * n-best list (Moses or Joshua `id ||| hypothesis ||| …` lines, src/corpus/nbest.ts) is cut into blocks of whole
 * sentences, every block is scored for all variants at once (./scorer.ts) and reduced at once to per-sentence ORANGE
 * terms (../orange.ts); only the terms (one number per sentence and variant) outlive a block.
 *
 * Sentences of the references that have no candidate in the n-best list take no part (S counts the sentences that
 * have candidates). Input problems are `InputError`s naming the file and line: fewer than 2 reference files,
 * reference files of different lengths, an empty reference line (ORANGE ranks references, so every sentence needs
 * u ≥ 2 real ones), an n-best id without a reference line, a malformed n-best line, an n-best list without any
 * candidate.
 */
import { InputError } from '../../errors.js';
import { readNbestBatches } from '../../corpus/nbest.js';
import { readLines } from '../../corpus/read-lines.js';
import { orangeSentenceTerms, type ScoreDirection } from '../orange.js';
import { OrangeScorer } from './scorer.js';
import { lowerIsBetter, type OrangeVariant } from './variants.js';

/** What {@link evaluateOrange} needs. */
export interface OrangeRun {
  /** The n-best list. */
  readonly nbest: string;
  /** Reference files, one sentence per line, all of one length (at least 2). */
  readonly refs: readonly string[];
  /** The metric variants. */
  readonly variants: readonly OrangeVariant[];
  /**
   * Candidates per scored block (whole sentences are kept together, so a block may be larger).
   * @default 20000
   */
  readonly blockCandidates?: number;
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

/** Per-sentence ORANGE terms of every variant (see the file comment). @throws InputError for bad input. */
export async function evaluateOrange(run: OrangeRun): Promise<OrangeTerms> {
  const refStreams = readOrangeReferences(run.refs);
  const scorer = new OrangeScorer(run.variants, refStreams);
  const u = scorer.u;
  const blockSize = run.blockCandidates ?? 20000;
  const directions: ScoreDirection[] = run.variants.map((v) => (lowerIsBetter(v) ? 'lower' : 'higher'));
  const terms = run.variants.map(() => new DoubleList());
  const sentenceIds: number[] = [];

  let blockSentences: number[] = [];
  let blockTexts: string[] = [];
  let blockOffsets: number[] = [0];
  let done = 0;
  const flush = (): void => {
    if (blockSentences.length === 0) return;
    const sentences = Int32Array.from(blockSentences);
    const candidateOffsets = Int32Array.from(blockOffsets);
    const scores = scorer.scoreBlock(sentences, blockTexts, candidateOffsets);
    const referenceOffsets = new Int32Array(sentences.length + 1);
    for (let i = 0; i <= sentences.length; i++) referenceOffsets[i] = i * u;
    run.variants.forEach((_, v) => {
      const t = orangeSentenceTerms(
        { candidates: scores.candidates[v], candidateOffsets, references: scores.references[v], referenceOffsets },
        directions[v],
      );
      for (let i = 0; i < t.length; i++) terms[v].push(t[i]);
    });
    for (const s of blockSentences) sentenceIds.push(s);
    done += blockTexts.length;
    run.onProgress?.(done, (blockSentences[blockSentences.length - 1] + 1) / scorer.segments);
    blockSentences = [];
    blockTexts = [];
    blockOffsets = [0];
  };

  let current = -1;
  for await (const batch of readNbestBatches(run.nbest, { segmentCount: scorer.segments })) {
    for (let c = 0; c < batch.count; c++) {
      const id = batch.ids[c];
      if (id !== current) {
        // A sentence is complete when the next one starts: only then may the block be scored.
        if (current >= 0) blockOffsets.push(blockTexts.length);
        if (blockTexts.length >= blockSize) flush();
        blockSentences.push(id);
        current = id;
      }
      blockTexts.push(batch.hypotheses[c]);
    }
  }
  if (current < 0) throw new InputError('E_EMPTY_INPUT', 'the n-best list has no candidate', { file: run.nbest });
  blockOffsets.push(blockTexts.length);
  flush();
  return {
    variants: run.variants,
    sentences: Int32Array.from(sentenceIds),
    terms: terms.map((t) => t.finish()),
    candidates: done,
    referencesPerSentence: u,
  };
}
