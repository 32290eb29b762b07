/**
 * The options that several commands share, each defined once here: one spelling, one value syntax, one meaning of
 * its default. A command composes the ones it has (with its own help section and wording) beside its own options
 * and the metrics' flag tables, and reads them with the readers below, so that `-i`, `-r`, `-m`, `--seed`, `-j`,
 * `--bootstrap`, `-f`, `-q` and `-w` mean the same in `score`, `correlate`, `orange`, `report` and `nbest`.
 *
 * Where sacreBLEU or ROUGE-1.5.5 has a spelling, it is the one kept: references are positional arguments in
 * `palette score` (and, beside `-r`, in every command that takes references), `-i` takes the systems, `-b` is
 * sacreBLEU's `--score-only` (so no command uses it for anything else), `-j` in `palette score` is sacreBLEU's
 * `--paired-jobs`, and the seed falls back to sacreBLEU's `SACREBLEU_SEED`.
 *
 * Spellings a command used to have and no longer documents are kept for a while as deprecated spellings: they still
 * work, and the command says once on standard error which spelling replaces them (not with `-q`).
 */
import { InputError, badOption } from '../errors.js';
import { DEFAULT_SEED } from '../meta/seed.js';
import type { OptionArity, OptionSpec, ParsedValue } from './args.js';
import { pyParseInt } from './py-format.js';

export { DEFAULT_SEED };

/** Resamples of a bootstrap confidence interval when the command line does not say (sacreBLEU's `--confidence-n`). */
export const DEFAULT_BOOTSTRAP = 1000;
/** Most bootstrap resamples a command accepts. */
export const MAX_BOOTSTRAP = 1_000_000;
/** Most worker threads a command accepts. */
export const MAX_WORKERS = 256;
/** Largest `--width` (a double has 17 significant digits). */
export const MAX_WIDTH = 16;

/** The options commands share. */
export type SharedOptionName =
  | 'help' | 'quiet' | 'input' | 'refs' | 'metrics' | 'seed' | 'workers' | 'bootstrap' | 'format' | 'width'
  | 'pairedBs' | 'pairedBsN' | 'pairedAr' | 'pairedArN';

/** Resamples of `--paired-bs` and trials of `--paired-ar` when not given (sacreBLEU's defaults). */
export const DEFAULT_PAIRED_BS_N = 1000;
export const DEFAULT_PAIRED_AR_N = 10000;

interface SharedShape {
  readonly key: string;
  readonly names: readonly string[];
  readonly arity: OptionArity;
  readonly metavar?: string;
  readonly help: string;
}

