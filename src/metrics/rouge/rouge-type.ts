/**
 * The ROUGE variants (Lin & Och 2004; Lin 2004), their ids as `-m` takes them and their names as ROUGE-1.5.5
 * prints them.
 *
 * | id                        | name          | what                                                         |
 * |---------------------------|---------------|--------------------------------------------------------------|
 * | `rouge-N` (`rougeN`)      | `ROUGE-N`     | clipped n-gram co-occurrence                                 |
 * | `rouge-l` (`rougeL`)      | `ROUGE-L`     | LCS of the whole texts (sentence level, paper eq. 6)         |
 * | `rouge-lsum` (`rougeLsum`)| `ROUGE-Lsum`  | union LCS over sentences, clipped (summary level)            |
 * | `rouge-w`, `rouge-w-1.2`  | `ROUGE-W-1.2` | weighted LCS, f(k) = k^weight                                |
 * | `rouge-sD`, `rouge-s*`    | `ROUGE-SD`    | skip-bigrams with at most D words between (`*`: any gap)     |
 * | `rouge-suD`, `rouge-su*`  | `ROUGE-SUD`   | skip-bigrams plus unigrams                                   |
 */
import { badOption } from '../../errors.js';

/** One ROUGE variant. */
export type RougeType =
  | { readonly kind: 'n'; readonly n: number }
  | { readonly kind: 'l' }
  | { readonly kind: 'lsum' }
  | { readonly kind: 'w'; readonly weight: number }
  | { readonly kind: 's'; readonly maxGap: number; readonly unigrams: boolean };

/** ROUGE-W's weight exponent when an id does not give one (ROUGE-1.5.5's documented typical `-w 1.2`). */
export const DEFAULT_WLCS_WEIGHT = 1.2;

/** What {@link parseRougeType} accepts, for messages. */
const EXPECTED = 'rouge-N (N ≥ 1), rouge-l, rouge-lsum, rouge-w[-WEIGHT], rouge-sD, rouge-suD, rouge-s* or rouge-su*';

/**
 * The variant an id names: `rouge-2`/`rouge2`, `rouge-l`/`rougeL`, `rouge-lsum`/`rougeLsum`, `rouge-w` (weight
 * `weight`) or `rouge-w-1.5`, `rouge-s4`, `rouge-su4`, `rouge-s*`, `rouge-su*` (case-insensitive).
 * @param weight ROUGE-W's exponent when the id has none (`--rouge-w-weight`).
 * @throws InputError `E_BAD_OPTION` for anything else.
 */
export function parseRougeType(id: string, weight: number = DEFAULT_WLCS_WEIGHT): RougeType {
  const m = /^rouge-?(?:([1-9][0-9]*)|(l)|(lsum)|w(?:-([0-9]+(?:\.[0-9]+)?))?|(su?)([0-9]+|\*))$/.exec(
    id.toLowerCase(),
  );
  if (m === null) throw badOption('ROUGE type', EXPECTED, id);
  if (m[1] !== undefined) return { kind: 'n', n: Number(m[1]) };
  if (m[2] !== undefined) return { kind: 'l' };
  if (m[3] !== undefined) return { kind: 'lsum' };
  if (m[5] !== undefined) return { kind: 's', maxGap: m[6] === '*' ? -1 : Number(m[6]), unigrams: m[5] === 'su' };
  const w = m[4] !== undefined ? Number(m[4]) : weight;
  checkRougeType({ kind: 'w', weight: w });
  return { kind: 'w', weight: w };
}

/**
 * Checks a variant built by hand.
 * @throws InputError `E_BAD_OPTION` for an order below 1, a weight that is not > 0, a non-integer gap.
 */
export function checkRougeType(type: RougeType): RougeType {
  switch (type?.kind) {
    case 'n':
      if (!Number.isInteger(type.n) || type.n < 1) throw badOption('ROUGE-N order', 'an integer ≥ 1', type.n);
      return type;
    case 'l':
    case 'lsum':
      return type;
    case 'w':
      if (!(Number.isFinite(type.weight) && type.weight > 0)) {
        throw badOption('ROUGE-W weight', 'a number greater than 0', type.weight);
      }
      return type;
    case 's':
      if (!Number.isInteger(type.maxGap)) throw badOption('ROUGE-S skip distance', 'an integer', type.maxGap);
      return type;
    default:
      throw badOption('ROUGE type', EXPECTED, type);
  }
}

/**
 * The name ROUGE-1.5.5 prints for a variant: `ROUGE-2`, `ROUGE-L`, `ROUGE-Lsum` (Palette's), `ROUGE-W-1.2`,
 * `ROUGE-SU4`, `ROUGE-S*`.
 */
export function rougeTypeName(type: RougeType): string {
  switch (type.kind) {
    case 'n':
      return `ROUGE-${type.n}`;
    case 'l':
      return 'ROUGE-L';
    case 'lsum':
      return 'ROUGE-Lsum';
    case 'w':
      return `ROUGE-W-${type.weight}`;
    case 's':
      return `ROUGE-${type.unigrams ? 'SU' : 'S'}${type.maxGap < 0 ? '*' : type.maxGap}`;
  }
}

/** The id of a variant as `-m` takes it: `rouge-2`, `rouge-l`, `rouge-lsum`, `rouge-w-1.2`, `rouge-su4`, `rouge-s*`. */
export function rougeTypeId(type: RougeType): string {
  return rougeTypeName(type).toLowerCase();
}
