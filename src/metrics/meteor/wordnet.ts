/**
 * The WordNet 3.0 synonyms NLTK 3.8's METEOR matches with: `wordnet.synsets(word)` over noun, verb, adjective and
 * adverb, each part of speech reached through NLTK's `morphy` (the word's exception list when it has one, else the
 * word and its suffix substitutions, applied again and again until some form is in the index), and of those synsets
 * the lemma names without an underscore, plus the word itself. The data is the generated table
 * resources/wordnet-3.0-synonyms.json (scripts/gen-wordnet-synonyms.py says where it comes from and what it keeps,
 * resources/WORDNET-3.0.md its licence). Its 3 MB are read and decoded on the first METEOR line, not when the metric
 * catalog loads (every `palette` command would pay that at start-up): an adapter installs how to read it
 * ({@link setWordnetLoader}; the Node adapter reads the file beside the package).
 */
import { PaletteError } from '../../errors.js';

/** NLTK's `POS_LIST` order; the union does not depend on it. */
const POS_LIST = ['n', 'v', 'a', 'r'] as const;
type Pos = (typeof POS_LIST)[number];

/** NLTK's `MORPHOLOGICAL_SUBSTITUTIONS`, in its order. */
const SUBSTITUTIONS: Record<Pos, readonly (readonly [string, string])[]> = {
  n: [['s', ''], ['ses', 's'], ['ves', 'f'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  v: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  a: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  r: [],
};

interface Tables {
  /** Synset id → its lemma names. */
  readonly synsets: readonly (readonly string[])[];
  /** Per part of speech: index lemma → its synset ids (possibly none left after the names were filtered). */
  readonly index: Record<Pos, Map<string, readonly number[]>>;
  /** Per part of speech: exception form → base forms. */
  readonly exceptions: Record<Pos, Map<string, readonly string[]>>;
}

/**
 * The generated table as stored: `synsets` in id order, `;`-separated within a chunk, each the lemma names joined by
 * `,`; `index` per part of speech (`n`, `v`, `a`, `r`), sorted and front-coded, space-separated entries of one base-36
 * digit (characters shared with the previous lemma), the rest of the lemma, `:` and its synset ids (base 36, `.`);
 * `exceptions` per part of speech, space-separated `form:base,base…`.
 */
export interface WordnetData {
  readonly synsets: readonly string[];
  readonly index: Readonly<Record<string, readonly string[]>>;
  readonly exceptions: Readonly<Record<string, readonly string[]>>;
}

let loader: (() => WordnetData) | undefined;
let tables: Tables | undefined;

/** Installs how the WordNet table is read (called once by an adapter; the table is read on first use). */
export function setWordnetLoader(load: () => WordnetData): void {
  loader = load;
}

function decode(): Tables {
  if (loader === undefined) {
    throw new PaletteError(
      'E_BAD_OPTION',
      "METEOR needs its WordNet table: call setWordnetLoader() with a reader of resources/wordnet-3.0-synonyms.json " +
        'first (the Node entry, palette-mt, installs one itself)',
    );
  }
  const { synsets: storedSynsets, index: storedIndex, exceptions: storedExceptions } = loader();
  const synsets: string[][] = [];
  for (const chunk of storedSynsets) for (const s of chunk.split(';')) synsets.push(s.split(','));
  const index = {} as Record<Pos, Map<string, readonly number[]>>;
  const exceptions = {} as Record<Pos, Map<string, readonly string[]>>;
  for (const pos of POS_LIST) {
    const map = new Map<string, readonly number[]>();
    let prev = '';
    for (const chunk of storedIndex[pos]) {
      for (const entry of chunk.split(' ')) {
        const colon = entry.indexOf(':');
        const lemma = prev.slice(0, parseInt(entry[0], 36)) + entry.slice(1, colon);
        const ids = colon + 1 === entry.length ? [] : entry.slice(colon + 1).split('.').map((x) => parseInt(x, 36));
        map.set(lemma, ids);
        prev = lemma;
      }
    }
    index[pos] = map;
    const exc = new Map<string, readonly string[]>();
    for (const chunk of storedExceptions[pos]) {
      for (const entry of chunk.split(' ')) {
        const colon = entry.indexOf(':');
        exc.set(entry.slice(0, colon), colon + 1 === entry.length ? [] : entry.slice(colon + 1).split(','));
      }
    }
    exceptions[pos] = exc;
  }
  return { synsets, index, exceptions };
}

/** The decoded tables (decoded on the first call). */
function wordnet(): Tables {
  return (tables ??= decode());
}

/** NLTK's `_morphy(form, pos)`: the base forms of `form` that the index has for `pos`. */
export function morphy(form: string, pos: Pos): string[] {
  const { index, exceptions } = wordnet();
  const inIndex = index[pos];
  const subs = SUBSTITUTIONS[pos];
  const filter = (forms: Iterable<string>): string[] => {
    const out: string[] = [];
    for (const f of forms) if (inIndex.has(f) && !out.includes(f)) out.push(f);
    return out;
  };
  const exc = exceptions[pos].get(form);
  if (exc !== undefined) return filter([form, ...exc]);
  // The rules as a set of forms per round: NLTK's lists may repeat a form, which changes neither what is found nor
  // when the search stops.
  const apply = (forms: Iterable<string>): Set<string> => {
    const out = new Set<string>();
    for (const f of forms) for (const [old, rep] of subs) if (f.endsWith(old)) out.add(f.slice(0, f.length - old.length) + rep);
    return out;
  };
  let forms = apply([form]);
  const first = filter([form, ...forms]);
  if (first.length > 0) return first;
  while (forms.size > 0) {
    forms = apply(forms);
    const found = filter(forms);
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * What METEOR's synonym stage matches `word` against: the lemma names (no underscore) of every synset of
 * `wordnet.synsets(word)`, and `word` itself. `word` comes lowercased (NLTK lowercases it again; a no-op then).
 */
export function meteorSynonyms(word: string): Set<string> {
  const { synsets, index } = wordnet();
  const out = new Set<string>();
  for (const pos of POS_LIST) {
    for (const form of morphy(word, pos)) for (const id of index[pos].get(form)!) for (const name of synsets[id]) out.add(name);
  }
  out.add(word);
  return out;
}
