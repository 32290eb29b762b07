/**
 * The corpora of the seed experiments, read from ../shared/data (see each folder's SOURCE.md):
 * - WMT21 news en-de: 20 system outputs, references A, C and D, MQM segment scores (8 systems with text, 527 rated
 *   segments) and system-level source-based DA (20 systems with text, plus two human translations without text);
 * - SummEval: 16 systems × 100 CNN/DM documents, 11 references, expert scores on four dimensions;
 * - Joshua bn-en 10-best lists with 4 references and Moses MERT n-best lists with 1 reference (for ORANGE).
 *
 * Loaders read text as `palette score` does (strict UTF-8, `\n` lines, right-stripped) and human scores through
 * src/meta/human-scores.ts, so malformed files fail with file:line errors. A `slice` keeps the first segments,
 * documents or systems only: the tests run the experiments on a few lines so that the script cannot silently rot.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readLines } from '../../src/node/read-lines.js';
import { InputError } from '../../src/errors.js';
import { readScoreTable } from '../../src/node/score-table.js';
import type { ScoreTable } from '../../src/meta/human-scores.js';
import { pyRstrip } from '../../src/text/pystr.js';

/** `../shared/data` seen from the repository root (the house's location of the shared corpora). */
export function defaultDataRoot(repoRoot: string): string {
  return resolve(repoRoot, '..', 'shared', 'data');
}

/** Whether every corpus the experiments read is present under `dataRoot`. */
export function hasExperimentData(dataRoot: string): boolean {
  return [WMT_DIR, SUMMEVAL_DIR, JOSHUA_DIR, MOSES_DIR].every((d) => existsSync(join(dataRoot, d)));
}

/** Folder of WMT21 en-de under the data root. */
export const WMT_DIR = 'wmt21-news-en-de/en-de';
/** Folder of SummEval under the data root. */
export const SUMMEVAL_DIR = 'summeval';
/** Folder of the Joshua bn-en n-best lists under the data root. */
export const JOSHUA_DIR = 'joshua-bn-en';
/** Folder of the Moses MERT n-best lists under the data root. */
export const MOSES_DIR = 'moses-mert/mert.extractor-txt/data';

/** Lines of a text file as `palette score` reads them. */
export function readText(path: string): string[] {
  return readLines(path).map(pyRstrip);
}

/** How much of a corpus to keep (the tests' tiny slices); `undefined` = everything. */
export interface Slice {
  /** Keep the first this many segments (WMT) or documents (SummEval). */
  readonly segments?: number;
  /** Keep the first this many systems (in the order the loader lists them). */
  readonly systems?: number;
  /** Keep the first this many references. */
  readonly references?: number;
}

/** Systems with their outputs, line-aligned with the references. */
export interface SystemOutputs {
  /** System names. */
  readonly systems: readonly string[];
  /** `outputs[s][i]`: output of system `s` for segment `i`. */
  readonly outputs: readonly (readonly string[])[];
  /** Reference names (`A`, `C`, `D`; `0` … `10`). */
  readonly referenceNames: readonly string[];
  /** `references[j][i]`: reference `j` of segment `i`. */
  readonly references: readonly (readonly string[])[];
}

/** WMT21 en-de as the correlation experiments use it. */
export interface WmtEnDe {
  /** All 20 systems with text (for DA and the BLEUw/BLEUc study), against references A, C and D. */
  readonly all: SystemOutputs;
  /** MQM: the systems with text among the rated ones, the rated segments, and their scores. */
  readonly mqm: {
    /** Indices into `all.systems`. */
    readonly systems: readonly number[];
    /** 0-based line numbers of the segments rated for every one of those systems, ascending. */
    readonly segments: readonly number[];
    /** `score[k * segments.length + i]`: MQM of `mqm.systems[k]` on `segments[i]` (higher is better). */
    readonly score: Float64Array;
    /** Rated systems without text here (left out). */
    readonly leftOut: readonly string[];
  };
  /** Source-based DA (z means), system level. */
  readonly da: {
    /** Indices into `all.systems`. */
    readonly systems: readonly number[];
    /** DA z of each of `da.systems`. */
    readonly z: Float64Array;
    /** DA systems without text here (left out). */
    readonly leftOut: readonly string[];
  };
}

function take<T>(items: readonly T[], n: number | undefined): T[] {
  return n === undefined ? [...items] : items.slice(0, n);
}

function checkLength(file: string, lines: readonly string[], expected: number): void {
  if (lines.length !== expected) {
    throw new InputError('E_LINE_COUNT_MISMATCH', `has ${lines.length} lines, expected ${expected}`, { file });
  }
}

/** Score of (system, item) in a segment-level table, as a map keyed `system\titem`. */
function tableIndex(table: ScoreTable): Map<string, number> {
  const out = new Map<string, number>();
  for (let r = 0; r < table.score.length; r++) {
    out.set(`${table.systems[table.system[r]]}\t${table.items[table.item[r]]}`, table.score[r]);
  }
  return out;
}

/**
 * Reads WMT21 en-de: outputs of every system (file names of `systems/`, sorted), references A, C, D, MQM and DA.
 * MQM keeps the systems that have text here and the segments rated for all of them; DA the systems with text.
 * @throws InputError for unreadable or malformed files.
 */
