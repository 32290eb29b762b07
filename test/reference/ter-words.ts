/**
 * The words sacreBLEU 2.6.0's TER compares, taken as its code does on whole strings: `_preprocess_segment` is
 * `TercomTokenizer(line.rstrip())`, which with neither normalisation nor punctuation removal is `line.lower()`
 * (unless case-sensitive) then `' '.join(line.split())`; references go through it twice (`_cache_references`,
 * then `_extract_reference_info`), hypotheses once, and the words are the `split()` of the result. The oracle of
 * the split-kernel path of src/metrics/ter/ter.ts, which lowercases each distinct written word alone.
 */
import { pyLower, pyRstrip, pySplit } from '../../src/text/pystr.js';

/** `_preprocess_segment` of one line. */
function preprocess(line: string, caseSensitive: boolean): string {
  const stripped = pyRstrip(line);
  return pySplit(caseSensitive ? stripped : pyLower(stripped)).join(' ');
}

/** The words of a hypothesis line. */
export function oracleTerHypWords(line: string, caseSensitive = false): string[] {
  return pySplit(preprocess(line, caseSensitive));
}

/** The words of a reference line (preprocessed twice). */
export function oracleTerRefWords(line: string, caseSensitive = false): string[] {
  return pySplit(preprocess(preprocess(line, caseSensitive), caseSensitive));
}
