/**
 * `palette mbr --samples S1 S2 … -m METRIC [--pseudo-refs P1 P2 …] [--include-self] [--scores FILE] [-o FILE]`:
 * minimum Bayes risk decoding on the engine's pairwise scorer (src/engine/pairwise). The sample files are aligned,
 * one sample per line (like `palette score -i` systems); for each line, every sample is scored against the
 * pseudo-references (the samples themselves, or the `--pseudo-refs` files) with the metric's sentence score, its
 * expected utility is the mean over them with uniform weights (its own pair left out unless `--include-self`), and
 * the sample with the best utility (highest, or lowest for TER, WER, PER; the first sample on ties) is printed: one line per
 * segment, the MBR output. `--scores` writes, per segment, a record `{"segment": LINE, "choice": INDEX,
 * "utilities": [...]}` (INDEX counts the sample files from 0), as JSON lines or, with `--scores-format msgpack`, as
 * MessagePack maps back to back (./utility.ts).
 *
 * `-m chrf:0.5 bleu:0.5` makes the utility a weighted sum of the metrics' sentence scores, each on its printed scale
 * (src/engine/pairwise `resolveUtility`: lower-is-better metrics mixed with higher-is-better ones are subtracted).
 * `--aggregate` scores each sample against one aggregate pseudo-reference (reference aggregation: the mean n-gram
 * counts and totals of the pseudo-references; chrF and BLEU), an approximation that is never the default.
 *
 * `--weights` gives each pseudo-reference a weight per segment (aligned files, one number a line): the expected
 * utility is then the weighted mean. `--matrix` writes every segment's utility matrix, streamed, as one numpy .npy
 * array of shape (segments, samples, pseudo-references). `-j N` decides segments on N threads, this one and N − 1
 * pool workers (src/pool/mbr-pool.ts), the same output. `--queue redis://…` has `palette worker` processes, on any number of
 * machines that see the same files, decide shards of `--shard-lines` segments through a BullMQ queue on Redis
 * (./queue.ts); their decisions come back in segment order and are written as here, the same bytes.
 *
 * Bad input (sample files of different lengths, one sample without --include-self, a metric without pairwise
 * scores or, with --aggregate, without aggregation, a weight (--weights or -m METRIC:WEIGHT) that is not a
 * non-negative number or weights that sum to zero, a bad option) ends the run with `palette mbr: error: …` and exit status 2 before any output file is
 * touched; output files are written whole or not at all (../output-file.ts).
 */
import { InputError, locate } from '../../errors.js';
import { mbrDecode, utilityFromSpecs } from '../../engine/pairwise/index.js';
import { checkNbestGroup, decideNbestGroup, nbestGroups } from '../../engine/pairwise/mbr-nbest.js';
import { readNbestBatches } from '../../node/nbest.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import { readLines } from '../../node/read-lines.js';
import { formatOptionHelp, parseArgs, type OptionSpec, type ParsedValue } from '../args.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { checkOutputFile, openOutputFile, type OutputFile } from '../output-file.js';
import { pyParseFloat } from '../py-format.js';
import { npyArrayHeader, npyData } from '../pairwise/npy.js';
import { pairwiseMetric } from '../pairwise/command.js';
import { PAIRWISE_METRIC_FLAGS, readSettings } from '../pairwise/options.js';
import { readScoresFormat, readUtilitySpecs, scoresWriter } from './utility.js';
import type { MbrWorkerSetup } from '../../pool/kinds/mbr.js';
import { MAX_WORKERS, integerValue, optionValues, sharedOption } from '../shared-options.js';
import { queueOptionSpecs, readQueueOptions, type QueueOptions } from '../queue/options.js';

const GROUP = 'palette mbr options';
const QUEUE = 'Queue (many machines)';