/** Each shared option's spelling, key and value shape, and the help line a command gets unless it words its own. */
export const SHARED_OPTIONS: { readonly [K in SharedOptionName]: SharedShape } = {
  help: { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help and exit' },
  quiet: { key: 'quiet', names: ['--quiet', '-q'], arity: 'flag', help: 'no progress line and no warnings on standard error' },
  input: {
    key: 'input',
    names: ['--input', '-i'],
    arity: 'any',
    metavar: 'HYP',
    help: 'system outputs, one file per system, one segment per line; a system is named by its file',
  },
  refs: {
    key: 'refs',
    names: ['--refs', '-r'],
    arity: 'some',
    metavar: 'REF',
    help: 'reference files, one segment per line (or as positional arguments)',
  },
  metrics: { key: 'metrics', names: ['--metrics', '-m'], arity: 'some', metavar: 'METRIC', help: 'metrics, as palette score -m names them' },
  seed: {
    key: 'seed',
    names: ['--seed'],
    arity: 'one',
    metavar: 'N',
    help: `seed of the resampling (default: $SACREBLEU_SEED, else ${DEFAULT_SEED})`,
  },
  workers: {
    key: 'workers',
    names: ['--workers', '-j'],
    arity: 'one',
    metavar: 'N',
    help: 'scoring threads: this one and N-1 pool workers (default: one per core; small inputs run in this thread)',
  },
  bootstrap: {
    key: 'bootstrap',
    names: ['--bootstrap'],
    arity: 'one',
    metavar: 'N',
    help: `bootstrap resamples of the 95% confidence intervals, 0 for none (default: ${DEFAULT_BOOTSTRAP})`,
  },
  format: { key: 'format', names: ['--format', '-f'], arity: 'one', metavar: 'FORMAT', help: 'output format' },
  width: { key: 'width', names: ['--width', '-w'], arity: 'one', metavar: 'N', help: `decimals of the printed scores, 0..${MAX_WIDTH}` },
  pairedBs: {
    key: 'pairedBs',
    names: ['--paired-bs', '-pbs'],
    arity: 'flag',
    help: 'several systems: paired bootstrap resampling test against the first (the baseline)',
  },
  pairedBsN: {
    key: 'pairedBsN',
    names: ['--paired-bs-n', '-pbsn'],
    arity: 'one',
    metavar: 'N',
    help: `resamples of --paired-bs (default: ${DEFAULT_PAIRED_BS_N})`,
  },
  pairedAr: {
    key: 'pairedAr',
    names: ['--paired-ar', '-par'],
    arity: 'flag',
    help: 'several systems: paired approximate randomization test against the first (the baseline)',
  },
  pairedArN: {
    key: 'pairedArN',
    names: ['--paired-ar-n', '-parn'],
    arity: 'one',
    metavar: 'N',
    help: `trials of --paired-ar (default: ${DEFAULT_PAIRED_AR_N})`,
  },
};

/** The spec of shared option `name` in help section `group`, with `help` instead of the shared wording if given. */
export function sharedOption(name: SharedOptionName, group: string, help?: string): OptionSpec {
  const shape = SHARED_OPTIONS[name];
  return { ...shape, help: help ?? shape.help, group };
}

/** A spelling a command no longer documents but still accepts, with the spelling that replaces it. */
export interface DeprecatedSpelling {
  /** The old spellings (one option). */
  readonly names: readonly string[];
  readonly arity: OptionArity;
  /** Key of the option that replaces it. */
  readonly key: string;
  /** How the message names the replacement, e.g. `--bootstrap N`. */
  readonly use: string;
}

const DEPRECATED_GROUP = 'Deprecated spellings (still accepted, with a warning)';

/** Specs that let the parser accept `deprecated`'s spellings (each under its own key, so that its use is seen). */
export function deprecatedSpecs(deprecated: readonly DeprecatedSpelling[]): OptionSpec[] {
  return deprecated.map((d) => ({
    key: `deprecated:${d.names[0]}`,
    names: d.names,
    arity: d.arity,
    metavar: d.use.split(' ')[1],
    help: `use ${d.use}`,
    group: DEPRECATED_GROUP,
  }));
}

/**
 * The parsed values with every deprecated spelling moved to the key of its replacement, and one warning per
 * deprecated spelling used (for the command to print unless `-q`).
 * @throws InputError `E_BAD_OPTION` when an old and a new spelling of one option are both given.
 */
export function resolveDeprecated(
  values: ReadonlyMap<string, ParsedValue>,
  deprecated: readonly DeprecatedSpelling[],
): { values: Map<string, ParsedValue>; warnings: string[] } {
  const out = new Map(values);
  const warnings: string[] = [];
  for (const d of deprecated) {
    const key = `deprecated:${d.names[0]}`;
    const value = out.get(key);
    if (value === undefined) continue;
    out.delete(key);
    if (out.has(d.key)) throw new InputError('E_BAD_OPTION', `${d.names.join('/')} and ${d.use.split(' ')[0]} are one option: give it once`);
    out.set(d.key, value);
    warnings.push(`${d.names.join('/')} is deprecated and will be removed: use ${d.use}`);
  }
  return { values: out, warnings };
}

/** Typed access to the values of one parsed command line. */
export interface OptionValues {
  readonly values: ReadonlyMap<string, ParsedValue>;
  /** A one-value option's text. */
  str(key: string): string | undefined;
  /** Whether a flag is given. */
  flag(key: string): boolean;
  /** A list option's values. */
  list(key: string): string[] | undefined;
}

/** Wraps parsed values for the readers below. */
export function optionValues(values: ReadonlyMap<string, ParsedValue>): OptionValues {
  return {
    values,
    str: (key) => {
      const v = values.get(key);
      return typeof v === 'string' ? v : undefined;
    },
    flag: (key) => values.get(key) === true,
    list: (key) => {
      const v = values.get(key);
      return Array.isArray(v) ? v : undefined;
    },
  };
}

/** An integer (Python `int()` syntax, as sacreBLEU reads its numbers) in `min..max`. */
export function integerValue(flag: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = pyParseInt(raw);
  if (value === undefined || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer in ${min}..${max}`;
    throw badOption(flag, range, raw);
  }
  return value;
}

/** `-i`: the system files, or undefined when the option is absent. @throws InputError for `-i` with no file. */
export function readInputs(v: OptionValues): string[] | undefined {
  const inputs = v.list('input');
  if (inputs !== undefined && inputs.length === 0) throw new InputError('E_BAD_OPTION', 'option -i/--input needs at least one file');
  return inputs;
}

/**
 * The reference files: positional arguments (sacreBLEU's spelling) or `-r/--refs`, not both; undefined when neither
 * is given.
 */
export function readRefs(v: OptionValues, positionals: readonly string[]): string[] | undefined {
  const listed = v.list('refs');
  if (listed !== undefined && positionals.length > 0) {
    throw new InputError('E_BAD_OPTION', `give the references either as arguments or with -r/--refs, not both (got ${positionals.join(' ')})`);
  }
  return listed ?? (positionals.length > 0 ? [...positionals] : undefined);
}

/** The raw seed: `--seed`, else `SACREBLEU_SEED`, else undefined (the default), with the name to blame. */
function seedSource(v: OptionValues, env: Readonly<Record<string, string | undefined>>): { raw: string; name: string } | undefined {
  const given = v.str('seed');
  if (given !== undefined) return { raw: given, name: '--seed' };
  const fromEnv = env.SACREBLEU_SEED;
  return fromEnv === undefined ? undefined : { raw: fromEnv, name: 'SACREBLEU_SEED' };
}

/**
 * The seed of a command that resamples: `--seed N`, else `$SACREBLEU_SEED` (as `palette score` reads it), else
 * {@link DEFAULT_SEED}; a non-negative integer in Python `int()` syntax, at least `min`.
 * @throws InputError `E_BAD_OPTION` naming `--seed` or `SACREBLEU_SEED` for anything else.
 */
export function readSeed(v: OptionValues, env: Readonly<Record<string, string | undefined>>, min = 0): number {
  const source = seedSource(v, env);
  if (source === undefined) return DEFAULT_SEED;
  if (source.raw.trim().toLowerCase() === 'none') {
    throw badOption(source.name, `an integer >= ${min} here ("none", fresh entropy, is for palette score's tests only)`, source.raw);
  }
  return integerValue(source.name, source.raw, min);
}

/**
 * `palette score`'s `--seed`: the text sacreBLEU would read from `SACREBLEU_SEED` (an integer >= 0, or `none` for
 * fresh entropy), checked here; undefined when not given (the environment's, or the default, applies).
 * @throws InputError `E_BAD_OPTION` for anything else.
 */
export function readScoreSeed(v: OptionValues): string | undefined {
  const raw = v.str('seed');
  if (raw === undefined || raw.trim().toLowerCase() === 'none') return raw;
  integerValue('--seed', raw, 0);
  return raw;
}

/** `-j/--workers N` (1..{@link MAX_WORKERS}); undefined when not given (one per core). */
export function readWorkers(v: OptionValues): number | undefined {
  const raw = v.str('workers');
  return raw === undefined ? undefined : integerValue('--workers', raw, 1, MAX_WORKERS);
}

/** `--bootstrap N` (0..{@link MAX_BOOTSTRAP}, 0 = no intervals); {@link DEFAULT_BOOTSTRAP} when not given. */
export function readBootstrap(v: OptionValues): number {
  const raw = v.str('bootstrap');
  return raw === undefined ? DEFAULT_BOOTSTRAP : integerValue('--bootstrap', raw, 0, MAX_BOOTSTRAP);
}

/** `-w/--width N` (0..{@link MAX_WIDTH}); `fallback` when not given. */
export function readWidth(v: OptionValues, fallback: number): number {
  const raw = v.str('width');
  return raw === undefined ? fallback : integerValue('--width', raw, 0, MAX_WIDTH);
}

/** `-f/--format`: one of `choices`; `fallback` when not given. */
export function readFormat<T extends string>(v: OptionValues, choices: readonly T[], fallback: T): T {
  const raw = v.str('format') ?? fallback;
  if (!(choices as readonly string[]).includes(raw)) {
    const expected = choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`;
    throw badOption('--format', expected, raw);
  }
  return raw as T;
}

/** The paired test `--paired-bs`/`--paired-ar` asks for, and its resamples or trials. */
export interface PairedTestChoice {
  readonly paired: 'bs' | 'ar' | null;
  readonly pairedBsN: number;
  readonly pairedArN: number;
}

/**
 * `--paired-bs [--paired-bs-n N]` or `--paired-ar [--paired-ar-n N]` (sacreBLEU's spellings and defaults; as
 * sacreBLEU reads them, a count of 0 means the default).
 * @throws InputError `E_BAD_OPTION` when both tests are asked for, or for a count that is not an integer >= 0.
 */
export function readPairedTest(v: OptionValues): PairedTestChoice {
  if (v.flag('pairedBs') && v.flag('pairedAr')) {
    throw new InputError('E_BAD_OPTION', 'options --paired-bs and --paired-ar are mutually exclusive');
  }
  const count = (key: string, flagName: string, fallback: number): number => {
    const raw = v.str(key);
    if (raw === undefined) return fallback;
    const n = integerValue(flagName, raw, 0);
    return n === 0 ? fallback : n;
  };
  return {
    paired: v.flag('pairedBs') ? 'bs' : v.flag('pairedAr') ? 'ar' : null,
    pairedBsN: count('pairedBsN', '--paired-bs-n', DEFAULT_PAIRED_BS_N),
    pairedArN: count('pairedArN', '--paired-ar-n', DEFAULT_PAIRED_AR_N),
  };
}

/** `-m/--metrics`: the names given, each once, in order; `fallback` when not given. */
export function readMetrics(v: OptionValues, fallback?: readonly string[]): string[] | undefined {
  const list = v.list('metrics') ?? fallback;
  return list === undefined ? undefined : [...new Set(list)];
}
