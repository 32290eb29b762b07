/**
 * The inputs of Moses' `pro` and `kbmira`, held as lines, into flat matrices: pairs of FEATURES_TXT and SCORES_TXT
 * files (one pair per tuning iteration, `--ffile a --ffile b --scfile c --scfile d`), read as Moses' iterators read
 * them (mert/FeatureDataIterator.cpp, mert/ScoreDataIterator.cpp): the k-th block of every file is the k-th sentence,
 * its candidates are those of every file's k-th block, file after file, and nothing is deduplicated.
 *
 * Moses pairs the blocks by position without looking at them; here every disagreement is an `E_BAD_INPUT` naming the
 * file and line: a features and a scores file whose blocks differ in sentence or candidate count, files of one run
 * with more or fewer blocks than the first pair or another sentence at a position, blocks whose feature count
 * differs from the first block's, a sentence without candidates, statistics that are not BLEU's nine columns.
 * Values are read as Moses reads them (`strtod`, stored as a float); features are dense.
 */
import { InputError } from '../../errors.js';
import { readBlocks, type PreviousRunFile } from '../../engine/nbest/previous-run.js';
import { mosesNumbers } from '../mert/moses-files.js';

/** A file given as its name (for messages) and its lines. */
export type MosesStatsFile = PreviousRunFile;

/** The matrices read from Moses' files by {@link readMosesTuningFiles}. */
export interface MosesTuningFiles {
  /** Statistics rows, `candidates × statsWidth`, single precision. */
  readonly stats: Float32Array;
  /** Columns of a statistics row. */
  readonly statsWidth: number;
  /** Feature rows, `candidates × dimensions`, single precision. */
  readonly features: Float32Array;
  /** Dense features per candidate. */
  readonly dimensions: number;
  /** `sentences + 1` offsets: the candidates of sentence `s` are rows `candidateOffsets[s] .. candidateOffsets[s + 1]`. */
  readonly candidateOffsets: Int32Array;
  /** Sentence id of each sentence (the blocks' headers). */
  readonly sentenceIds: readonly number[];
  /** Feature names of the first FEATURES_TXT header (`d_0 … w_0`; empty when it names none). */
  readonly featureNames: readonly string[];
}

function bad(file: string, line: number, message: string): InputError {
  return new InputError('E_BAD_INPUT', message, { file, line });
}

interface Block {
  readonly line: number;
  readonly sentence: number;
  readonly rows: number[][];
}

/** The blocks of one file in file order (a sentence's second block stays a block of its own, as Moses reads it). */
function fileBlocks(
  file: MosesStatsFile,
  tag: 'SCORES_TXT' | 'FEATURES_TXT',
  what: string,
  onHeader: (width: number, fields: readonly string[], line: number) => void,
): Block[] {
  const rows: number[][] = [];
  let width = 0;
  const { infos } = readBlocks(
    file,
    tag,
    (text, line) => {
      const row = mosesNumbers(text, width, file.name, line, what);
      rows.push(row);
      return row;
    },
    (fields, line) => {
      width = Number(fields[3]);
      onHeader(width, fields, line);
    },
  );
  let next = 0;
  return infos.map((info) => {
    const block = { line: info.line, sentence: info.sentence, rows: rows.slice(next, next + info.count) };
    next += info.count;
    return block;
  });
}

/**
 * Reads pairs of FEATURES_TXT and SCORES_TXT files (see the file comment).
 * @param statsWidth the statistics columns the caller reads (BLEU: 9)
 * @throws InputError `E_BAD_INPUT` naming the file and line of a malformed block or of files that disagree.
 */
