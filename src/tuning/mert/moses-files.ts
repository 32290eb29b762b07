/**
 * Moses' `mert` inputs, held as lines, into a {@link MertProblem}: FEATURES_TXT and SCORES_TXT files in pairs
 * (`--ffile a,b --scfile c,d`; blocks of one sentence are appended in file order, sentences keep the order of their
 * first block, as Moses' FeatureData/ScoreData merge them), duplicates removed as Moses' `Data::removeDuplicates`
 * does (src/engine/nbest/moses-dedup.ts), and the INIT file (start weights, then the lower and upper ends of the random ranges, one line each).
 *
 * Blocks are read by the n-best engine's reader of previous runs (src/engine/nbest/previous-run.ts). Moses pairs
 * feature and score blocks by position without looking; here every disagreement (sentence ids, candidate counts,
 * feature counts, the statistics width the objective needs) is an `E_BAD_INPUT` naming the file and line.
 *
 * Values are read as Moses reads them (`atof`, then stored as float): features and statistics are rounded to
 * single precision.
 */
import { InputError } from '../../errors.js';
import { mosesRemoveDuplicatesBy } from '../../engine/nbest/moses-dedup.js';
import { readBlocks, type PreviousRunFile } from '../../engine/nbest/previous-run.js';
import { mertProblem, type MertObjective, type MertProblem } from './problem.js';

/** A file given as its name (for messages) and its lines. */
export type MertInputFile = PreviousRunFile;

