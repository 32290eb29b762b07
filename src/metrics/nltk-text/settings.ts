/**
 * How the NLTK sentence metrics (GLEU, RIBES, METEOR) get their token lists: NLTK takes lists of words, so a line is
 * first tokenized with a sacreBLEU tokenizer (`-tok`, default `13a`) and then split with Python's `str.split()`;
 * `-tok none` is the raw line split on Python whitespace. Case is kept unless `-lc` is given (METEOR lowercases on
 * its own, as NLTK's `preprocess=str.lower` does).
 */
import type { TokenizerName } from '../../text/tokenizers/index.js';
import type { OptionSpec } from '../../util/option-spec.js';
import { BLEU_FLAGS } from '../bleu/descriptor.js';
import type { FlagValues } from '../descriptor.js';
import type { SignatureField } from '../signature.js';

/** The tokenization settings every NLTK sentence metric reads from the shared `-tok` and `-lc` flags. */
export interface NltkTextSettings {
  /** `-tok`: the sacreBLEU tokenizer applied before `str.split()`. @default '13a' */
  readonly tokenize?: TokenizerName;
  /** `-lc`: Python `str.lower()` first. @default false */
  readonly lowercase?: boolean;
}

/** The default tokenizer of the NLTK sentence metrics. */
export const NLTK_TEXT_DEFAULT_TOKENIZE: TokenizerName = '13a';

/** The settings with their defaults filled in, as each NLTK sentence metric holds them. */
export function nltkTextDefaults(options: NltkTextSettings): { readonly tokenize: TokenizerName; readonly lowercase: boolean } {
  return { tokenize: options.tokenize ?? NLTK_TEXT_DEFAULT_TOKENIZE, lowercase: options.lowercase ?? false };
}

/**
 * The settings' signature fields: `case` (left out by a metric that lowercases its words whatever `-lc` says) then
 * `tok`.
 */
export function nltkTextSignatureFields(settings: { readonly tokenize: string; readonly lowercase: boolean }, withCase = true): SignatureField[] {
  const tok: SignatureField = { key: 'tok', abbr: 'tok', value: settings.tokenize };
  return withCase ? [{ key: 'case', abbr: 'c', value: settings.lowercase ? 'lc' : 'mixed' }, tok] : [tok];
}

/** `-tok` and `-lc` as an NLTK sentence metric reads them. @throws InputError for an unknown tokenizer. */
export function readNltkTextSettings(f: FlagValues): NltkTextSettings {
  return { tokenize: f.tokenizer('tokenize'), lowercase: f.flag('lowercase') };
}

/** Help section of the NLTK sentence metrics' flags. */
export const NLTK_SENTENCE_GROUP = 'GLEU, RIBES, METEOR (NLTK 3.8; tokens: -tok, default 13a, then a whitespace split)';

/** The `-tok` and `-lc` options of an NLTK sentence metric, as its descriptor lists them. */
export const NLTK_TEXT_OPTIONS = [
  { setting: 'tokenize', flag: 'tokenize', default: { value: NLTK_TEXT_DEFAULT_TOKENIZE } },
  { setting: 'lowercase', flag: 'lowercase', default: { value: false } },
] as const;

/**
 * The flags of `-tok` and `-lc` themselves: BLEU's specs (the same objects, so that each command lists them once, in
 * BLEU's section), which an NLTK sentence metric's table starts with since it reads them.
 */
export const NLTK_TEXT_FLAGS: readonly OptionSpec[] = BLEU_FLAGS.filter((s) => s.key === 'tokenize' || s.key === 'lowercase');
