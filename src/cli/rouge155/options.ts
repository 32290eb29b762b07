/**
 * `palette rouge155` command line: ROUGE-1.5.5's options, read the way its `getopts('ahHb:c:de:f:l:mMn:p:st:r:2:3:
 * w:uUvxz:')` reads them (single letters, bundling `-am`, values attached `-n4` or separate `-n 4`, options end at
 * the first argument that is not one or at `--`), with its defaults and its checks and messages.
 *
 * Where ROUGE-1.5.5 silently goes on with a value it cannot use (an unknown option, a number that is not a number,
 * `-f C`, `-t 5`, an unknown `-z` format or `-3` mode), Palette stops with a message instead: exit status 2.
 * Values that are printed back keep the user's spelling, as ROUGE prints them (`-c 95.0` → `95.0%-conf.int.`,
 * `-w 1.20` → `ROUGE-W-1.20`, `-2 04` → `ROUGE-SU04`).
 */
import { InputError } from '../../errors.js';
import { parseRouge155Format, type Rouge155Format } from '../../corpus/rouge/summary-format.js';
import { BASIC_ELEMENT_MODES, type BasicElementMode } from '../../metrics/rouge155/basic-elements.js';

/** Everything a `palette rouge155` run needs to know. */
export interface Rouge155Options {
  /** The configuration: an XML file, or a file list with `-z`. */
  readonly config: string;
  /** The peer to evaluate (second argument); with `-z` it names every unit's peer. @default 'X' with -z */
  readonly systemId: string | undefined;
  /** `-a`: evaluate every peer of the configuration (ignored with `-z`, as in ROUGE). */
  readonly all: boolean;
  /** `-z FORMAT`: the configuration is a file list in this format. */
  readonly fileListFormat: Rouge155Format | undefined;
  /** `-n N`: ROUGE-1 … ROUGE-N (undefined: none). */
  readonly maxNgram: number | undefined;
  /** `-x`: no ROUGE-L. */
  readonly noLcs: boolean;
  /** `-w W`: ROUGE-W with weight W, and W as written (the score's name). */
  readonly weight: { readonly value: number; readonly text: string } | undefined;
  /** `-2 D`: skip-bigrams with at most D gap words (D < 0: any gap), and D as written. */
  readonly skipDistance: { readonly value: number; readonly text: string } | undefined;
  /** `-u`: skip-bigrams with unigrams (ROUGE-SU). */
  readonly skipUnigrams: boolean;
  /** `-U`: ROUGE-S and then ROUGE-SU. */
  readonly skipBoth: boolean;
  /** `-3 MODE`: Basic Element scores. */
  readonly basicElements: BasicElementMode | undefined;
  /** `-m`: stem with ROUGE's Porter stemmer and WordNet exceptions. */
  readonly stem: boolean;
  /** `-M`: stem the models only (undocumented in ROUGE's usage). */
  readonly stemModelsOnly: boolean;
  /** `-s`: remove SMART stopwords. */
  readonly removeStopwords: boolean;
  /** `-l N`: first N words of every summary (0: no limit). */
  readonly wordLimit: number;
  /** `-b N`: first N bytes of every summary (0: no limit). */
  readonly byteLimit: number;
  /** `-f A|B`: pool the models (A) or keep the best one (B). @default 'A' */
  readonly scoring: 'A' | 'B';
  /** `-p α`: F = R·P/((1−α)·P + α·R). @default 0.5 */
  readonly alpha: number;
  /** `-t 0|1|2`: average units, pool tokens, or print raw counts. @default 0 */
  readonly counting: 0 | 1 | 2;
  /** `-c CF`: confidence level in percent, and CF as written. @default 95 */
  readonly confidence: { readonly value: number; readonly text: string };
  /** `-r B`: bootstrap resamples. @default 1000 */
  readonly resamples: number;
  /** `-d`: also print every unit's scores. */
  readonly perUnit: boolean;
  /** `-v`: ROUGE's debugging output (accepted; Palette prints none). */
  readonly verbose: boolean;
}

/** What the command line asks for: a run, or one of the usage texts. */
export type Rouge155Command =
  | { readonly kind: 'run'; readonly options: Rouge155Options }
  | { readonly kind: 'usage'; readonly full: boolean; readonly requested: boolean };

const BOOLEAN_LETTERS = new Set(['a', 'h', 'H', 'd', 'm', 'M', 's', 'u', 'U', 'v', 'x']);
const VALUE_LETTERS = new Set(['b', 'c', 'e', 'f', 'l', 'n', 'p', 't', 'r', '2', '3', 'w', 'z']);

function usageError(message: string): InputError {
  return new InputError('E_BAD_OPTION', message);
}

/** Perl's reading of an option value as a number, refusing what Perl would read as 0 with a warning. */
function numberOption(letter: string, text: string): number {
  if (!/^[ \t\n\r\f\v]*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\f\v]*$/.test(text)) {
    throw usageError(`-${letter} expects a number (got ${JSON.stringify(text)})`);
  }
  return Number(text.trim());
}

