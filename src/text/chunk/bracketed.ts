/**
 * Pre-chunked input, so that scores need not depend on a chunker: noun phrases are marked with brackets as in the
 * seed paper's figures, `in general , [NP the amount ] of [NP the crowning fall ] is large .` The opening marker is
 * the word `[NP` or the two words `[ NP`; the closing marker is the word `]`. The sentence's words are the words
 * outside the markers.
 *
 * Markers must balance and cannot nest; a bracket with another label (`[VP`), an empty phrase, a `]` without an
 * opening marker, a `[` without a label and a phrase left open at the end of the line are all `InputError`s
 * (`E_BAD_INPUT`), because a silently misread marker would change the score. The only label is `NP`: chunkers that
 * write other phrase types are not what this metric reads.
 */
import { InputError } from '../../errors.js';
import type { ChunkedSentence, NpChunker } from './np-chunker.js';
import { wordBounds } from './words.js';

/** The label of the only phrase type the metric uses. */
const NP_LABEL = 'NP';

function bad(message: string): InputError {
  return new InputError('E_BAD_INPUT', `pre-chunked input: ${message}`);
}

/** Reads `[NP … ]` markup. */
export class BracketedChunker implements NpChunker {
  /** `bracketed`. */
  readonly name = 'bracketed';

  /**
   * Words outside the markers and the spans the markers enclose.
   * @throws InputError `E_BAD_INPUT` for unbalanced, nested, empty or non-NP brackets.
   */
  chunk(line: string): ChunkedSentence {
    const bounds = wordBounds(line);
    const words: string[] = [];
    const spans: number[] = [];
    let open = -1;
    const count = bounds.length >> 1;
    for (let k = 0; k < count; k++) {
      const word = line.slice(bounds[2 * k], bounds[2 * k + 1]);
      if (word.startsWith('[')) {
        // `[NP` in one word, or `[` followed by the label as the next word (the paper's `[ NP`).
        let label = word.slice(1);
        if (label === '') {
          if (k + 1 === count) throw bad('"[" at the end of the line has no label');
          k++;
          label = line.slice(bounds[2 * k], bounds[2 * k + 1]);
        }
        if (label !== NP_LABEL) throw bad(`unknown phrase label "${label}" (only [NP … ] is read)`);
        if (open >= 0) throw bad(`nested [${NP_LABEL} (the phrase opened at word ${open + 1} is still open)`);
        open = words.length;
        continue;
      }
      if (word === ']') {
        if (open < 0) throw bad('"]" without an opening [NP');
        if (open === words.length) throw bad('empty [NP ]');
        spans.push(open, words.length);
        open = -1;
        continue;
      }
      words.push(word);
    }
    if (open >= 0) throw bad(`[${NP_LABEL} opened before word ${open + 1} is not closed`);
    return { text: words.join(' '), length: words.length, spans: Int32Array.from(spans) };
  }
}
