/**
 * The line formats a paraphrase table comes in, and how one line becomes its phrase fields.
 *
 * - `moses`: a phrase table `source ||| target ||| scores …` (Moses, or any `|||` file whose first two fields are a
 *   phrase pair). The table is read as the paper builds its paraphrases (seed 001 §3.2): the source field is the
 *   pivot (the foreign phrase of an English-target table) and every target phrase with the same pivot joins one set.
 * - `ppdb`: PPDB's `[LHS] ||| phrase ||| paraphrase ||| features ||| alignment …`: phrase and paraphrase join one set.
 *   Rules whose sides hold nonterminals (`[NN,1]`, syntactic PPDB packs) are not phrases and are skipped.
 * - `tsv`: `phrase<TAB>paraphrase`, exactly two fields; both join one set. Lines starting with `#` are comments.
 *
 * Blank lines are skipped in every format. `auto` decides from the first line that is not blank (nor a `#` comment):
 * ` ||| ` with a bracketed first field (`[X]`) is `ppdb`, other ` ||| ` lines are `moses`, a tab is `tsv`.
 */
import { badOption, InputError } from '../../errors.js';

/** Formats a table may be read as; `auto` detects one of the others from the first content line. */
export const PARAPHRASE_FORMATS = ['auto', 'moses', 'ppdb', 'tsv'] as const;

/** One of {@link PARAPHRASE_FORMATS}. */
export type ParaphraseFormat = (typeof PARAPHRASE_FORMATS)[number];

/** A format once decided. */
export type ResolvedParaphraseFormat = Exclude<ParaphraseFormat, 'auto'>;

/** What one line holds: the two phrase fields, or nothing to add (blank, comment, skipped rule). */
export type TableLine =
  | { readonly kind: 'skip'; readonly why: 'blank' | 'comment' | 'nonterminal' }
  | { readonly kind: 'pair'; readonly first: string; readonly second: string };

/** Checks a format name. @throws InputError `E_BAD_OPTION`. */
export function checkParaphraseFormat(format: string): ParaphraseFormat {
  if (!(PARAPHRASE_FORMATS as readonly string[]).includes(format)) {
    throw badOption('paraphrase table format', `one of ${PARAPHRASE_FORMATS.join(', ')}`, format);
  }
  return format as ParaphraseFormat;
}

const SEPARATOR = '|||';
/** A PPDB left-hand side: one bracketed label. */
const LHS = /^\[[^\s\]]+\]$/;
/** A nonterminal on a rule side: `[NN,1]`, `[X,2]`. */
const NONTERMINAL = /\[[^\s\]]+,[0-9]+\]/;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/**
 * The format of a table whose first content line is `line`, or undefined when `line` is blank or a comment.
 * @throws InputError `E_BAD_INPUT` (no location; the caller adds it) when no format fits.
 */
export function detectParaphraseFormat(line: string): ResolvedParaphraseFormat | undefined {
  if (isBlank(line) || line.startsWith('#')) return undefined;
  if (line.includes(SEPARATOR)) {
    return LHS.test(line.slice(0, line.indexOf(SEPARATOR)).trim()) ? 'ppdb' : 'moses';
  }
  if (line.includes('\t')) return 'tsv';
  throw new InputError(
    'E_BAD_INPUT',
    'cannot tell the paraphrase table format: the first line has neither " ||| " fields nor a tab ' +
      '(give the format: moses, ppdb or tsv)',
  );
}

/** Field `k` of `fields`, trimmed, or a located complaint that it is empty. */
function phraseField(fields: readonly string[], k: number, what: string): string {
  const field = fields[k].trim();
  if (field === '') throw new InputError('E_BAD_INPUT', `empty ${what} (field ${k + 1})`);
  return field;
}

/**
 * Splits one line of a table in `format` into its phrase pair.
 * @throws InputError `E_BAD_INPUT` (no location; the caller adds file and line) for a malformed line.
 */
export function parseTableLine(line: string, format: ResolvedParaphraseFormat): TableLine {
  if (isBlank(line)) return { kind: 'skip', why: 'blank' };
  if (format === 'tsv') {
    if (line.startsWith('#')) return { kind: 'skip', why: 'comment' };
    const fields = line.split('\t');
    if (fields.length !== 2) {
      throw new InputError('E_BAD_INPUT', `expected 2 tab-separated fields (phrase, paraphrase), found ${fields.length}`);
    }
    return { kind: 'pair', first: phraseField(fields, 0, 'phrase'), second: phraseField(fields, 1, 'paraphrase') };
  }
  const fields = line.split(SEPARATOR);
  if (format === 'moses') {
    if (fields.length < 2) {
      throw new InputError('E_BAD_INPUT', 'expected "source ||| target ||| scores ...", found no " ||| " separator');
    }
    return { kind: 'pair', first: phraseField(fields, 0, 'source phrase'), second: phraseField(fields, 1, 'target phrase') };
  }
  if (fields.length < 3) {
    throw new InputError(
      'E_BAD_INPUT',
      `expected "[LHS] ||| phrase ||| paraphrase ||| features ...", found ${fields.length} field(s)`,
    );
  }
  const lhs = fields[0].trim();
  if (!LHS.test(lhs)) {
    throw new InputError('E_BAD_INPUT', `expected a bracketed PPDB left-hand side such as [NN] in field 1, found ${JSON.stringify(lhs)}`);
  }
  const first = phraseField(fields, 1, 'phrase');
  const second = phraseField(fields, 2, 'paraphrase');
  if (NONTERMINAL.test(first) || NONTERMINAL.test(second)) return { kind: 'skip', why: 'nonterminal' };
  return { kind: 'pair', first, second };
}