/** The problem read from Moses files. */
export interface MertFiles {
  readonly problem: MertProblem;
  /** Feature names of the FEATURES_TXT headers (`d_0 … w_0`), for `-o`. */
  readonly featureNames: readonly string[];
  /** Sentence id of each sentence of the problem. */
  readonly sentenceIds: readonly number[];
  /** Candidates removed as duplicates. */
  readonly duplicates: number;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function bad(file: string, line: number, message: string): InputError {
  return new InputError('E_BAD_INPUT', message, { file, line });
}

/**
 * The blank-separated numbers of a FEATURES_TXT or SCORES_TXT candidate line, each checked and read as Moses reads
 * it (`strtod`, stored as a float). `what` (`features`, `statistics`) names them in messages; features refuse
 * sparse `name=value` entries.
 * @throws InputError `E_BAD_INPUT` at `file`:`line` for a wrong count, a non-number or a number outside float range.
 */
export function mosesNumbers(text: string, width: number, file: string, line: number, what: string): number[] {
  const t = text.trim();
  const fields = t.length === 0 ? [] : t.split(/[ \t]+/);
  if (fields.length !== width) throw bad(file, line, `expected ${width} ${what}, got ${fields.length}: ${JSON.stringify(text)}`);
  const out = new Array<number>(width);
  for (let i = 0; i < width; i++) {
    const f = fields[i];
    if (what === 'features' && f.includes('=')) {
      throw bad(file, line, `sparse feature ${JSON.stringify(f)}: only dense features are read`);
    }
    if (!NUMBER.test(f)) throw bad(file, line, `${JSON.stringify(f)} is not a number`);
    const v = Math.fround(Number(f));
    if (!Number.isFinite(v)) throw bad(file, line, `${JSON.stringify(f)} is outside the range of a float`);
    out[i] = v;
  }
  return out;
}

interface Blocks {
  readonly order: number[];
  readonly blocks: Map<number, number[][]>;
  /** Line of the first header of each sentence. */
  readonly headerLine: Map<number, number>;
}

function scoreBlocks(file: MertInputFile, width: number): Blocks {
  const headerLine = new Map<number, number>();
  const read = readBlocks(
    file,
    'SCORES_TXT',
    (text, line) => mosesNumbers(text, width, file.name, line, 'statistics'),
    (fields, line) => {
      if (Number(fields[3]) !== width) {
        throw bad(file.name, line, `the block has ${fields[3]} statistics per candidate; the objective reads ${width}`);
      }
      if (!headerLine.has(Number(fields[1]))) headerLine.set(Number(fields[1]), line);
    },
  );
  return { ...read, headerLine };
}

function featureBlocks(file: MertInputFile, shape: { width: number; names: string[]; file: string } | undefined): Blocks & { width: number; names: string[]; file: string } {
  const headerLine = new Map<number, number>();
  let width = shape?.width ?? -1;
  let names = shape?.names ?? [];
  let first = shape?.file ?? file.name;
  const read = readBlocks(
    file,
    'FEATURES_TXT',
    (text, line) => mosesNumbers(text, width, file.name, line, 'features'),
    (fields, line) => {
      const w = Number(fields[3]);
      if (width < 0) {
        if (!(w >= 1)) throw bad(file.name, line, `a block of ${fields[3]} features`);
        width = w;
        names = fields.slice(4);
        first = file.name;
      } else if (w !== width) {
        throw bad(file.name, line, `the block has ${w} features; the first block (${first}) has ${width}`);
      }
      if (!headerLine.has(Number(fields[1]))) headerLine.set(Number(fields[1]), line);
    },
  );
  return { ...read, headerLine, width, names, file: first };
}

/**
 * Reads pairs of FEATURES_TXT and SCORES_TXT files into a problem.
 * @param dimensions the number of features `-d` gives (checked against the files)
 * @throws InputError `E_BAD_INPUT` naming the file and line for a malformed block or files that disagree.
 */
export function readMertFiles(
  pairs: readonly { readonly features: MertInputFile; readonly scores: MertInputFile }[],
  objective: MertObjective,
  dimensions: number,
): MertFiles {
  let shape: { width: number; names: string[]; file: string } | undefined;
  const order: number[] = [];
  const feats = new Map<number, number[][]>();
  const stats = new Map<number, number[][]>();
  for (const pair of pairs) {
    const fb = featureBlocks(pair.features, shape);
    const sb = scoreBlocks(pair.scores, objective.width);
    shape = { width: fb.width, names: fb.names, file: fb.file };
    if (fb.order.length === 0) throw new InputError('E_BAD_INPUT', 'no FEATURES_TXT block', { file: pair.features.name });
    for (let i = 0; i < Math.max(fb.order.length, sb.order.length); i++) {
      const fs = fb.order[i];
      const ss = sb.order[i];
      if (fs !== ss) {
        if (fs === undefined) {
          throw bad(pair.scores.name, sb.headerLine.get(ss)!, `sentence ${ss} has no block in ${pair.features.name}`);
        }
        if (ss === undefined) {
          throw bad(pair.features.name, fb.headerLine.get(fs)!, `sentence ${fs} has no block in ${pair.scores.name}`);
        }
        throw bad(pair.features.name, fb.headerLine.get(fs)!, `sentence ${fs} where ${pair.scores.name} has sentence ${ss} (line ${sb.headerLine.get(ss)})`);
      }
      const nf = fb.blocks.get(fs)!.length;
      const ns = sb.blocks.get(ss)!.length;
      if (nf !== ns) {
        throw bad(pair.features.name, fb.headerLine.get(fs)!, `sentence ${fs} has ${nf} candidate(s) here but ${ns} in ${pair.scores.name} (line ${sb.headerLine.get(ss)})`);
      }
    }
    for (const s of fb.order) {
      if (!feats.has(s)) {
        order.push(s);
        feats.set(s, []);
        stats.set(s, []);
      }
      feats.get(s)!.push(...fb.blocks.get(s)!);
      stats.get(s)!.push(...sb.blocks.get(s)!);
    }
  }
  if (shape!.width !== dimensions) {
    throw new InputError('E_BAD_INPUT', `the candidates have ${shape!.width} features, -d says ${dimensions}`, { file: shape!.file, line: 1 });
  }
  const D = shape!.width;
  const W = objective.width;
  // Moses' Data::removeDuplicates (the n-best engine's implementation): equal features and equal statistics.
  let duplicates = 0;
  const kept: number[] = [];
  const same = (a: number[], b: number[]): boolean => a.every((v, i) => v === b[i]);
  for (const s of order) {
    const f = feats.get(s)!;
    const st = stats.get(s)!;
    const keep = mosesRemoveDuplicatesBy(
      f.length,
      (i) => {
        let h = 0;
        for (const v of st[i]) h = (Math.imul(h, 31) + (v | 0)) | 0;
        return h;
      },
      (i, j) => same(f[i], f[j]) && same(st[i], st[j]),
    );
    feats.set(s, Array.from(keep, (i) => f[i]));
    stats.set(s, Array.from(keep, (i) => st[i]));
    duplicates += f.length - keep.length;
    kept.push(keep.length);
  }
  const offsets = new Int32Array(order.length + 1);
  kept.forEach((k, i) => (offsets[i + 1] = offsets[i] + k));
  const n = offsets[order.length];
  const features = new Float32Array(n * D);
  const rows = new Float64Array(n * W);
  order.forEach((s, i) => {
    const f = feats.get(s)!;
    const st = stats.get(s)!;
    for (let c = 0; c < kept[i]; c++) {
      features.set(f[c], (offsets[i] + c) * D);
      rows.set(st[c], (offsets[i] + c) * W);
    }
  });
  const problem = mertProblem({ features, dimensions: D, stats: rows, candidateOffsets: offsets, objective });
  return { problem, featureNames: shape!.names, sentenceIds: order, duplicates };
}

/** Start weights and ranges of an INIT file. */
export interface MertInit {
  readonly start: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
}

function initLine(file: MertInputFile, index: number, dimensions: number, what: string): Float64Array {
  const text = file.lines[index];
  if (text === undefined) throw new InputError('E_BAD_INPUT', `no line of ${what} (line ${index + 1}; expected ${dimensions} numbers)`, { file: file.name });
  const t = text.trim();
  const fields = t.length === 0 ? [] : t.split(/[ \t]+/);
  if (fields.length !== dimensions) {
    throw bad(file.name, index + 1, `${fields.length} ${what}, expected ${dimensions} (one per feature, -d ${dimensions})`);
  }
  return Float64Array.from(fields, (f) => {
    const v = Math.fround(Number(f));
    if (!NUMBER.test(f) || !Number.isFinite(v)) throw bad(file.name, index + 1, `${what}: ${JSON.stringify(f)} is not a number`);
    return v;
  });
}

/**
 * Reads an INIT file: line 1 the start weights, line 2 the lower ends of the ranges, line 3 the upper ends, each
 * one number per feature (single precision); with `startOnly` (Moses' second and later INIT files) line 1 alone.
 * @throws InputError `E_BAD_INPUT` naming the file and line of a missing line, a wrong count or a non-number.
 */
export function readMertInit(file: MertInputFile, dimensions: number, startOnly = false): MertInit {
  const start = initLine(file, 0, dimensions, 'weights');
  if (startOnly) return { start, min: start, max: start };
  return { start, min: initLine(file, 1, dimensions, 'minimum weights'), max: initLine(file, 2, dimensions, 'maximum weights') };
}
