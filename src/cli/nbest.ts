/**
 * `palette nbest --nbest FILE -r REF [REF ...] -m bleu [--stats OUT] [--stats-format moses|json|msgpack]
 * [--allow-duplicates] [--prev-stats FILE --prev-features FILE]`: per-candidate sufficient statistics of an n-best
 * list, as Moses MERT's `extractor` writes its SCORESTAT file.
 *
 * The n-best list is streamed (src/corpus/nbest.ts) and each sentence's candidates are written as soon as the next
 * sentence starts; the references are read once. Statistics come from src/metrics/bleu-moses.ts; duplicates (equal
 * features and statistics) are removed in Moses' order unless `--allow-duplicates`. With `--prev-stats`, the
 * previous run's candidates come first in each sentence and the sentences keep the previous run's order (Moses
 * loads the previous files before the n-best list), so the whole merge is held until the end.
 *
 * Bad input ends the run with `palette nbest: error: FILE[:LINE]: message` and exit status 2, and no output file
 * is left behind (the output is written to a temporary file and renamed only on success).
 */
import { InputError, locate } from '../errors.js';
import { readLines } from '../corpus/read-lines.js';
import { readNbestBatches } from '../corpus/nbest.js';
import { mosesBleuStats, prepareMosesReferences } from '../metrics/bleu-moses.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from './io.js';
import { createProgress, type Progress } from './progress.js';
import {
  mosesRemoveDuplicatesBy,
  parseMosesFeatures,
  sameMosesFeatures,
  type MosesFeatures,
} from './nbest/moses-dedup.js';
import { nbestHelp, parseNbestArgs, type NbestOptions } from './nbest/options.js';
import { readPreviousRun, type PreviousRun } from './nbest/previous-run.js';
import { blockEncoder } from './nbest/stats-format.js';
import { atomicFileSink, stdoutSink, type StatsSink } from './nbest/stats-sink.js';

/** Statistics per BLEU candidate: m1 t1 … m4 t4 reflen. */
const BLEU_WIDTH = 9;

/** Reads the references: one stream per file, all of the same length. */
function readReferences(files: readonly string[]): string[][] {
  const streams = files.map((f) => readLines(f));
  for (let j = 1; j < streams.length; j++) {
    if (streams[j].length !== streams[0].length) {
      throw new InputError(
        'E_LINE_COUNT_MISMATCH',
        `has ${streams[j].length} lines but ${files[0]} has ${streams[0].length}: references must have the same length`,
        { file: files[j] },
      );
    }
  }
  return streams;
}

/**
 * One sentence's candidates: statistics flat (`BLEU_WIDTH` numbers each) and, when duplicates are removed, their
 * features: the previous run's feature keys first, then raw features fields of the n-best list, parsed only when
 * a candidate's statistics equal another's (a key parses like its field).
 */
interface Group {
  stats: number[];
  count: number;
  features: string[];
}

/** Hash of candidate `i`'s statistics: equal statistics give equal hashes (-0 and 0, NaN and NaN included). */
function statsHash(stats: readonly number[], i: number): number {
  let h = 0x811c9dc5;
  for (let k = i * BLEU_WIDTH; k < (i + 1) * BLEU_WIDTH; k++) h = Math.imul(h ^ (stats[k] | 0), 0x01000193);
  return h;
}

/** Moses' duplicate removal over a group (equal features and statistics); kept candidate indices in Moses' order. */
function dedup(group: Group): ArrayLike<number> {
  const { stats, features } = group;
  // Parsed lazily: only candidates whose statistics equal another's are ever compared on their features.
  const parsed: (MosesFeatures | undefined)[] = new Array(group.count);
  const featuresOf = (i: number): MosesFeatures => (parsed[i] ??= parseMosesFeatures(features[i]));
  const same = (i: number, j: number): boolean => {
    for (let k = 0; k < BLEU_WIDTH; k++) {
      const a = stats[i * BLEU_WIDTH + k];
      const b = stats[j * BLEU_WIDTH + k];
      // As the former key strings compared them: String(a) === String(b).
      if (a !== b && !(a !== a && b !== b)) return false;
    }
    // Identical text gives identical keys; otherwise compare what the keys would hold.
    return features[i] === features[j] || sameMosesFeatures(featuresOf(i), featuresOf(j));
  };
  return mosesRemoveDuplicatesBy(group.count, (i) => statsHash(stats, i), same);
}

