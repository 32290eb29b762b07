/**
 * A previous `extractor` run's output, read back to merge with (Moses `--prev-scfile` / `--prev-ffile`): the
 * SCORES_TXT blocks (statistics) and the FEATURES_TXT blocks (features, needed to find duplicates across runs).
 *
 * Blocks are `SCORES_TXT_BEGIN_0 <sentence> <count> <width> <scorer>` / `FEATURES_TXT_BEGIN_0 <sentence> <count>
 * <width> <names…>`, then `count` lines, then `…_END_0`. A sentence may have several blocks (they are appended, as
 * Moses does); sentences keep the order of their first block. Every malformed line is an `E_BAD_INPUT` naming the
 * file and line, and so is a features file whose blocks disagree with the statistics file's: the k-th block of one
 * must be that of the other (same sentence, same number of candidates), every block must give the feature count of
 * the first, and every line of a block as many values as its header says. The caller reads the files (the engine
 * gets their lines).
 */
import { InputError } from '../../errors.js';
import { featuresFileLineCount, featuresTxtHeaderOfNames, type FeaturesTxtHeader } from './features-txt.js';
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
  /** The features files' lines as they were, per sentence, parallel to `stats`; absent without a features file. */
  readonly featureLines?: Map<number, string[]>;
  /** The header of each sentence's first FEATURES_TXT block (Moses keeps it when it merges); absent without one. */
  readonly featureHeaders?: Map<number, FeaturesTxtHeader>;
  /** The header of the features file's first block: Moses names the features of new sentences after it. */
  readonly firstFeatureHeader?: FeaturesTxtHeader;
}

/** One block of a file: where it starts, its sentence, its candidates, the header's width and the rest of the header. */
interface BlockInfo {
  readonly line: number;
  readonly sentence: number;
  readonly count: number;
  readonly width: number;
  /** The header after its fourth field (FEATURES_TXT: the feature names, each followed by one space). */
  readonly rest: string;
}

function bad(file: string, line: number, message: string): InputError {
  return new InputError('E_BAD_INPUT', message, { file, line });
}

/**
 * Reads the blocks of one file: `row(text, line)` turns a candidate line into a value; `onHeader(fields, line)`, when
 * given, sees each block's header split on blanks before its lines are read (`palette mert` checks widths and
 * feature names with it).
 */
export function readBlocks<T>(
  source: PreviousRunFile,
  tag: 'SCORES_TXT' | 'FEATURES_TXT',
  row: (text: string, line: number) => T,
  onHeader?: (fields: readonly string[], line: number) => void,
): { order: number[]; blocks: Map<number, T[]>; infos: BlockInfo[] } {
  const { name: file, lines } = source;
  const order: number[] = [];
  const blocks = new Map<number, T[]>();
  const infos: BlockInfo[] = [];
  let i = 0;
  while (i < lines.length) {
    const header = lines[i].trim();
    const line = i + 1;
    if (header.length === 0) {
      i++;
      continue;
    }
    const f = header.split(/[ \t]+/);
    if (f[0] !== `${tag}_BEGIN_0` || f.length < 4 || !/^\d+$/.test(f[1]) || !/^\d+$/.test(f[2]) || !/^\d+$/.test(f[3])) {
      throw bad(file, line, `expected "${tag}_BEGIN_0 <sentence> <count> <width> …", got ${JSON.stringify(lines[i])}`);
    }
    const sentence = Number(f[1]);
    const count = Number(f[2]);
    if (i + count + 1 >= lines.length || lines[i + count + 1].trim() !== `${tag}_END_0`) {
      throw bad(file, Math.min(i + count + 2, lines.length), `the block of sentence ${sentence} opened at line ${line} does not end with ${tag}_END_0 after ${count} line(s)`);
    }
    // The names as Moses keeps them: the header after its fourth space-separated field (its trailing space too).
    const rest = lines[i].replace(/^ *(?:[^ ]+ +){4}/, '');
    infos.push({ line, sentence, count, width: Number(f[3]), rest: f.length > 4 ? rest : '' });
    if (!blocks.has(sentence)) {
      blocks.set(sentence, []);
      order.push(sentence);
    }
    const list = blocks.get(sentence)!;
    onHeader?.(f, line);
    for (let k = 1; k <= count; k++) list.push(row(lines[i + k], i + k + 1));
    i += count + 2;
  }
  return { order, blocks, infos };
}

function mismatch(file: string, line: number, message: string): InputError {
  return new InputError('E_BAD_INPUT', message, { file, line });
}

/**
 * Checks that the features file's blocks are the statistics file's, block for block, that every block gives the
 * first block's feature count and that every line holds that many values.
 */
