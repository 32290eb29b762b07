/**
 * Options of `palette mert`: Moses `mert`'s flags and defaults (mert/mert.cpp), parsed with ../args.ts, checked
 * here so that every usage problem is an `InputError` (exit status 2) before any file is read.
 */
import { InputError, badOption } from '../../errors.js';
import { MERT_OPTIMIZERS, type MertOptimizerType } from '../../tuning/mert/optimizer.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';

/** What `palette mert` was asked to do. */
export interface MertCommandOptions {
  /** Features per candidate (`-d`). */
  readonly dimensions: number;
  /** SCORES_TXT files (`--scfile`, comma-separated). */
  readonly scoreFiles: readonly string[];
  /** FEATURES_TXT files (`--ffile`), paired with {@link scoreFiles}. */
  readonly featureFiles: readonly string[];
  /** INIT files (`--ifile`, comma-separated): the first gives ranges too. */
  readonly initFiles: readonly string[];
  readonly restarts: number;
  readonly randomDirections: number;
  /** Seed (`-r`); undefined = the clock, as Moses. */
  readonly seed: number | undefined;
  /** Feature names to optimise (`-o`); undefined = all. */
  readonly optimize: readonly string[] | undefined;
  /** Feature names whose weight must stay positive (`-P`). */
  readonly positive: readonly string[];
  readonly optimizer: MertOptimizerType;
  /** Objective (`--sctype`). */
  readonly scorer: string;
  /** Scorer configuration pairs (`--scconfig key:value,…`). */
  readonly scorerConfig: ReadonlyMap<string, string>;
  readonly threads: number;
  /** Where the weights go (Moses: weights.txt in the working directory). */
  readonly weightsFile: string;
}

/** A parsed command line: a run, or a request for help. */
export type MertCommand = { readonly kind: 'run'; readonly options: MertCommandOptions } | { readonly kind: 'help' };

const GROUP = 'palette mert options (Moses mert)';
const SPECS: readonly OptionSpec[] = [
  { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help message and exit', group: GROUP },
  { key: 'pdim', names: ['--pdim', '-d'], arity: 'one', metavar: 'N', help: 'number of features (required)', group: GROUP },
  { key: 'scfile', names: ['--scfile', '-S'], arity: 'one', metavar: 'FILES', help: 'SCORES_TXT files, comma-separated (default statscore.data)', group: GROUP },
  { key: 'ffile', names: ['--ffile', '-F'], arity: 'one', metavar: 'FILES', help: 'FEATURES_TXT files, comma-separated, one per --scfile (default features.data)', group: GROUP },
  { key: 'ifile', names: ['--ifile', '-i'], arity: 'one', metavar: 'FILES', help: 'INIT files: start weights, minima, maxima, one line each (default init.opt)', group: GROUP },
  { key: 'ntry', names: ['--ntry', '-n'], arity: 'one', metavar: 'N', help: 'random restarts (default 1)', group: GROUP },
  { key: 'nrandom', names: ['--nrandom', '-m'], arity: 'one', metavar: 'N', help: 'random directions per Powell sweep (default 0)', group: GROUP },
  { key: 'rseed', names: ['--rseed', '-r'], arity: 'one', metavar: 'SEED', help: "seed of glibc's rand (default: the clock)", group: GROUP },
  { key: 'optimize', names: ['--optimize', '-o'], arity: 'one', metavar: 'NAMES', help: 'features to optimise, comma-separated (default all; others keep their INIT weight)', group: GROUP },
  { key: 'positive', names: ['--positive', '-P'], arity: 'one', metavar: 'NAMES', help: 'features whose weight must stay positive, comma-separated', group: GROUP },
  { key: 'type', names: ['--type', '-t'], arity: 'one', metavar: 'TYPE', help: 'optimiser: powell (default), random-direction, random', group: GROUP },
  { key: 'sctype', names: ['--sctype', '-s'], arity: 'one', metavar: 'TYPE', help: "objective: BLEU (default, Moses' BleuScorer) or a metric with palette nbest rows", group: GROUP },
  { key: 'scconfig', names: ['--scconfig', '-c'], arity: 'one', metavar: 'CONFIG', help: 'scorer configuration key:value,… (case, reflen: accepted, no effect on scores)', group: GROUP },
  { key: 'threads', names: ['--threads', '-T'], arity: 'one', metavar: 'N', help: 'threads running start points (default 1)', group: GROUP },
  { key: 'weights', names: ['--weights-file'], arity: 'one', metavar: 'FILE', help: 'where the best point is written (default weights.txt, as Moses)', group: GROUP },
];

/** The help text of `palette mert`. */
export function mertHelp(): string {
  return (
    'usage: palette mert -d N [--scfile FILES] [--ffile FILES] [--ifile FILES] [-n N] [-m N] [-r SEED] [-o NAMES]\n' +
    '                    [-P NAMES] [-t TYPE] [--sctype TYPE] [--threads N] [--weights-file FILE]\n\n' +
    "Och's minimum error rate training as Moses `mert` runs it: exact line searches (upper envelopes of the\n" +
    'candidates\' model scores) along every feature and random directions, from the INIT point and -n random restarts\n' +
    "drawn with glibc's rand as Moses draws them. Prints \"Best point: W1 … WN  => SCORE\" on standard error and writes\n" +
    'the weights to weights.txt, as Moses does. With --threads N > 1 the start points run on N worker threads and each\n' +
    'run draws its random directions (-m) from a stream of its own, so the result is the same for every N > 1 (Moses\'\n' +
    'threads share one stream: its results with -m depend on their scheduling); one thread is Moses without threads.\n' +
    formatOptionHelp(SPECS) +
    '\n\n'
  );
}

function single(values: ReadonlyMap<string, unknown>, key: string): string | undefined {
  const v = values.get(key);
  return typeof v === 'string' ? v : undefined;
}

function integer(values: ReadonlyMap<string, unknown>, key: string, flag: string, fallback: number, min: number): number {
  const text = single(values, key);
  if (text === undefined) return fallback;
  const n = /^[+-]?\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!(Number.isSafeInteger(n) && n >= min)) throw badOption(flag, `an integer >= ${min}`, text);
  return n;
}

