/**
 * `-l SRC-TGT` as sacreBLEU 2.6.0 reads it: the target language picks BLEU's tokenizer when `-tok` is not given
 * (`zh` → zh, `ja` → ja-mecab, `ko` → ko-mecab, anything else → 13a), and an explicit `-tok` that does not suit
 * Chinese, Japanese or Korean draws sacreBLEU's warning. Only BLEU takes the language (sacreBLEU hands `trg_lang` to
 * BLEU alone), and the language itself is not part of any signature: the chosen tokenizer is, through `tok:`.
 */
import { InputError } from '../../errors.js';

/** The tokenizers sacreBLEU has that this build does not, and why each is refused rather than approximated. */
export const MISSING_TOKENIZERS: Readonly<Record<string, string>> = {
  'ja-mecab': "sacreBLEU's ja-mecab segments with MeCab and the IPADIC dictionary (mecab-python3, ipadic 2.7.0)",
  'ko-mecab': "sacreBLEU's ko-mecab segments with MeCab-ko and its mecab-ko-dic dictionary",
  spm: "sacreBLEU's spm segments with SentencePiece and the FLORES-101 model file",
  flores101: "sacreBLEU's flores101 segments with SentencePiece and the FLORES-101 model file",
  flores200: "sacreBLEU's flores200 segments with SentencePiece and the FLORES-200 model file",
  'spBLEU-1K': "sacreBLEU's spBLEU-1K segments with SentencePiece and the spBLEU-1K model file",
};

/** The refusal of a tokenizer sacreBLEU has and this build does not. */
export function missingTokenizer(name: string, why: string): InputError {
  return new InputError(
    'E_UNKNOWN_TOKENIZER',
    `tokenizer "${name}" is not available in this version (${MISSING_TOKENIZERS[name]}); ${why}`,
  );
}

const DEFAULT_BY_TARGET: Readonly<Record<string, string>> = { zh: 'zh', ja: 'ja-mecab', ko: 'ko-mecab' };

const ADVICE: Readonly<Record<string, readonly [string, string]>> = {
  zh: ['zh', 'Chinese'],
  ja: ['ja-mecab', 'Japanese'],
  ko: ['ko-mecab', 'Korean'],
};

/** A language pair split as sacreBLEU splits it (`langpair.split('-')`: source is part 0, target part 1). */
export function splitLanguagePair(pair: string): { source: string; target: string } {
  const parts = pair.split('-');
  if (parts.length < 2 || parts[0] === '' || parts[1] === '') {
    throw new InputError('E_BAD_OPTION', `-l/--language-pair must be SRC-TGT, e.g. en-de (got ${JSON.stringify(pair)})`);
  }
  return { source: parts[0], target: parts[1] };
}

/**
 * BLEU's tokenizer for target language `target` when `-tok` was `given` (undefined: not given), and sacreBLEU's
 * warnings.
 * @throws InputError when the default sacreBLEU would pick is one this build does not have (ja-mecab, ko-mecab).
 */
export function bleuTokenizerForTarget(
  target: string,
  given: string | undefined,
): { tokenize: string | undefined; warnings: string[] } {
  if (given !== undefined) {
    const advice = ADVICE[target];
    const warnings =
      advice !== undefined && given !== advice[0]
        ? [`Consider using the '${advice[0]}' or 'spm' tokenizer for ${advice[1]}.`]
        : [];
    return { tokenize: given, warnings };
  }
  const chosen = DEFAULT_BY_TARGET[target] ?? '13a';
  if (chosen in MISSING_TOKENIZERS) {
    throw missingTokenizer(
      chosen,
      `sacreBLEU uses it by default for target language "${target}": give -tok explicitly ` +
        '(e.g. -tok char), knowing the scores will not be comparable with sacreBLEU\'s',
    );
  }
  return { tokenize: chosen === '13a' ? undefined : chosen, warnings: [] };
}