function checkFeatureBlocks(
  statsFile: string,
  scores: readonly BlockInfo[],
  featuresFile: string,
  features: readonly BlockInfo[],
  lines: readonly string[],
): void {
  for (let k = 0; k < features.length; k++) {
    const f = features[k];
    const s = scores[k];
    if (s === undefined) {
      throw mismatch(featuresFile, f.line, `block ${k + 1} (sentence ${f.sentence}) has no counterpart: ${statsFile} has ${scores.length} block(s)`);
    }
    if (f.sentence !== s.sentence) {
      throw mismatch(featuresFile, f.line, `block ${k + 1} is of sentence ${f.sentence} but block ${k + 1} of ${statsFile} (line ${s.line}) is of sentence ${s.sentence}`);
    }
    if (f.count !== s.count) {
      throw mismatch(featuresFile, f.line, `sentence ${f.sentence} has ${f.count} candidate(s) here but ${s.count} in ${statsFile} (line ${s.line})`);
    }
    if (f.width !== features[0].width) {
      throw mismatch(featuresFile, f.line, `the block of sentence ${f.sentence} has ${f.width} features but the first block (line ${features[0].line}) has ${features[0].width}`);
    }
    for (let j = 0; j < f.count; j++) {
      const at = f.line + j;
      const values = featuresFileLineCount(lines[at]);
      if (values !== f.width) {
        throw mismatch(featuresFile, at + 1, `expected ${f.width} feature values (the block's header, line ${f.line}), got ${values}`);
      }
    }
  }
  if (scores.length > features.length) {
    const s = scores[features.length];
    throw mismatch(statsFile, s.line, `block ${features.length + 1} (sentence ${s.sentence}) has no counterpart: ${featuresFile} has ${features.length} block(s)`);
  }
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
  // Read once: a caller's `lines` may read the file on each access.
  const featureSource = { name: featuresFile, lines: features.lines };
  const raw = readBlocks(featureSource, 'FEATURES_TXT', (text) => text);
  checkFeatureBlocks(statsFile, scores.infos, featuresFile, raw.infos, featureSource.lines);
  const featureKeys = new Map<number, string[]>();
  for (const [sentence, lines] of raw.blocks) featureKeys.set(sentence, lines.map(mosesFeatureKey));
  const featureHeaders = new Map<number, FeaturesTxtHeader>();
  for (const info of raw.infos) {
    if (!featureHeaders.has(info.sentence)) featureHeaders.set(info.sentence, { count: info.width, names: info.rest });
  }
  const first = raw.infos[0];
  return {
    order: scores.order,
    stats: scores.blocks,
    featureKeys,
    featureLines: raw.blocks,
    featureHeaders,
    // Moses' FeatureData counts the first block's names (not its header's count) for the blocks it adds.
    firstFeatureHeader: first === undefined ? undefined : featuresTxtHeaderOfNames(first.rest),
  };
}

/**
 * The header of the first FEATURES_TXT block of a features file's lines (its names, counted as Moses counts them),
 * or undefined when the file has none; the file is checked later, by {@link parsePreviousRun}.
 */
export function firstFeaturesHeader(lines: readonly string[]): FeaturesTxtHeader | undefined {
  for (const line of lines) {
    if (line.trim() === '') continue;
    if (!line.trimStart().startsWith('FEATURES_TXT_BEGIN_0')) return undefined;
    return featuresTxtHeaderOfNames(line.replace(/^ *(?:[^ ]+ +){4}/, ''));
  }
  return undefined;
}

/**
 * Several previous runs as one, as Moses loads them one after the other: a sentence's candidates in file order, the
 * sentences in the order of their first block in any file, each sentence's header that of its first block.
 */
export function combinePreviousRuns(runs: readonly PreviousRun[]): PreviousRun {
  if (runs.length === 1) return runs[0];
  const order: number[] = [];
  const stats = new Map<number, number[][]>();
  const withFeatures = runs.every((r) => r.featureKeys !== undefined);
  const featureKeys = withFeatures ? new Map<number, string[]>() : undefined;
  const featureLines = withFeatures && runs.every((r) => r.featureLines !== undefined) ? new Map<number, string[]>() : undefined;
  const featureHeaders = new Map<number, FeaturesTxtHeader>();
  let firstFeatureHeader: FeaturesTxtHeader | undefined;
  for (const run of runs) {
    firstFeatureHeader ??= run.firstFeatureHeader;
    for (const sentence of run.order) {
      if (!stats.has(sentence)) {
        order.push(sentence);
        stats.set(sentence, []);
        featureKeys?.set(sentence, []);
        featureLines?.set(sentence, []);
      }
      stats.get(sentence)!.push(...run.stats.get(sentence)!);
      featureKeys?.get(sentence)!.push(...run.featureKeys!.get(sentence)!);
      featureLines?.get(sentence)!.push(...run.featureLines!.get(sentence)!);
      const header = run.featureHeaders?.get(sentence);
      if (header !== undefined && !featureHeaders.has(sentence)) featureHeaders.set(sentence, header);
    }
  }
  return { order, stats, featureKeys, featureLines, featureHeaders, firstFeatureHeader };
}
