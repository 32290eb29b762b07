/**
 * Options of `palette extractor`: Moses MERT `extractor`'s flags and defaults (mert/extractor.cpp), parsed with the
 * argparse-compatible parser of ../args.ts (so `--nbest=FILE`, `-nFILE` and unique prefixes work as with getopt),
 * checked here so that every usage problem is an `InputError` (exit status 2) before any file is opened.
 *
 * Moses' short letters are kept as its getopt string has them: `-R` is `--prev-scfile` and `-E` `--prev-ffile`.
 * File lists (`--reference`, `--prev-scfile`, `--prev-ffile`) are one argument with commas, empty pieces dropped.
 */
import { InputError, badOption } from '../../errors.js';
import { DEFAULT_TASK_SIZE } from '../../engine/nbest/run.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { optionValues, readWorkers, sharedOption } from '../shared-options.js';
import { extractorScorer, type ExtractorScorer } from './scorers.js';

/** Moses' default output files. */
export const DEFAULT_SCFILE = 'statscore.data';
export const DEFAULT_FFILE = 'features.data';

/** What `palette extractor` was asked to do. */
export interface ExtractorOptions {
  readonly nbest: string;
  readonly references: readonly string[];
  readonly scorer: ExtractorScorer;
  /** `--sctype` as given (the scorer names of the SCORES_TXT header). */
  readonly sctype: string;
  readonly scfile: string;
  readonly ffile: string;
  /** Previous statistics and features files, pairwise (`--prev-scfile`, `--prev-ffile`). */
  readonly prevScores: readonly string[];
  readonly prevFeatures: readonly string[];
  readonly allowDuplicates: boolean;
  /** Scoring threads; undefined = one per core, in-thread for small lists. */
  readonly workers: number | undefined;
  /** Bytes of the n-best list per task. */
  readonly taskSize: number;
  readonly quiet: boolean;
}

/** A parsed command line: a run, or a request for help. */
export type ExtractorCommand = { readonly kind: 'run'; readonly options: ExtractorOptions } | { readonly kind: 'help' };

const GROUP = 'palette extractor options (Moses extractor)';
const PALETTE_GROUP = 'Palette additions';
const SPECS: readonly OptionSpec[] = [
  sharedOption('help', GROUP),
  { key: 'sctype', names: ['--sctype', '-s'], arity: 'one', metavar: 'TYPE', group: GROUP, help: 'scorer type: BLEU (default), PER, WER; several joined by commas are interpolated (BLEU,PER)' },
  { key: 'scconfig', names: ['--scconfig', '-c'], arity: 'one', metavar: 'CONFIG', group: GROUP, help: 'scorer configuration NAME:VALUE,… (case:false, reflen:closest|shortest|average, weights:W1+W2)' },
  { key: 'reference', names: ['--reference', '-r'], arity: 'one', metavar: 'FILES', group: GROUP, help: 'reference files, comma-separated (required)' },
  { key: 'nbest', names: ['--nbest', '-n'], arity: 'one', metavar: 'FILE', group: GROUP, help: 'the Moses n-best list (required)' },
  { key: 'scfile', names: ['--scfile', '-S'], arity: 'one', metavar: 'FILE', group: GROUP, help: `statistics output, SCORES_TXT (default ${DEFAULT_SCFILE})` },
  { key: 'ffile', names: ['--ffile', '-F'], arity: 'one', metavar: 'FILE', group: GROUP, help: `features output, FEATURES_TXT (default ${DEFAULT_FFILE})` },
  { key: 'prevScfile', names: ['--prev-scfile', '-R'], arity: 'one', metavar: 'FILES', group: GROUP, help: 'previous statistics files to merge, comma-separated' },
  { key: 'prevFfile', names: ['--prev-ffile', '-E'], arity: 'one', metavar: 'FILES', group: GROUP, help: 'their features files, comma-separated, one per statistics file' },
  { key: 'dups', names: ['--allow-duplicates', '-d'], arity: 'flag', group: GROUP, help: 'keep candidates equal in features and statistics' },
  { key: 'binary', names: ['--binary', '-b'], arity: 'flag', group: GROUP, help: 'binary output (not supported: an error)' },
  { key: 'factors', names: ['--factors', '-f'], arity: 'one', metavar: 'LIST', group: GROUP, help: 'factors passed to the scorer (not supported: an error)' },
  { key: 'filter', names: ['--filter', '-l'], arity: 'one', metavar: 'COMMAND', group: GROUP, help: 'filter command preprocessing the sentences (not supported: an error)' },
  { key: 'verbose', names: ['--verbose', '-v'], arity: 'one', metavar: 'LEVEL', group: GROUP, help: 'verbosity (accepted, ignored)' },
  sharedOption('workers', PALETTE_GROUP, 'scoring threads: this one and N-1 pool workers (default: one per core; small lists run in-thread)'),
  { key: 'taskSize', names: ['--task-size'], arity: 'one', metavar: 'BYTES', group: PALETTE_GROUP, help: `bytes of the n-best list per task (default ${DEFAULT_TASK_SIZE})` },
  sharedOption('quiet', PALETTE_GROUP, 'no progress line on a terminal'),
];

