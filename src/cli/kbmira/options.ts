/**
 * Options of `palette kbmira`: Moses `kbmira`'s flags and defaults (mert/kbmira.cpp), parsed with ../args.ts and
 * checked here, so that every usage problem is an `InputError` (exit status 2) before any file is read. As in Moses,
 * `--scfile` and `--ffile` are given once per file. What Palette does not do is refused by name: hypergraph MIRA
 * (`--type hypergraph`, `--hgdir`, `--reference`, `--hg-prune`), sparse features (`--sparse-init`), and objectives
 * other than BLEU.
 */
import { InputError, badOption } from '../../errors.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { appended, parseSeed } from '../pro/options.js';

/** What `palette kbmira` was asked to do. */
export interface KbmiraCommandOptions {
  readonly scoreFiles: readonly string[];
  readonly featureFiles: readonly string[];
  /** `--dense-init`; undefined = zero weights. */
  readonly denseInit: string | undefined;
  /** Seed of glibc's `srand` (`-r`); undefined = the clock, as Moses. */
  readonly seed: number | undefined;
  /** `-o`; undefined = standard output. */
  readonly outputFile: string | undefined;
  readonly c: number;
  readonly decay: number;
  readonly iterations: number;
  readonly noShuffle: boolean;
  /** `--streaming`: Moses reads the files at every pass and does not shuffle; the same updates as `--no-shuffle`. */
  readonly streaming: boolean;
  readonly streamingOut: boolean;
  readonly modelBackground: boolean;
  readonly safeHope: boolean;
  readonly verbose: boolean;
}

/** A parsed command line: a run, or a request for help. */
export type KbmiraCommand = { readonly kind: 'run'; readonly options: KbmiraCommandOptions } | { readonly kind: 'help' };