export function readMosesTuningFiles(
  pairs: readonly { readonly features: MosesStatsFile; readonly scores: MosesStatsFile }[],
  statsWidth = 9,
): MosesTuningFiles {
  if (pairs.length === 0) throw new RangeError('no pair of files to read');
  let dimensions = -1;
  let firstFeatures = '';
  let featureNames: string[] = [];
  const perPair: { features: Block[]; scores: Block[] }[] = [];
  for (const pair of pairs) {
    const features = fileBlocks(pair.features, 'FEATURES_TXT', 'features', (w, fields, line) => {
      if (dimensions < 0) {
        if (!(w >= 1)) throw bad(pair.features.name, line, `a block of ${w} features`);
        dimensions = w;
        featureNames = fields.slice(4);
        firstFeatures = pair.features.name;
      } else if (w !== dimensions) {
        throw bad(pair.features.name, line, `the block has ${w} features; the first block (${firstFeatures}) has ${dimensions}`);
      }
    });
    const scores = fileBlocks(pair.scores, 'SCORES_TXT', 'statistics', (w, fields, line) => {
      if (w !== statsWidth) {
        throw bad(pair.scores.name, line, `the block has ${w} statistics per candidate (${fields[4] ?? 'no scorer named'}); sentence BLEU reads ${statsWidth} (Moses' BLEU statistics)`);
      }
    });
    if (features.length === 0) throw new InputError('E_BAD_INPUT', 'no FEATURES_TXT block', { file: pair.features.name });
    for (let k = 0; k < Math.max(features.length, scores.length); k++) {
      const f = features[k];
      const s = scores[k];
      if (f === undefined) throw bad(pair.scores.name, s.line, `block ${k + 1} (sentence ${s.sentence}) has no counterpart: ${pair.features.name} has ${features.length} block(s)`);
      if (s === undefined) throw bad(pair.features.name, f.line, `block ${k + 1} (sentence ${f.sentence}) has no counterpart: ${pair.scores.name} has ${scores.length} block(s)`);
      if (f.sentence !== s.sentence) {
        throw bad(pair.features.name, f.line, `sentence ${f.sentence} where ${pair.scores.name} has sentence ${s.sentence} (line ${s.line})`);
      }
      if (f.rows.length !== s.rows.length) {
        throw bad(pair.features.name, f.line, `sentence ${f.sentence} has ${f.rows.length} candidate(s) here but ${s.rows.length} in ${pair.scores.name} (line ${s.line})`);
      }
    }
    perPair.push({ features, scores });
  }
  const first = perPair[0].features;
  for (let p = 1; p < perPair.length; p++) {
    const blocks = perPair[p].features;
    const name = pairs[p].features.name;
    for (let k = 0; k < Math.max(first.length, blocks.length); k++) {
      const b = blocks[k];
      if (b === undefined) {
        throw new InputError('E_BAD_INPUT', `${blocks.length} block(s), but ${pairs[0].features.name} has ${first.length}: every run must give every sentence`, { file: name });
      }
      if (k >= first.length) throw bad(name, b.line, `block ${k + 1} (sentence ${b.sentence}) beyond the ${first.length} of ${pairs[0].features.name}`);
      if (b.sentence !== first[k].sentence) {
        throw bad(name, b.line, `sentence ${b.sentence} where ${pairs[0].features.name} has sentence ${first[k].sentence} (line ${first[k].line}) in block ${k + 1}`);
      }
    }
  }
  const sentences = first.length;
  const offsets = new Int32Array(sentences + 1);
  for (let k = 0; k < sentences; k++) {
    let n = 0;
    for (const p of perPair) n += p.features[k].rows.length;
    if (n === 0) throw bad(pairs[0].features.name, first[k].line, `sentence ${first[k].sentence} has no candidate in any file`);
    offsets[k + 1] = offsets[k] + n;
  }
  const candidates = offsets[sentences];
  const features = new Float32Array(candidates * dimensions);
  const stats = new Float32Array(candidates * statsWidth);
  let row = 0;
  for (let k = 0; k < sentences; k++) {
    for (const p of perPair) {
      const fr = p.features[k].rows;
      const sr = p.scores[k].rows;
      for (let c = 0; c < fr.length; c++, row++) {
        features.set(fr[c], row * dimensions);
        stats.set(sr[c], row * statsWidth);
      }
    }
  }
  return { stats, statsWidth, features, dimensions, candidateOffsets: offsets, sentenceIds: first.map((b) => b.sentence), featureNames };
}
