/**
 * A previous `extractor` run's output, read back to merge with (Moses `--prev-scfile` / `--prev-ffile`): the
 * SCORES_TXT blocks (statistics) and the FEATURES_TXT blocks (features, needed to find duplicates across runs).
 *
 * Blocks are `SCORES_TXT_BEGIN_0 <sentence> <count> <width> <scorer>` / `FEATURES_TXT_BEGIN_0 <sentence> <count>
 * <width> <names…>`, then `count` lines, then `…_END_0`. A sentence may have several blocks (they are appended, as
 * Moses does); sentences keep the order of their first block. Every malformed line is an `E_BAD_INPUT` naming the
 * file and line. The caller reads the files (the engine gets their lines).
 */
import { InputError } from '../../errors.js';
import { mosesFeatureKey } from './moses-dedup.js';

/** A file of the previous run: its name (as error messages give it) and its lines. */
export interface PreviousRunFile {
  readonly name: string;
  readonly lines: readonly string[];
}

/** Candidates of a previous run, per sentence. */
export interface PreviousRun {
  /** Sentence ids in the order of their first block. */
  readonly order: number[];
  /** Statistics rows per sentence. */
  readonly stats: Map<number, number[][]>;
  /** Feature keys ({@link mosesFeatureKey}) per sentence, parallel to `stats`; absent without a features file. */
  readonly featureKeys: Map<number, string[]> | undefined;
}

function bad(file: string, line: number, message: string): InputError {
  return new InputError('E_BAD_INPUT', message, { file, line });
}

/** Reads the blocks of one file: `row(text, line)` turns a candidate line into a value. */
function readBlocks<T>(
  source: PreviousRunFile,
  tag: 'SCORES_TXT' | 'FEATURES_TXT',
  row: (text: string, line: number) => T,
): { order: number[]; blocks: Map<number, T[]> } {
  const { name: file, lines } = source;
  const order: number[] = [];
  const blocks = new Map<number, T[]>();
  let i = 0;
  while (i < lines.length) {
    const header = lines[i].trim();
    const line = i + 1;
    if (header.length === 0) {
      i++;
      continue;
    }
    const f = header.split(/[ \t]+/);
    if (f[0] !== `${tag}_BEGIN_0` || f.length < 4 || !/^\d+$/.test(f[1]) || !/^\d+$/.test(f[2])) {
      throw bad(file, line, `expected "${tag}_BEGIN_0 <sentence> <count> <width> …", got ${JSON.stringify(lines[i])}`);
    }
    const sentence = Number(f[1]);
    const count = Number(f[2]);
    if (i + count + 1 >= lines.length || lines[i + count + 1].trim() !== `${tag}_END_0`) {
      throw bad(file, Math.min(i + count + 2, lines.length), `the block of sentence ${sentence} opened at line ${line} does not end with ${tag}_END_0 after ${count} line(s)`);
    }
    if (!blocks.has(sentence)) {
      blocks.set(sentence, []);
      order.push(sentence);
    }
    const list = blocks.get(sentence)!;
    for (let k = 1; k <= count; k++) list.push(row(lines[i + k], i + k + 1));
    i += count + 2;
  }
  return { order, blocks };
}

/**
 * Parses a previous run's statistics (and features, when given).
 * @param width the number of statistics per candidate (9 for BLEU)
 * @throws InputError `E_BAD_INPUT` for a malformed file or files that disagree.
 */
export function parsePreviousRun(stats: PreviousRunFile, features: PreviousRunFile | undefined, width: number): PreviousRun {
  const statsFile = stats.name;
  const scores = readBlocks(stats, 'SCORES_TXT', (text, line) => {
    const values = text.trim().split(/[ \t]+/).map(Number);
    if (values.length !== width || values.some((v) => !Number.isFinite(v))) {
      throw bad(statsFile, line, `expected ${width} numbers, got ${JSON.stringify(text)}`);
    }
    return values;
  });
  if (features === undefined) return { order: scores.order, stats: scores.blocks, featureKeys: undefined };
  const featuresFile = features.name;
  const keyed = readBlocks(features, 'FEATURES_TXT', (text) => mosesFeatureKey(text));
  for (const [sentence, rows] of scores.blocks) {
    const keys = keyed.blocks.get(sentence);
    if (keys === undefined || keys.length !== rows.length) {
      throw new InputError(
        'E_BAD_INPUT',
        `sentence ${sentence} has ${rows.length} candidate(s) in ${statsFile} but ${keys?.length ?? 0} here`,
        { file: featuresFile },
      );
    }
  }
  if (keyed.blocks.size !== scores.blocks.size) {
    throw new InputError('E_BAD_INPUT', `has sentences that ${statsFile} does not have`, { file: featuresFile });
  }
  return { order: scores.order, stats: scores.blocks, featureKeys: keyed.blocks };
}
