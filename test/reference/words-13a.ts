/**
 * Plain oracle of the 13a token-id kernel (src/wasm/words-13a.ts over assembly/words-13a.ts): sacreBLEU's BLEU
 * preprocessing of each line as written in Python — `rstrip()`, the 13a tokenizer as its regular expressions,
 * `str.split()` — and a Map from token to id, ids in order of first appearance.
 */
import { pyRstrip, pySplit } from '../../src/text/pystr.js';
import { tokenize13aRegex } from '../../src/text/tokenizers/tokenizer-13a.js';

/** The tokens of one line. */
export function oracleTokens13a(line: string): string[] {
  return pySplit(tokenize13aRegex(pyRstrip(line)));
}

/** Ids of the tokens of `lines`, one row each, growing `vocab` with every new token. */
export function oracleBuild13a(lines: readonly string[], vocab: Map<string, number>): number[][] {
  return lines.map((line) =>
    oracleTokens13a(line).map((t) => {
      let id = vocab.get(t);
      if (id === undefined) {
        id = vocab.size;
        vocab.set(t, id);
      }
      return id;
    }));
}

/** Ids of the tokens of `lines` against a frozen `vocab`; a token it lacks gets `unknownId`. */
export function oracleLookup13a(lines: readonly string[], vocab: ReadonlyMap<string, number>, unknownId: number): number[][] {
  return lines.map((line) => oracleTokens13a(line).map((t) => vocab.get(t) ?? unknownId));
}

/** Ids of the Python `str.split()` words of `lines` (the split kernel's tokenizer), growing `vocab`. */
export function oracleBuildSplit(lines: readonly string[], vocab: Map<string, number>): number[][] {
  return lines.map((line) =>
    pySplit(line).map((t) => {
      let id = vocab.get(t);
      if (id === undefined) {
        id = vocab.size;
        vocab.set(t, id);
      }
      return id;
    }));
}

/**
 * The characters sacreBLEU's chrF counts, as code points: those of `''.join(line.split())`, or of the whole line with
 * `keepWhitespace`. A lone surrogate is its own code point, as in a Python string: two lone surrogates that the
 * removal of whitespace brings together stay two (Python never pairs them), so each word is taken apart on its own.
 */
export function oracleCodePoints(line: string, keepWhitespace: boolean): number[] {
  return (keepWhitespace ? [line] : pySplit(line)).flatMap((w) => [...w].map((c) => c.codePointAt(0)!));
}