export function loadWmtEnDe(dataRoot: string, slice: Slice = {}): WmtEnDe {
  const dir = join(dataRoot, WMT_DIR);
  const names = take(
    readdirSync(join(dir, 'systems'))
      .filter((f) => f.endsWith('.de'))
      .map((f) => f.slice(0, -3))
      .sort(),
    slice.systems,
  );
  const referenceNames = take(['A', 'C', 'D'], slice.references);
  const references = referenceNames.map((r) => readText(join(dir, `ref.${r}.de`)));
  const segments = slice.segments === undefined ? references[0].length : Math.min(slice.segments, references[0].length);
  references.forEach((lines, j) => checkLength(join(dir, `ref.${referenceNames[j]}.de`), lines, references[0].length));
  const outputs = names.map((s) => {
    const file = join(dir, 'systems', `${s}.de`);
    const lines = readText(file);
    checkLength(file, lines, references[0].length);
    return lines.slice(0, segments);
  });
  const all: SystemOutputs = { systems: names, outputs, referenceNames, references: references.map((r) => r.slice(0, segments)) };

  const mqmFile = join(dir, 'human', 'mqm_seg_scores.tsv');
  const mqm = readScoreTable(mqmFile, { score: 'mqm_avg_score', item: 'seg_id', allowUnrated: true });
  const mqmIndex = tableIndex(mqm);
  const mqmSystems: number[] = [];
  const mqmLeftOut: string[] = [];
  for (const s of mqm.systems) {
    const k = names.indexOf(s);
    if (k >= 0) mqmSystems.push(k);
    else mqmLeftOut.push(s);
  }
  mqmSystems.sort((a, b) => a - b);
  const rated: number[] = [];
  for (let i = 0; i < segments; i++) {
    if (mqmSystems.every((k) => mqmIndex.has(`${names[k]}\t${i + 1}`))) rated.push(i);
  }
  const mqmScore = new Float64Array(mqmSystems.length * rated.length);
  mqmSystems.forEach((k, ks) => {
    rated.forEach((i, ii) => {
      mqmScore[ks * rated.length + ii] = mqmIndex.get(`${names[k]}\t${i + 1}`)!;
    });
  });

  const daFile = join(dir, 'human', 'da_sys_scores.srcbased.tsv');
  const da = readScoreTable(daFile, { score: 'da_z', item: null });
  const daSystems: number[] = [];
  const daZ: number[] = [];
  const daLeftOut: string[] = [];
  for (let r = 0; r < da.score.length; r++) {
    const name = da.systems[da.system[r]];
    const k = names.indexOf(name);
    if (k >= 0) {
      daSystems.push(k);
      daZ.push(da.score[r]);
    } else {
      daLeftOut.push(name);
    }
  }
  return {
    all,
    mqm: { systems: mqmSystems, segments: rated, score: mqmScore, leftOut: mqmLeftOut },
    da: { systems: daSystems, z: Float64Array.from(daZ), leftOut: daLeftOut },
  };
}

/** The four SummEval dimensions, in the file's column order. */
export const SUMMEVAL_DIMENSIONS = ['coherence', 'consistency', 'fluency', 'relevance'] as const;

/** One of {@link SUMMEVAL_DIMENSIONS}. */
export type SummEvalDimension = (typeof SUMMEVAL_DIMENSIONS)[number];

/** SummEval as the correlation experiments use it. */
export interface SummEval extends SystemOutputs {
  /** Document ids, the order of every line-aligned file. */
  readonly documents: readonly string[];
  /** Per dimension: `human[d][s * documents.length + i]` = score of system `s` on document `i`. */
  readonly human: Readonly<Record<SummEvalDimension, Float64Array>>;
}

/**
 * Reads SummEval: systems in the order of the score file, references 0 … 10, the four human dimensions. Every
 * (document, system) pair must have scores: a missing one is an error naming the file, never a silent join.
 * @throws InputError for unreadable or malformed files and missing scores.
 */
export function loadSummEval(dataRoot: string, slice: Slice = {}): SummEval {
  const dir = join(dataRoot, SUMMEVAL_DIR);
  const allDocuments = readText(join(dir, 'doc_ids.txt'));
  const documents = take(allDocuments, slice.segments);
  const humanFile = join(dir, 'human_scores.tsv');
  const tables = SUMMEVAL_DIMENSIONS.map((d) => readScoreTable(humanFile, { score: d, item: 'doc_id' }));
  const systems = take(tables[0].systems, slice.systems);
  const refCount = readdirSync(join(dir, 'refs')).filter((f) => /^ref\.\d+\.txt$/.test(f)).length;
  const referenceNames = take(Array.from({ length: refCount }, (_, j) => String(j)), slice.references);
  const references = referenceNames.map((j) => {
    const file = join(dir, 'refs', `ref.${j}.txt`);
    const lines = readText(file);
    checkLength(file, lines, allDocuments.length);
    return lines.slice(0, documents.length);
  });
  const outputs = systems.map((s) => {
    const file = join(dir, 'systems', `${s}.txt`);
    const lines = readText(file);
    checkLength(file, lines, allDocuments.length);
    return lines.slice(0, documents.length);
  });
  const human = {} as Record<SummEvalDimension, Float64Array>;
  SUMMEVAL_DIMENSIONS.forEach((d, t) => {
    const index = tableIndex(tables[t]);
    const values = new Float64Array(systems.length * documents.length);
    systems.forEach((s, k) => {
      documents.forEach((doc, i) => {
        const v = index.get(`${s}\t${doc}`);
        if (v === undefined) throw new InputError('E_BAD_INPUT', `no ${d} score for system ${s} on document ${doc}`, { file: humanFile });
        values[k * documents.length + i] = v;
      });
    });
    human[d] = values;
  });
  return { systems, outputs, referenceNames, references, documents, human };
}

/** The share of whitespace-separated words that start with an upper-case letter (how cased a text is). */
export function capitalizedShare(lines: readonly string[]): number {
  let words = 0;
  let capitalized = 0;
  for (const line of lines) {
    for (const w of line.split(/\s+/)) {
      if (w.length === 0) continue;
      words++;
      if (/^\p{Lu}/u.test(w)) capitalized++;
    }
  }
  return words === 0 ? 0 : capitalized / words;
}