const GROUP = 'palette kbmira options (Moses kbmira)';
const SPECS: readonly OptionSpec[] = [
  { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help message and exit', group: GROUP },
  { key: 'type', names: ['--type', '-t'], arity: 'one', metavar: 'TYPE', help: 'nbest (the default; hypergraph MIRA is not supported)', group: GROUP },
  { key: 'sctype', names: ['--sctype'], arity: 'one', metavar: 'TYPE', help: 'the scorer type: BLEU (the default and the only one)', group: GROUP },
  { key: 'scconfig', names: ['--scconfig', '-c'], arity: 'one', metavar: 'CONFIG', help: 'scorer configuration key:value,… (case, reflen: accepted, no effect on scores from statistics)', group: GROUP },
  { key: 'scfile', names: ['--scfile', '-S'], arity: 'append', metavar: 'FILE', help: 'a SCORES_TXT file (BLEU statistics); repeat for each run', group: GROUP },
  { key: 'ffile', names: ['--ffile', '-F'], arity: 'append', metavar: 'FILE', help: 'a FEATURES_TXT file, one per --scfile, in the same order', group: GROUP },
  { key: 'hgdir', names: ['--hgdir', '-H'], arity: 'one', metavar: 'DIR', help: 'hypergraph MIRA: not supported', group: GROUP },
  { key: 'reference', names: ['--reference', '-R'], arity: 'append', metavar: 'FILE', help: 'hypergraph MIRA: not supported', group: GROUP },
  { key: 'seed', names: ['--random-seed', '-r'], arity: 'one', metavar: 'SEED', help: "seed of glibc's rand, which shuffles the sentences (default: the clock)", group: GROUP },
  { key: 'output', names: ['--output-file', '-o'], arity: 'one', metavar: 'FILE', help: 'where the weights go, "F0 w0" lines (default: standard output)', group: GROUP },
  { key: 'cparam', names: ['--cparam', '-C'], arity: 'one', metavar: 'C', help: 'MIRA C-parameter, lower for more regularization (default 0.01)', group: GROUP },
  { key: 'decay', names: ['--decay', '-D'], arity: 'one', metavar: 'D', help: 'BLEU background corpus decay rate (default 0.999)', group: GROUP },
  { key: 'iters', names: ['--iters', '-J'], arity: 'one', metavar: 'N', help: 'number of MIRA iterations to run (default 60)', group: GROUP },
  { key: 'denseInit', names: ['--dense-init', '-d'], arity: 'one', metavar: 'FILE', help: "start weights: 'name= value' lines, or Moses mert's init.opt (default: zeros)", group: GROUP },
  { key: 'sparseInit', names: ['--sparse-init', '-s'], arity: 'one', metavar: 'FILE', help: 'sparse feature weights: not supported (dense features only)', group: GROUP },
  { key: 'streaming', names: ['--streaming'], arity: 'flag', help: 'as Moses: read the files at every pass, implies --no-shuffle', group: GROUP },
  { key: 'streamingOut', names: ['--streaming-out'], arity: 'flag', help: 'write the weights to standard output after each sentence', group: GROUP },
  { key: 'noShuffle', names: ['--no-shuffle'], arity: 'flag', help: "don't shuffle the sentences before each pass", group: GROUP },
  { key: 'modelBg', names: ['--model-bg'], arity: 'flag', help: 'use the model-best candidate instead of the hope for the BLEU background', group: GROUP },
  { key: 'verbose', names: ['--verbose'], arity: 'flag', help: 'print every update', group: GROUP },
  { key: 'safeHope', names: ['--safe-hope'], arity: 'flag', help: "limit the model score's influence on hope selection", group: GROUP },
  { key: 'hgPrune', names: ['--hg-prune'], arity: 'one', metavar: 'N', help: 'hypergraph MIRA: not supported', group: GROUP },
];

/** The help text of `palette kbmira`. */
export function kbmiraHelp(): string {
  return (
    'usage: palette kbmira --scfile FILE --ffile FILE [--scfile FILE --ffile FILE …] [--dense-init FILE] [-r SEED]\n' +
    '                      [-o FILE] [-C C] [-D DECAY] [-J N] [--no-shuffle] [--model-bg] [--safe-hope] …\n\n' +
    "k-best batch MIRA (Cherry & Foster 2012) as Moses `kbmira` runs it: for each sentence, in an order shuffled with\n" +
    "glibc's rand, the hope (model + BLEU) and fear (model − BLEU) candidates under sentence BLEU against a decaying\n" +
    'background corpus, a passive-aggressive update capped by C, averaged weights; after each epoch the corpus BLEU of\n' +
    'the averaged weights, and the best epoch\'s weights written as "F0 w0" lines. Progress and "Best BLEU = …" go to\n' +
    'standard error, as Moses prints them.\n' +
    formatOptionHelp(SPECS) +
    '\n\n'
  );
}

function float(values: ReadonlyMap<string, unknown>, key: string, flag: string, fallback: number): number {
  const text = values.get(key);
  if (typeof text !== 'string') return fallback;
  const v = Math.fround(Number(text.trim()));
  if (text.trim() === '' || !Number.isFinite(v)) throw badOption(flag, 'a number', text);
  return v;
}

/** Scorer configuration keys that do not change BLEU computed from statistics. */
const NEUTRAL_CONFIG = new Set(['case', 'reflen']);

/**
 * Parses the arguments after `kbmira`.
 * @throws InputError `E_BAD_OPTION` for a missing, malformed or unsupported option.
 */
export function parseKbmiraArgs(argv: readonly string[]): KbmiraCommand {
  const { values, positionals } = parseArgs(argv, SPECS);
  if (values.has('help')) return { kind: 'help' };
  if (positionals.length > 0) throw new InputError('E_BAD_OPTION', `unrecognized arguments: ${positionals.join(' ')}`);
  const type = values.get('type');
  if (type !== undefined && type !== 'nbest') {
    throw new InputError('E_BAD_OPTION', `--type ${String(type)}: palette kbmira trains on n-best lists only (--type nbest)`);
  }
  for (const [key, flag] of [['hgdir', '--hgdir'], ['reference', '--reference'], ['hgPrune', '--hg-prune']] as const) {
    if (values.has(key)) throw new InputError('E_BAD_OPTION', `${flag}: hypergraph MIRA is not supported (palette kbmira trains on n-best lists)`);
  }
  if (values.has('sparseInit')) throw new InputError('E_BAD_OPTION', '--sparse-init: sparse features are not supported (dense features only)');
  const sctype = values.get('sctype');
  if (sctype !== undefined && sctype !== 'BLEU') {
    throw new InputError('E_BAD_OPTION', `--sctype ${String(sctype)}: palette kbmira's sentence scores are BLEU's (--sctype BLEU)`);
  }
  const scconfig = values.get('scconfig');
  if (typeof scconfig === 'string') {
    for (const pair of scconfig.split(',').filter((p) => p.length > 0)) {
      const colon = pair.indexOf(':');
      if (colon <= 0) throw badOption('--scconfig', 'key:value pairs separated by commas', pair);
      if (!NEUTRAL_CONFIG.has(pair.slice(0, colon))) {
        throw new InputError('E_BAD_OPTION', `--scconfig ${pair.slice(0, colon)}: not supported by palette kbmira (case and reflen are accepted; they do not change scores from statistics)`);
      }
    }
  }
  const scoreFiles = appended(values, 'scfile');
  const featureFiles = appended(values, 'ffile');
  if (scoreFiles.length === 0 || featureFiles.length === 0) throw new InputError('E_BAD_OPTION', 'no data to process: give --scfile FILE and --ffile FILE');
  if (scoreFiles.length !== featureFiles.length) {
    throw new InputError('E_BAD_OPTION', `number of feature files (${featureFiles.length}) does not match number of score files (${scoreFiles.length})`);
  }
  const itersText = values.get('iters');
  let iterations = 60;
  if (typeof itersText === 'string') {
    iterations = /^[+-]?\d+$/.test(itersText.trim()) ? Number(itersText) : NaN;
    if (!(Number.isSafeInteger(iterations) && iterations >= 0 && iterations < 2 ** 31)) throw badOption('-J', 'an integer >= 0', itersText);
  }
  const seedText = values.get('seed');
  const output = values.get('output');
  const denseInit = values.get('denseInit');
  return {
    kind: 'run',
    options: {
      scoreFiles,
      featureFiles,
      denseInit: typeof denseInit === 'string' ? denseInit : undefined,
      seed: typeof seedText === 'string' ? parseSeed('-r', seedText) : undefined,
      outputFile: typeof output === 'string' ? output : undefined,
      c: float(values, 'cparam', '-C', 0.01),
      decay: float(values, 'decay', '-D', 0.999),
      iterations,
      noShuffle: values.has('noShuffle'),
      streaming: values.has('streaming'),
      streamingOut: values.has('streamingOut'),
      modelBackground: values.has('modelBg'),
      safeHope: values.has('safeHope'),
      verbose: values.has('verbose'),
    },
  };
}