const SPECS: readonly OptionSpec[] = [
  { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help message and exit', group: GROUP },
  { key: 'samples', names: ['--samples'], arity: 'some', metavar: 'FILE', group: GROUP,
    help: 'sample files, one sample per line, aligned (line n of every file: the samples of segment n)' },
  { key: 'nbest', names: ['--nbest'], arity: 'one', metavar: 'FILE', group: GROUP,
    help: 'the samples as a Moses n-best list (id ||| hypothesis ||| …), instead of --samples: each id\'s hypotheses are its samples and pseudo-references; output line n+1 is id n (empty for an id without hypotheses)' },
  { key: 'metric', names: ['--metrics', '-m'], arity: 'some', metavar: 'METRIC[:WEIGHT]', group: GROUP,
    help: 'the utility: chrf (chrF++ with --chrf-word-order 2), bleu (sentence BLEU: effective order), rouge-N, rouge-l, …; or ter, wer, per (lower is better). ' +
      'Several metrics make a weighted sum of their sentence scores, each on its printed scale (-m chrf:0.5 bleu:0.5; a metric without :WEIGHT weighs 1; ' +
      'weights are non-negative and not all zero); mixing lower- and higher-is-better metrics subtracts the lower-is-better ones (higher sum is better)' },
  { key: 'pseudoRefs', names: ['--pseudo-refs'], arity: 'some', metavar: 'FILE', group: GROUP,
    help: 'pseudo-reference files, aligned with the samples (default: the samples themselves)' },
  { key: 'includeSelf', names: ['--include-self'], arity: 'flag', group: GROUP,
    help: "count each sample's score against itself (default: left out when the samples are the pseudo-references)" },
  { key: 'weights', names: ['--weights'], arity: 'some', metavar: 'FILE', group: GROUP,
    help: 'weight files, one per pseudo-reference (per sample by default), aligned: line n = the weight of that pseudo-reference in segment n (a non-negative number, e.g. a model probability); default: uniform' },
  { key: 'matrix', names: ['--matrix'], arity: 'one', metavar: 'FILE', group: GROUP,
    help: 'write the utility matrices as numpy .npy, float64 of shape (segments, samples, pseudo-references)' },
  { key: 'scores', names: ['--scores'], arity: 'one', metavar: 'FILE', group: GROUP,
    help: 'write each segment\'s expected utilities: a record {"segment", "choice", "utilities"} per segment (JSON lines, or MessagePack with --scores-format msgpack)' },
  { key: 'scoresFormat', names: ['--scores-format'], arity: 'one', metavar: 'FORMAT', group: GROUP,
    help: 'jsonl (default: one JSON object a line) or msgpack (one MessagePack map a segment, back to back; utilities as numbers, integral ones as integers)' },
  { key: 'aggregate', names: ['--aggregate'], arity: 'flag', group: GROUP,
    help: 'reference aggregation (Vamvas & Sennrich 2024), an approximation, linear in the samples: each sample is scored once against one aggregate pseudo-reference ' +
      'whose n-gram counts and n-gram totals per order are the (weighted) means of the pseudo-references\' (the sample\'s own left out unless --include-self); ' +
      'chrF: character and word n-grams, matches = sum of min(sample count, mean count); BLEU: word n-grams clipped to the fractional mean counts, mean reference length; chrf and bleu only, no --matrix' },
  { key: 'workers', names: ['--workers', '-j'], arity: 'one', metavar: 'N', group: GROUP,
    help: 'threads deciding runs of segments (default 1: this thread alone; --samples only); the output is the same for any N' },
  { key: 'output', names: ['--output', '-o'], arity: 'one', metavar: 'FILE', group: GROUP,
    help: 'write the chosen samples to FILE instead of standard output' },
  sharedOption('quiet', GROUP, 'no run line and no progress line on standard error (--queue)'),
  ...PAIRWISE_METRIC_FLAGS,
  ...queueOptionSpecs(QUEUE, 'decide the segments', 'about 4M sample pairs a shard; --samples only'),
  { key: 'shardSize', names: ['--shard-size'], arity: 'one', metavar: 'BYTES', group: QUEUE,
    help: 'bytes of the --nbest list per shard of a queue run, about (shards end at segment boundaries; default 1 MiB)' },
];

/** The help text of `palette mbr`. */
export function mbrHelp(): string {
  return (
    'usage: palette mbr (--samples FILE [FILE ...] | --nbest FILE) -m METRIC[:WEIGHT] [METRIC[:WEIGHT] ...] [--pseudo-refs FILE [FILE ...]]\n' +
    '                   [--include-self] [--weights FILE [FILE ...]] [--aggregate] [--scores FILE] [--scores-format jsonl|msgpack]\n' +
    '                   [--matrix FILE] [-j N] [-o FILE] [--queue URL [--shard-lines N | --shard-size BYTES] [--queue-dir DIR]\n' +
    '                   [--redis-timeout S]] [-q]\n' +
    '                   [metric options]\n\n' +
    "Minimum Bayes risk decoding: for each line, the sample with the best mean sentence score against the others\n" +
    '(exactly sacreBLEU\'s sentence_score for each pair; several -m metrics: their weighted sum), uniform weights unless\n' +
    '--weights, ties to the first sample file. --aggregate approximates it in linear time (reference aggregation).\n' +
    formatOptionHelp(SPECS) +
    '\n\n'
  );
}

function list(values: ReadonlyMap<string, ParsedValue>, key: string): string[] | undefined {
  const v = values.get(key);
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v : [String(v)];
}

function single(values: ReadonlyMap<string, ParsedValue>, key: string): string | undefined {
  const v = values.get(key);
  return typeof v === 'string' ? v : undefined;
}

/** Reads aligned files, refusing files whose line counts differ from the first one's. */
function readAligned(files: readonly string[], what: string, lines?: { file: string; count: number }): string[][] {
  const streams = files.map((f) => readLines(f));
  const first = lines ?? { file: files[0], count: streams[0].length };
  streams.forEach((s, k) => {
    if (s.length !== first.count) {
      throw new InputError(
        'E_LINE_COUNT_MISMATCH',
        `${what} file has ${s.length} lines, but ${first.file} has ${first.count}`,
        { file: files[k] },
      );
    }
  });
  return streams;
}

/** Runs `palette mbr`; bad input is reported as `palette mbr: error: FILE:LINE: message`, exit status 2. */
export async function runMbrCommand(argv: readonly string[], io: CliIo, registry: MetricRegistry): Promise<number> {
  try {
    return await mbr(argv, io, registry);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette mbr: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}

/**
 * What both inputs (--samples files and --nbest lists) read the same way: the utility (its metrics, weights and
 * settings), its direction, --aggregate and the --scores format.
 */
function readDecision(values: ReadonlyMap<string, ParsedValue>, registry: MetricRegistry) {
  const specs = readUtilitySpecs(values, registry);
  const settings = readSettings(values);
  const utility = utilityFromSpecs(specs, (id) => pairwiseMetric(id, settings, registry));
  return {
    specs, settings, utility, direction: specs[0].direction, aggregate: values.has('aggregate'),
    scoresFormat: readScoresFormat(single(values, 'scoresFormat')),
  };
}

async function mbr(argv: readonly string[], io: CliIo, registry: MetricRegistry): Promise<number> {
  const { values, positionals } = parseArgs(argv, SPECS);
  if (values.has('help')) {
    io.stdout.write(mbrHelp());
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new InputError('E_BAD_OPTION', `unrecognized arguments: ${positionals.join(' ')}`);
  const queue = readQueueOptions(optionValues(values), 1);
  if (values.has('shardSize') && queue === undefined) throw new InputError('E_BAD_OPTION', '--shard-size needs --queue URL');
  const nbestFile = single(values, 'nbest');
  if (nbestFile !== undefined) {
    return mbrNbest(nbestFile, values, io, registry, queue);
  }
  const sampleFiles = list(values, 'samples');
  if (sampleFiles === undefined || sampleFiles.length === 0) {
    throw new InputError('E_BAD_OPTION', 'the samples are required (--samples FILE [FILE ...] or --nbest FILE)');
  }
  const pseudoFiles = list(values, 'pseudoRefs');
  const includeSelf = values.has('includeSelf');
  if (pseudoFiles === undefined && !includeSelf && sampleFiles.length < 2) {
    throw new InputError('E_BAD_OPTION', 'MBR needs at least two sample files to score each against the others (or --include-self)');
  }
  const { specs, settings, utility, direction, aggregate, scoresFormat } = readDecision(values, registry);
  const workersText = single(values, 'workers');
  const workers = workersText === undefined ? 1 : integerValue('-j', workersText, 1, MAX_WORKERS);
  if (values.has('shardSize')) throw new InputError('E_BAD_OPTION', '--shard-size cuts --nbest lists: shards of --samples files are --shard-lines segments');
  if (queue !== undefined && workersText !== undefined) {
    throw new InputError('E_BAD_OPTION', '-j decides segments in this process; with --queue each palette worker\'s --workers sets its threads');
  }
  const output = single(values, 'output');
  const scoresFile = single(values, 'scores');
  if (output !== undefined) checkOutputFile(output);
  if (scoresFile !== undefined) checkOutputFile(scoresFile);

  const weightFiles = list(values, 'weights');
  const matrixFile = single(values, 'matrix');
  const columns = pseudoFiles?.length ?? sampleFiles.length;
  if (weightFiles !== undefined && weightFiles.length !== columns) {
    throw new InputError(
      'E_BAD_OPTION',
      `--weights names ${weightFiles.length} file(s) for ${columns} pseudo-references: give one per ${pseudoFiles ? '--pseudo-refs' : '--samples'} file`,
    );
  }
  if (matrixFile !== undefined) {
    if (aggregate) throw new InputError('E_BAD_OPTION', '--aggregate scores each sample against one aggregate pseudo-reference: there is no matrix to write (--matrix)');
    checkOutputFile(matrixFile);
  }

  const samples = readAligned(sampleFiles, 'sample');
  const first = { file: sampleFiles[0], count: samples[0].length };
  const pseudoRefs = pseudoFiles === undefined ? undefined : readAligned(pseudoFiles, 'pseudo-reference', first);
  const weightStreams = weightFiles === undefined ? undefined : readAligned(weightFiles, 'weight', first).map((lines, k) => lines.map((text, s) => {
    const w = pyParseFloat(text);
    if (w === undefined || !(w >= 0) || !Number.isFinite(w)) {
      throw new InputError('E_BAD_INPUT', `a weight must be a non-negative number (got ${JSON.stringify(text)})`, { file: weightFiles[k], line: s + 1 });
    }
    return w;
  }));

  const opened: OutputFile[] = [];
  let cleanUp: (() => Promise<void>) | undefined;
  try {
    const matrixOut = matrixFile === undefined ? undefined : openOutputFile(matrixFile);
    if (matrixOut !== undefined) {
      opened.push(matrixOut);
      matrixOut.write(npyArrayHeader([first.count, sampleFiles.length, columns]));
    }
    let choices: { readonly choice: number; readonly utilities: Float64Array }[];
    try {
      if (queue !== undefined && first.count > 0) {
        const setup = { utility: specs, settings, samples, pseudoRefs, weightStreams, direction, includeSelf, aggregate, matrices: matrixOut !== undefined };
        ({ choices, cleanUp } = await decideQueued(queue, values, setup, sampleFiles, pseudoFiles, io, matrixOut));
      } else if (workers > 1 && first.count > 1) {
        const { mbrOnPool } = await import('../../pool/mbr-pool.js');
        const rows = samples.length;
        const all: { choice: number; utilities: Float64Array }[] = [];
        const setup = { utility: specs, settings, samples, pseudoRefs, weightStreams, direction, includeSelf, aggregate, matrices: matrixOut !== undefined };
        await mbrOnPool(setup, workers, (from, to, run) => {
          for (let s = 0; s < to - from; s++) all.push({ choice: run.choices[s], utilities: run.utilities.subarray(s * rows, (s + 1) * rows) });
          if (matrixOut !== undefined && run.matrices !== null) matrixOut.write(npyData(run.matrices));
        });
        choices = all;
      } else {
        choices = mbrDecode(utility, samples, {
          direction, includeSelf, pseudoRefs, weightStreams, aggregate,
          onMatrix: matrixOut === undefined ? undefined : (_, matrix) => matrixOut.write(npyData(matrix)),
        });
      }
    } catch (err) {
      // A segment whose weights sum to zero: every weight file has its number on that line.
      if (err instanceof InputError && err.line !== undefined && err.file === undefined && weightFiles !== undefined) {
        throw new InputError(err.code, `${err.message.replace(/^segment \d+: /, '')} (the weights on this line of every --weights file)`, { file: weightFiles[0], line: err.line });
      }
      throw err;
    }

    const chosen = choices.map((c, s) => `${samples[c.choice][s]}\n`).join('');
    if (output === undefined) io.stdout.write(chosen);
    else {
      const out = openOutputFile(output);
      opened.push(out);
      out.write(chosen);
    }
    if (scoresFile !== undefined) {
      const out = openOutputFile(scoresFile);
      opened.push(out);
      const write = scoresWriter(out, scoresFormat);
      choices.forEach((c, s) => write(s + 1, c.choice, c.utilities));
    }
    for (const out of opened) out.commit();
  } catch (err) {
    for (const out of opened) out.abort();
    throw err;
  }
  await cleanUp?.();
  return EXIT_OK;
}

/**
 * The decisions of every segment by `palette worker` processes through the queue (./queue.ts), handed back in
 * segment order as the pool's runs are (the matrices written as they come), and the run's clean-up.
 */
async function decideQueued(
  queue: QueueOptions,
  values: ReadonlyMap<string, ParsedValue>,
  setup: MbrWorkerSetup,
  sampleFiles: readonly string[],
  pseudoFiles: readonly string[] | undefined,
  io: CliIo,
  matrixOut: OutputFile | undefined,
): Promise<{ choices: { choice: number; utilities: Float64Array }[]; cleanUp: () => Promise<void> }> {
  // Imported here: BullMQ and its Redis client load only for a queue run.
  const { defaultShardLines, mbrQueued } = await import('./queue.js');
  const rows = setup.samples.length;
  const columns = setup.pseudoRefs?.length ?? rows;
  const choices: { choice: number; utilities: Float64Array }[] = [];
  const cleanUp = await mbrQueued(
    {
      queue,
      shardLines: values.has('shardLines') ? queue.shardLines : defaultShardLines(rows, columns),
      setup,
      sampleFiles,
      pseudoFiles,
      quiet: values.has('quiet'),
      io,
    },
    (from, to, run) => {
      for (let s = 0; s < to - from; s++) choices.push({ choice: run.choices[s], utilities: run.utilities.subarray(s * rows, (s + 1) * rows) });
      if (matrixOut !== undefined && run.matrices !== null) matrixOut.write(npyData(run.matrices));
    },
  );
  return { choices, cleanUp };
}

/**
 * MBR over a Moses n-best list: the hypotheses of each id (stripped as Python's `strip()`) are that segment's
 * samples and pseudo-references; the list is read in batches and each id decided once its group is complete, so
 * memory holds one group at a time.
 */
async function mbrNbest(
  file: string, values: ReadonlyMap<string, ParsedValue>, io: CliIo, registry: MetricRegistry, queue: QueueOptions | undefined,
): Promise<number> {
  if (values.has('workers')) throw new InputError('E_BAD_OPTION', '-j decides runs of segments of --samples files; with --nbest the list is read in one thread');
  for (const [key, flag] of [['samples', '--samples'], ['pseudoRefs', '--pseudo-refs'], ['weights', '--weights'], ['matrix', '--matrix'], ['shardLines', '--shard-lines']]) {
    if (values.has(key)) throw new InputError('E_BAD_OPTION', `--nbest takes its samples from the list: ${flag} does not go with it`);
  }
  const includeSelf = values.has('includeSelf');
  const { specs, settings, utility, direction, aggregate, scoresFormat } = readDecision(values, registry);
  const output = single(values, 'output');
  const scoresFile = single(values, 'scores');
  if (output !== undefined) checkOutputFile(output);
  if (scoresFile !== undefined) checkOutputFile(scoresFile);
  const shardSize = single(values, 'shardSize');
  const shardBytes = shardSize === undefined ? undefined : integerValue('--shard-size', shardSize, 1);

  /** Decides the list's groups through `decide` (handing each group's decision on), and writes the outputs. */
  const run = async (
    decide: (emit: (id: number, choice: number, text: string, utilities: Float64Array) => void) => Promise<boolean>,
  ): Promise<boolean> => {
    const opened: OutputFile[] = [];
    let chosen = '';
    try {
      const scoresOut = scoresFile === undefined ? undefined : openOutputFile(scoresFile);
      if (scoresOut !== undefined) opened.push(scoresOut);
      const writeScores = scoresOut === undefined ? undefined : scoresWriter(scoresOut, scoresFormat);
      let nextId = 0;
      const decided = await decide((id, choice, text, utilities) => {
        for (; nextId < id; nextId++) chosen += '\n';
        chosen += `${text}\n`;
        nextId = id + 1;
        writeScores?.(id + 1, choice, utilities);
      });
      if (!decided) {
        for (const out of opened) out.abort();
        return false;
      }
      if (output === undefined) io.stdout.write(chosen);
      else {
        const out = openOutputFile(output);
        opened.push(out);
        out.write(chosen);
      }
      for (const out of opened) out.commit();
    } catch (err) {
      for (const out of opened) out.abort();
      throw err;
    }
    return true;
  };

  if (queue !== undefined) {
    // Imported here: BullMQ and its Redis client load only for a queue run.
    const { DEFAULT_NBEST_SHARD_BYTES, mbrNbestQueued } = await import('./queue.js');
    let cleanUp: (() => Promise<void>) | undefined;
    const queued = await run(async (emit) => {
      cleanUp = await mbrNbestQueued(
        {
          queue, shardBytes: shardBytes ?? DEFAULT_NBEST_SHARD_BYTES, file, utility: specs, settings, direction, includeSelf, aggregate,
          quiet: values.has('quiet'), io,
        },
        (g) => emit(g.id, g.choice, g.text, g.utilities),
      );
      return cleanUp !== undefined;
    });
    if (queued) {
      await cleanUp!();
      return EXIT_OK;
    }
    // A shard met bad input: the first of the list is the one the streaming reader meets first. Found by checking
    // each group, which costs a read of the list; if none is found, the list is decided here as without a queue.
    for await (const group of nbestGroups(readNbestBatches(file))) checkNbestGroup(group, file, includeSelf);
  }
  await run(async (emit) => {
    for await (const group of nbestGroups(readNbestBatches(file))) {
      const c = decideNbestGroup(utility, group, file, { direction, includeSelf, aggregate });
      emit(group.id, c.choice, group.hypotheses[c.choice], c.utilities);
    }
    return true;
  });
  return EXIT_OK;
}
