/**
 * Plain reading of NLTK 3.8's `meteor_score` line by line (`_match_enums`, `_enum_stem_match`,
 * `_enum_wordnetsyn_match`, `_count_chunks` and the formula, on lists of remaining words popped as NLTK pops them),
 * the oracle of METEOR's alignment in TypeScript (src/metrics/meteor/meteor.ts) and in WebAssembly
 * (assembly/meteor.ts).
 */
import { meteorSynonyms } from '../../src/metrics/meteor/wordnet.js';
import { nltkPorterStem } from '../../src/text/rouge/porter-nltk.js';

/** NLTK's enumerated word lists: [position, word]. */
type Enum = [number, string][];

const synonymCache = new Map<string, Set<string>>();
/** `meteorSynonyms`, kept per word (the reading asks for the same few words again and again). */
export function synonyms(word: string): Set<string> {
  let out = synonymCache.get(word);
  if (out === undefined) synonymCache.set(word, (out = meteorSynonyms(word)));
  return out;
}

/** NLTK's `_match_enums`: returns the matches; pops matched entries from both lists. */
function matchEnums(hyp: Enum, ref: Enum): [number, number][] {
  const out: [number, number][] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    for (let j = ref.length - 1; j >= 0; j--) {
      if (hyp[i][1] === ref[j][1]) {
        out.push([hyp[i][0], ref[j][0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return out;
}

/** NLTK's `_enum_wordnetsyn_match` on the stemmed lists the stem stage returns. */
function synonymMatch(hyp: Enum, ref: Enum): [number, number][] {
  const out: [number, number][] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    const syns = synonyms(hyp[i][1]);
    for (let j = ref.length - 1; j >= 0; j--) {
      if (syns.has(ref[j][1])) {
        out.push([hyp[i][0], ref[j][0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return out;
}

/** NLTK's `single_meteor_score` on whitespace-split words, with its defaults for α, β and γ unless given. */
export function nltkSingle(hypothesis: string, reference: string, alpha = 0.9, beta = 3, gamma = 0.5): number {
  const hw = hypothesis.split(' ').filter((w) => w !== '').map((w) => w.toLowerCase());
  const rw = reference.split(' ').filter((w) => w !== '').map((w) => w.toLowerCase());
  let hyp: Enum = hw.map((w, i) => [i, w]);
  let ref: Enum = rw.map((w, i) => [i, w]);
  const exact = matchEnums(hyp, ref);
  hyp = hyp.map(([i, w]) => [i, nltkPorterStem(w)]);
  ref = ref.map(([i, w]) => [i, nltkPorterStem(w)]);
  const stem = matchEnums(hyp, ref);
  const syn = synonymMatch(hyp, ref);
  const matches = [...exact, ...stem, ...syn].sort((a, b) => a[0] - b[0]);
  const m = matches.length;
  if (hw.length === 0 || rw.length === 0 || m === 0) return 0;
  const precision = m / hw.length;
  const recall = m / rw.length;
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  let chunks = 0;
  for (let k = 0; k < m; k++) {
    if (k === 0 || !(matches[k][0] === matches[k - 1][0] + 1 && matches[k][1] === matches[k - 1][1] + 1)) chunks++;
  }
  return (1 - gamma * (chunks / m) ** beta) * fmean;
}
