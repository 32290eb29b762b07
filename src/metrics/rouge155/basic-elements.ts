/**
 * ROUGE-1.5.5's Basic Element scores (`-3 H|HM|HMR|HM1|HMR1|HMR2`, SIMPLE BE input): every input line is one
 * `HEAD|MODIFIER|RELATION` triple; a mode keeps some triples and matches them as heads, head–modifier pairs or
 * whole triples (Hovy et al. 2006). As in the Perl (`createBE`, `MorphStemMulti`): the line is ASCII-lowercased
 * first, so the `NIL` tests of the code only ever see `nil`; with `-m` a head or modifier longer than 3 characters
 * is stemmed word by word (every word containing [A-Za-z0-9], whatever its length).
 */
import { InputError } from '../../errors.js';
import { rouge155MorphStem } from '../../text/rouge/index.js';

/** The `-3` modes. */
export const BASIC_ELEMENT_MODES = ['H', 'HM', 'HMR', 'HM1', 'HMR1', 'HMR2'] as const;
/** One of {@link BASIC_ELEMENT_MODES}. */
export type BasicElementMode = (typeof BASIC_ELEMENT_MODES)[number];

/** The matching units of one summary: how often each occurs, and how many there are. */
export interface BasicElementUnits {
  readonly counts: Map<string, number>;
  readonly total: number;
}

/** ASCII lowercase (Perl `tr/A-Z/a-z/`). */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** Perl `split(/\|/, s)`: trailing empty fields are dropped. */
function perlSplitBars(s: string): string[] {
  const fields = s.split('|');
  while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return fields;
}

/** ROUGE-1.5.5's `MorphStemMulti`: every whitespace-separated word with a letter or digit through `MorphStem`. */
function morphStemMulti(s: string): string {
  const words = s.split(/[ \t\n\r\f\v]+/);
  // Perl's split keeps a leading empty field and drops trailing ones.
  while (words.length > 0 && words[words.length - 1] === '') words.pop();
  return words
    .map((w) => (/[A-Za-z0-9]/.test(w) && !/-LRB-|-RRB-|-LSB-|-RSB-|-LCB-|-RCB-/.test(w) ? rouge155MorphStem(w) : w))
    .join(' ');
}

/**
 * The units a BE mode counts in some SIMPLE-format lines.
 * @throws InputError `E_BAD_INPUT` for a line that is not three `|`-separated fields (ROUGE-1.5.5 dies there).
 */
export function basicElementUnits(lines: readonly string[], mode: BasicElementMode, stem: boolean): BasicElementUnits {
  const counts = new Map<string, number>();
  let total = 0;
  const add = (key: string): void => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    total++;
  };
  for (const line of lines) {
    const be = asciiLower(line);
    const fields = perlSplitBars(be);
    if (fields.length !== 3) {
      throw new InputError(
        'E_BAD_INPUT',
        `a Basic Element must be HEAD|MODIFIER|RELATION (got ${JSON.stringify(line)})`,
      );
    }
    let head = fields[0];
    let modifier = fields[1];
    if (stem) {
      if (head.length > 3) head = morphStemMulti(head);
      if (modifier.length > 3) modifier = morphStemMulti(modifier);
    }
    const relation = fields[2];
    switch (mode) {
      case 'H':
        if (modifier === 'nil') add(head);
        break;
      case 'HM':
        if (modifier !== 'nil') add(`${head}|${modifier}`);
        break;
      case 'HMR':
        if (relation !== 'nil') add(`${head}|${modifier}|${relation}`);
        break;
      case 'HM1':
        add(`${head}|${modifier}`);
        break;
      case 'HMR1':
        // The Perl tests the unstemmed modifier field here.
        if (fields[1] !== 'nil') add(`${head}|${modifier}|${relation}`);
        break;
      case 'HMR2':
        add(`${head}|${modifier}|${relation}`);
        break;
    }
  }
  return { counts, total };
}

/** Clipped matches of a peer's units against a model's: Σ over model units of min(peer count, model count). */
export function basicElementHits(model: BasicElementUnits, peer: BasicElementUnits): number {
  let hits = 0;
  for (const [key, m] of model.counts) {
    const p = peer.counts.get(key);
    if (p !== undefined) hits += Math.min(p, m);
  }
  return hits;
}