function list(text: string): string[] {
  return text.split(',').filter((s) => s.length > 0);
}

/** Scorer configuration keys that do not change a score computed from statistics. */
const NEUTRAL_CONFIG = new Set(['case', 'reflen']);

/**
 * Parses the arguments after `mert`.
 * @throws InputError `E_BAD_OPTION` for a missing or malformed option.
 */
export function parseMertArgs(argv: readonly string[]): MertCommand {
  const { values, positionals } = parseArgs(argv, SPECS);
  if (values.has('help')) return { kind: 'help' };
  if (positionals.length > 0) throw new InputError('E_BAD_OPTION', `unrecognized arguments: ${positionals.join(' ')}`);
  if (!values.has('pdim')) throw new InputError('E_BAD_OPTION', 'the number of features is required (-d N)');
  const dimensions = integer(values, 'pdim', '-d', 0, 1);
  const scoreFiles = list(single(values, 'scfile') ?? 'statscore.data');
  const featureFiles = list(single(values, 'ffile') ?? 'features.data');
  if (scoreFiles.length !== featureFiles.length) {
    throw new InputError('E_BAD_OPTION', `--scfile names ${scoreFiles.length} file(s) and --ffile ${featureFiles.length}: give them in pairs`);
  }
  if (scoreFiles.length === 0) throw new InputError('E_BAD_OPTION', '--scfile and --ffile name no file');
  const initFiles = list(single(values, 'ifile') ?? 'init.opt');
  if (initFiles.length === 0) throw new InputError('E_BAD_OPTION', '--ifile names no file');
  const seedText = single(values, 'rseed');
  let seed: number | undefined;
  if (seedText !== undefined) {
    // Moses: strtol, then srand's unsigned int.
    if (!/^[+-]?\d+$/.test(seedText.trim())) throw badOption('-r', 'an integer', seedText);
    seed = Number(seedText);
  }
  const optimizer = (single(values, 'type') ?? 'powell') as MertOptimizerType;
  if (!MERT_OPTIMIZERS.includes(optimizer)) throw badOption('-t', MERT_OPTIMIZERS.join(', '), optimizer);
  const scorerConfig = new Map<string, string>();
  for (const pair of list(single(values, 'scconfig') ?? '')) {
    const colon = pair.indexOf(':');
    if (colon <= 0) throw badOption('--scconfig', 'key:value pairs separated by commas', pair);
    const key = pair.slice(0, colon);
    if (!NEUTRAL_CONFIG.has(key)) {
      throw new InputError('E_BAD_OPTION', `--scconfig ${key}: not supported by palette mert (case and reflen are accepted; they do not change scores from statistics)`);
    }
    scorerConfig.set(key, pair.slice(colon + 1));
  }
  const optimizeText = single(values, 'optimize');
  return {
    kind: 'run',
    options: {
      dimensions,
      scoreFiles,
      featureFiles,
      initFiles,
      restarts: integer(values, 'ntry', '-n', 1, 0),
      randomDirections: integer(values, 'nrandom', '-m', 0, 0),
      seed,
      optimize: optimizeText === undefined ? undefined : list(optimizeText),
      positive: list(single(values, 'positive') ?? ''),
      optimizer,
      scorer: single(values, 'sctype') ?? 'BLEU',
      scorerConfig,
      threads: integer(values, 'threads', '--threads', 1, 1),
      weightsFile: single(values, 'weights') ?? 'weights.txt',
    },
  };
}