function limitOption(letter: string, text: string): number {
  const value = numberOption(letter, text);
  if (!Number.isInteger(value) || value < 0) {
    throw usageError(
      `-${letter} expects a whole number of ${letter === 'l' ? 'words' : 'bytes'} ≥ 0 (got ${JSON.stringify(text)})`,
    );
  }
  return value;
}

/**
 * Reads `palette rouge155`'s arguments.
 * @throws InputError `E_BAD_OPTION` with ROUGE-1.5.5's message where it has one
 */
export function parseRouge155Args(argv: readonly string[]): Rouge155Command {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i];
    if (arg === '--') {
      i++;
      break;
    }
    if (arg.length < 2 || arg[0] !== '-') break;
    if (arg === '--help') return { kind: 'usage', full: false, requested: true };
    i++;
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k];
      if (BOOLEAN_LETTERS.has(letter)) {
        flags.add(letter);
      } else if (VALUE_LETTERS.has(letter)) {
        let value = arg.slice(k + 1);
        if (value === '') {
          if (i >= argv.length) throw usageError(`option -${letter} requires a value`);
          value = argv[i++];
        }
        values.set(letter, value);
        break;
      } else {
        throw usageError(`unknown option -${letter} (run "palette rouge155 -h" for the options)`);
      }
    }
  }
  const args = argv.slice(i);

  if (flags.has('H')) return { kind: 'usage', full: true, requested: true };
  if (flags.has('h') || args.length === 0) return { kind: 'usage', full: false, requested: flags.has('h') };

  const z = values.get('z');
  const fileListFormat = z === undefined ? undefined : parseRouge155Format(z);
  if (z !== undefined && fileListFormat === undefined) {
    throw usageError(`-z expects SEE, SPL, ISI or SIMPLE (got ${JSON.stringify(z)})`);
  }
  if (args.length === 1 && z === undefined && !flags.has('a')) {
    throw usageError(
      "Please specify a system ID to evaluate or use option '-a' to evaluate all systems. For more information, use option '-h'.",
    );
  }
  if (values.has('l') && values.has('b'))
    throw usageError('Please specify length limit in words or bytes but not both.');

  const cText = values.get('c');
  const confidence = cText === undefined ? { value: 95, text: '95' } : { value: numberOption('c', cText), text: cText };
  if (confidence.value < 0 || confidence.value > 100) {
    throw usageError('Confidence interval should be within 0 and 100. Use option -h for more details.');
  }

  const wText = values.get('w');
  const weight = wText === undefined ? undefined : { value: numberOption('w', wText), text: wText };
  if (weight !== undefined && !(weight.value > 0)) throw usageError('ROUGE-W weight factor must greater than 0.');

  const pText = values.get('p');
  const alpha = pText === undefined ? 0.5 : numberOption('p', pText);
  if (alpha < 0 || alpha > 1) {
    throw usageError('Relative importance of ROUGE recall and precision has to be between 0 and 1 inclusively.');
  }

  const tText = values.get('t');
  const t = tText === undefined ? 0 : numberOption('t', tText);
  if (t !== 0 && t !== 1 && t !== 2) throw usageError(`-t expects 0, 1 or 2 (got ${JSON.stringify(tText)})`);

  const rText = values.get('r');
  const resamples = rText === undefined ? 1000 : numberOption('r', rText);
  if (t !== 2 && !(resamples > 0))
    throw usageError(`-r expects a number of resamples > 0 (got ${JSON.stringify(rText)})`);

  const fText = values.get('f');
  if (fText !== undefined && fText !== 'A' && fText !== 'B') {
    throw usageError(`-f expects A (model average) or B (best model) (got ${JSON.stringify(fText)})`);
  }

  const beText = values.get('3');
  if (beText !== undefined && !(BASIC_ELEMENT_MODES as readonly string[]).includes(beText)) {
    throw usageError(`-3 expects one of ${BASIC_ELEMENT_MODES.join(', ')} (got ${JSON.stringify(beText)})`);
  }

  const nText = values.get('n');
  const dText = values.get('2');
  return {
    kind: 'run',
    options: {
      config: args[0],
      systemId: args[1],
      all: flags.has('a') && z === undefined,
      fileListFormat,
      maxNgram: nText === undefined ? undefined : numberOption('n', nText),
      noLcs: flags.has('x'),
      weight,
      skipDistance: dText === undefined ? undefined : { value: numberOption('2', dText), text: dText },
      skipUnigrams: flags.has('u'),
      skipBoth: flags.has('U'),
      basicElements: beText as BasicElementMode | undefined,
      stem: flags.has('m'),
      stemModelsOnly: flags.has('M'),
      removeStopwords: flags.has('s'),
      wordLimit: values.has('l') ? limitOption('l', values.get('l')!) : 0,
      byteLimit: values.has('b') ? limitOption('b', values.get('b')!) : 0,
      scoring: fText === 'B' ? 'B' : 'A',
      alpha,
      counting: t as 0 | 1 | 2,
      confidence,
      resamples,
      perUnit: flags.has('d'),
      verbose: flags.has('v'),
    },
  };
}