/** The help text of `palette extractor`. */
export function extractorHelp(): string {
  return (
    'usage: palette extractor --nbest FILE --reference REF[,REF…] [--scfile FILE] [--ffile FILE] [--sctype TYPE]\n' +
    '                         [--scconfig CONFIG] [--prev-scfile FILES --prev-ffile FILES] [--allow-duplicates]\n' +
    '                         [--workers N] [--task-size BYTES] [-q]\n\n' +
    "A drop-in for Moses MERT's extractor: per-candidate statistics (SCORES_TXT) and features (FEATURES_TXT) of an\n" +
    "n-best list, byte-identical to Moses', merged with the previous iterations' files when given. Moses' flags and\n" +
    'defaults; the statistics come from the engine of "palette nbest" (worker pool, same bytes for any -j).\n' +
    formatOptionHelp(SPECS) +
    '\n\nScorer types: BLEU, PER (one reference), WER, and interpolated ones of them (BLEU,PER). Other Moses types\n' +
    '(TER, CDER, CHRF, …) are refused by name.\n\n'
  );
}

/** A comma-separated file list (Moses' Tokenize: empty pieces dropped). */
function fileList(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').filter((f) => f !== '');
}

function notSupported(flag: string, why: string): InputError {
  return new InputError('E_BAD_OPTION', `${flag} is not supported: ${why}`);
}

/**
 * Parses the arguments after `extractor`.
 * @throws InputError `E_BAD_OPTION` for a missing or bad option, an unsupported Moses option or scorer type.
 */
export function parseExtractorArgs(argv: readonly string[]): ExtractorCommand {
  const { values, positionals } = parseArgs(argv, SPECS);
  if (values.has('help')) return { kind: 'help' };
  const v = optionValues(values);
  if (positionals.length > 0) throw new InputError('E_BAD_OPTION', `unrecognized arguments: ${positionals.join(' ')}`);
  if (v.flag('binary')) throw notSupported('--binary', 'Palette writes the text formats (SCORES_TXT, FEATURES_TXT), which mert reads as well');
  if (v.str('factors') !== undefined) throw notSupported('--factors', 'give the n-best list and references with the factor to score');
  if (v.str('filter') !== undefined) throw notSupported('--filter', 'preprocess the n-best list and references before');
  const sctype = v.str('sctype') ?? 'BLEU';
  const scorer = extractorScorer(sctype, v.str('scconfig') ?? '');
  const nbestFiles = fileList(v.str('nbest'));
  if (nbestFiles.length === 0) throw new InputError('E_BAD_OPTION', 'the n-best list is required (--nbest FILE)');
  if (nbestFiles.length > 1) {
    throw notSupported('--nbest with several files', 'concatenate the lists (each grouped by sentence) or merge them as previous runs');
  }
  const references = fileList(v.str('reference'));
  if (references.length === 0) {
    throw new InputError('E_BAD_OPTION', 'reference file is not specified; you can not score the nbest (--reference FILE[,FILE…])');
  }
  if (scorer.ids.includes('per-moses') && references.length !== 1) {
    throw new InputError('E_BAD_OPTION', `--sctype PER only supports a single reference (got ${references.length}), as Moses' PerScorer`);
  }
  const scfile = v.str('scfile') ?? DEFAULT_SCFILE;
  const ffile = v.str('ffile') ?? DEFAULT_FFILE;
  if (scfile === '') throw new InputError('E_BAD_OPTION', 'output score statistics file is not specified (--scfile is empty)');
  if (ffile === '') throw new InputError('E_BAD_OPTION', 'output feature file is not specified (--ffile is empty)');
  const prevScores = fileList(v.str('prevScfile'));
  const prevFeatures = fileList(v.str('prevFfile'));
  if (prevScores.length !== prevFeatures.length) {
    throw new InputError(
      'E_BAD_OPTION',
      `there is a different number of previous score and feature files (--prev-scfile: ${prevScores.length}, --prev-ffile: ${prevFeatures.length})`,
    );
  }
  const taskSizeText = v.str('taskSize');
  const taskSize = taskSizeText === undefined ? DEFAULT_TASK_SIZE : Number(taskSizeText);
  if (!(Number.isInteger(taskSize) && taskSize >= 1 && taskSize <= 1 << 30)) {
    throw badOption('--task-size', 'a number of bytes from 1 to 2^30', taskSizeText);
  }
  return {
    kind: 'run',
    options: {
      nbest: nbestFiles[0],
      references,
      scorer,
      sctype,
      scfile,
      ffile,
      prevScores,
      prevFeatures,
      allowDuplicates: v.flag('dups'),
      workers: readWorkers(v),
      taskSize,
      quiet: v.flag('quiet'),
    },
  };
}
