/**
 * Options of `palette pro`: Moses `pro`'s flags (mert/pro.cpp), parsed with ../args.ts and checked here, so that
 * every usage problem is an `InputError` (exit status 2) before any file is read. As in Moses, `--scfile` and
 * `--ffile` are given once per file (one pair per tuning iteration), not as comma-separated lists.
 */
import { InputError, badOption } from '../../errors.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';

/** What `palette pro` was asked to do. */
export interface ProCommandOptions {
  /** SCORES_TXT files, in `--scfile` order. */
  readonly scoreFiles: readonly string[];
  /** FEATURES_TXT files, in `--ffile` order, paired with {@link scoreFiles}. */
  readonly featureFiles: readonly string[];
  /** Seed of glibc's `srand` (`-r`); undefined = the clock, as Moses. */
  readonly seed: number | undefined;
  /** Where the pairs go (`-o`); undefined = standard output. */
  readonly outputFile: string | undefined;
  /** `--smooth-brevity-penalty`. */
  readonly smoothBrevityPenalty: boolean;
}

/** A parsed command line: a run, or a request for help. */
export type ProCommand = { readonly kind: 'run'; readonly options: ProCommandOptions } | { readonly kind: 'help' };

const GROUP = 'palette pro options (Moses pro)';
const SPECS: readonly OptionSpec[] = [
  { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help message and exit', group: GROUP },
  { key: 'scfile', names: ['--scfile', '-S'], arity: 'append', metavar: 'FILE', help: 'a SCORES_TXT file (BLEU statistics); repeat for each run', group: GROUP },
  { key: 'ffile', names: ['--ffile', '-F'], arity: 'append', metavar: 'FILE', help: 'a FEATURES_TXT file, one per --scfile, in the same order', group: GROUP },
  { key: 'seed', names: ['--random-seed', '-r'], arity: 'one', metavar: 'SEED', help: "seed of glibc's rand (default: the clock)", group: GROUP },
  { key: 'output', names: ['--output-file', '-o'], arity: 'one', metavar: 'FILE', help: 'where the pairs are written (default: standard output)', group: GROUP },
  { key: 'smoothBP', names: ['--smooth-brevity-penalty', '-b'], arity: 'flag', help: 'smooth the brevity penalty of sentence BLEU too (Nakov et al. 2012)', group: GROUP },
];

/** The help text of `palette pro`. */
export function proHelp(): string {
  return (
    'usage: palette pro --scfile FILE --ffile FILE [--scfile FILE --ffile FILE …] [-r SEED] [-o FILE] [-b]\n\n' +
    "Pairwise ranking optimisation's sampler (Hopkins & May 2011) as Moses `pro` runs it: for each sentence, 5000\n" +
    "pairs of candidates drawn with glibc's rand, those whose sentence BLEU+1 differ by at least 0.05, the 50 with\n" +
    'the largest differences, written as MegaM training lines ("1 F3 0.25 …" for better − worse, "0 …" for the\n' +
    'reverse), byte-identical to Moses for the same seed. Train a classifier on them (Moses: megam) for the weights.\n' +
    formatOptionHelp(SPECS) +
    '\n\n'
  );
}

/** An option's values in order (none when not given). */
export function appended(values: ReadonlyMap<string, unknown>, key: string): string[] {
  const v = values.get(key);
  return Array.isArray(v) ? v.map(String) : [];
}

/** A C `int` seed as Moses' `-r` reads it. */
export function parseSeed(flag: string, text: string): number {
  const n = /^[+-]?\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!(Number.isSafeInteger(n) && n >= -(2 ** 31) && n < 2 ** 31)) throw badOption(flag, 'an integer (a C int)', text);
  return n;
}

/**
 * Parses the arguments after `pro`.
 * @throws InputError `E_BAD_OPTION` for a missing or malformed option.
 */
export function parseProArgs(argv: readonly string[]): ProCommand {
  const { values, positionals } = parseArgs(argv, SPECS);
  if (values.has('help')) return { kind: 'help' };
  if (positionals.length > 0) throw new InputError('E_BAD_OPTION', `unrecognized arguments: ${positionals.join(' ')}`);
  const scoreFiles = appended(values, 'scfile');
  const featureFiles = appended(values, 'ffile');
  // Moses prints "No data to process" and exits 0; a run that reads nothing is a usage error here.
  if (scoreFiles.length === 0 || featureFiles.length === 0) throw new InputError('E_BAD_OPTION', 'no data to process: give --scfile FILE and --ffile FILE');
  if (scoreFiles.length !== featureFiles.length) {
    throw new InputError('E_BAD_OPTION', `number of feature files (${featureFiles.length}) does not match number of score files (${scoreFiles.length})`);
  }
  const seedText = values.get('seed');
  const output = values.get('output');
  return {
    kind: 'run',
    options: {
      scoreFiles,
      featureFiles,
      seed: typeof seedText === 'string' ? parseSeed('-r', seedText) : undefined,
      outputFile: typeof output === 'string' ? output : undefined,
      smoothBrevityPenalty: values.has('smoothBP'),
    },
  };
}