/** 0 … count − 1. */
function allRows(count: number): Int32Array {
  const rows = new Int32Array(count);
  for (let i = 0; i < count; i++) rows[i] = i;
  return rows;
}

/** Computes and writes the statistics; the sink is committed by the caller. */
async function extract(options: NbestOptions, sink: StatsSink, progress: Progress): Promise<void> {
  const refStreams = readReferences(options.refs);
  const refs = prepareMosesReferences(refStreams);
  const previous: PreviousRun | undefined =
    options.prevStats === undefined ? undefined : readPreviousRun(options.prevStats, options.prevFeatures, BLEU_WIDTH);
  const encode = blockEncoder(options.format, 'BLEU', BLEU_WIDTH);
  const keepFeatures = !options.allowDuplicates;
  // With a previous run every sentence is held until the end (its order comes first); otherwise none is.
  const held = new Map<number, Group>();
  const emit = (sentence: number, group: Group): void => {
    const rows = options.allowDuplicates ? allRows(group.count) : dedup(group);
    sink.write(encode(sentence, group.stats, rows));
  };
  const startGroup = (sentence: number): Group => {
    const group: Group = { stats: [], count: 0, features: [] };
    if (previous !== undefined) {
      for (const row of previous.stats.get(sentence) ?? []) {
        for (const v of row) group.stats.push(v);
        group.count++;
      }
      if (keepFeatures) for (const key of previous.featureKeys?.get(sentence) ?? []) group.features.push(key);
      held.set(sentence, group);
    }
    return group;
  };
  let sentence = -1;
  let group: Group | undefined;
  let done = 0;
  for await (const batch of readNbestBatches(options.nbest, { segmentCount: refs.segments, features: keepFeatures })) {
    const stats = mosesBleuStats(batch.hypotheses, batch.ids, refs);
    for (let c = 0; c < batch.count; c++) {
      const id = batch.ids[c];
      if (id !== sentence) {
        if (group !== undefined && previous === undefined) emit(sentence, group);
        sentence = id;
        group = startGroup(id);
      }
      const g = group!;
      for (let k = c * BLEU_WIDTH; k < (c + 1) * BLEU_WIDTH; k++) g.stats.push(stats[k]);
      g.count++;
      if (keepFeatures) g.features.push(batch.features![c]);
    }
    done += batch.count;
    // Ids are non-decreasing and bounded by the reference count, so the last id gives the fraction done.
    if (batch.count > 0) progress.update(done, (batch.ids[batch.count - 1] + 1) / refs.segments);
  }
  if (previous === undefined) {
    if (group !== undefined) emit(sentence, group);
    return;
  }
  for (const s of previous.order) emit(s, held.get(s) ?? startGroup(s));
  for (const [s, g] of held) if (!previous.stats.has(s)) emit(s, g);
}

/**
 * Runs `palette nbest` with `argv` (the arguments after `nbest`) and returns the exit status. Bad input is reported
 * on `io.stderr` (exit 2) and leaves no output file; other errors propagate to the caller (reported as internal).
 */
export async function runNbestCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let sink: StatsSink | undefined;
  let progress: Progress | undefined;
  try {
    const command = parseNbestArgs(argv);
    if (command.kind === 'help') {
      io.stdout.write(nbestHelp());
      return EXIT_OK;
    }
    const { options } = command;
    sink = options.stats === undefined ? stdoutSink(io) : atomicFileSink(options.stats);
    // Progress on a terminal only, not with -q, and not when the statistics themselves go to the same terminal,
    // where the redrawn line would garble them.
    const statsOnTerminal = options.stats === undefined && io.stdout.isTTY === true;
    progress = createProgress(io.stderr, { label: 'palette nbest', unit: 'hyps', quiet: options.quiet || statsOnTerminal });
    await extract(options, sink, progress);
    sink.commit();
    progress.done();
    return EXIT_OK;
  } catch (err) {
    progress?.clear();
    sink?.abort();
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette nbest: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}
