/**
 * The ROUGE tokenizers: `rouge155` (ROUGE-1.5.5.pl), `rouge-score` (google-research rouge_score 0.1.2) and
 * `rouge-unicode` (Palette's script-neutral variant), each with optional stopword removal and stemming.
 *
 * A token goes through: scanning (./rouge-scanners.ts) → lowercase form → stopword test on that form (SMART list,
 * ROUGE-1.5.5 `-s`) → stemming of forms longer than 3 characters. The stemmer belongs to the tokenizer:
 * `rouge155` uses ROUGE's `MorphStem` (WordNet 2.0 exceptions, then ROUGE's own Porter), `rouge-score` NLTK 3.8's
 * Porter in NLTK_EXTENSIONS mode, `rouge-unicode` the same NLTK Porter on tokens made only of [a-z0-9] (other
 * scripts are left unstemmed).
 *
 * Two ways to use a tokenizer: {@link rougeTokens} returns token strings (simple, allocates per token), and
 * {@link RougeInterner} appends vocabulary ids to a CSR row without building a string per token: every distinct
 * source spelling is resolved (lowercased, filtered, stemmed, interned) once and cached.
 */
import type { CsrBuilder } from '../csr.js';
import { unknownTokenizer } from '../../errors.js';
import { Vocabulary } from '../intern.js';
import { nltkPorterStem } from './porter-nltk.js';
import { foldToken, scanRouge155, scanRougeScore, scanRougeUnicode, SpanList } from './rouge-scanners.js';
import { isSmartStopword } from './smart-stopwords.js';
import { isRougeTokenizerName, ROUGE_TOKENIZER_NAMES, type RougeTokenizerName } from './tokenizer-names.js';
import { rouge155MorphStem } from './wordnet-exceptions.js';

export { isRougeTokenizerName, ROUGE_TOKENIZER_NAMES, type RougeTokenizerName } from './tokenizer-names.js';


/** Options of a ROUGE tokenizer. */
export interface RougeTokenizerOptions {
  /** Which tokenizer. @default 'rouge155' */
  readonly tokenizer?: RougeTokenizerName;
  /**
   * Stem tokens longer than 3 characters (ROUGE-1.5.5 `-m`, rouge-score `use_stemmer=True`).
   * @default false
   */
  readonly stem?: boolean;
  /**
   * Drop tokens on the SMART stopword list (ROUGE-1.5.5 `-s`), tested before stemming. rouge-score has no such
   * option; with the other tokenizers this is Palette's extension.
   * @default false
   */
  readonly removeStopwords?: boolean;
}

/** {@link RougeTokenizerOptions} with every default filled in. */
export interface ResolvedRougeTokenizerOptions {
  /** Which tokenizer. */
  readonly tokenizer: RougeTokenizerName;
  /** Stem tokens longer than 3 characters. */
  readonly stem: boolean;
  /** Drop SMART stopwords (before stemming). */
  readonly removeStopwords: boolean;
}


/**
 * Fills in the defaults of `options`.
 * @throws InputError `E_UNKNOWN_TOKENIZER` for an unknown tokenizer name.
 */
export function resolveRougeTokenizerOptions(options: RougeTokenizerOptions = {}): ResolvedRougeTokenizerOptions {
  const tokenizer = options.tokenizer ?? 'rouge155';
  if (!isRougeTokenizerName(tokenizer)) throw unknownTokenizer(String(tokenizer), ROUGE_TOKENIZER_NAMES);
  return { tokenizer, stem: options.stem ?? false, removeStopwords: options.removeStopwords ?? false };
}

/** Whether `s` is made only of [a-z0-9] (the words NLTK's Porter is meant for). */
function isAsciiWord(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39))) return false;
  }
  return true;
}

/** Stems already computed, per stemmer: the string path stems every token, and words repeat (Zipf). */
const STEM_CACHE_LIMIT = 1 << 16;
const morphCache = new Map<string, string>();
const nltkCache = new Map<string, string>();

function cachedStem(cache: Map<string, string>, form: string, stem: (w: string) => string): string {
  let s = cache.get(form);
  if (s === undefined) {
    if (cache.size >= STEM_CACHE_LIMIT) cache.clear(); // bounded memory for long-running processes
    s = stem(form);
    cache.set(form, s);
  }
  return s;
}

/**
 * The token that the lowercase form `form` becomes: `null` when it is a stopword to drop, else `form` stemmed
 * (forms longer than 3 characters, when stemming is on) or `form` itself.
 */
export function finishRougeToken(form: string, options: ResolvedRougeTokenizerOptions): string | null {
  if (options.removeStopwords && isSmartStopword(form)) return null;
  if (!options.stem || form.length <= 3) return form;
  switch (options.tokenizer) {
    case 'rouge155':
      return cachedStem(morphCache, form, rouge155MorphStem);
    case 'rouge-score':
      return cachedStem(nltkCache, form, nltkPorterStem);
    case 'rouge-unicode':
      return isAsciiWord(form) ? cachedStem(nltkCache, form, nltkPorterStem) : form;
  }
}

/** Scans `text` with the tokenizer's scanner; returns the string the spans index. */
function scan(text: string, tokenizer: RougeTokenizerName, spans: SpanList): string {
  spans.clear();
  switch (tokenizer) {
    case 'rouge155':
      scanRouge155(text, spans);
      return text;
    case 'rouge-score':
      scanRougeScore(text, spans);
      return text;
    case 'rouge-unicode':
      return scanRougeUnicode(text, spans);
  }
}

const scratch = new SpanList();

/**
 * The tokens of one text (one sentence or a whole summary) as strings, e.g. with the defaults (`rouge155`)
 * `"The U.S. economy's 3.14% growth"` → `the u s economy s 3 14 growth`.
 */
export function rougeTokens(text: string, options: RougeTokenizerOptions = {}): string[] {
  const resolved = resolveRougeTokenizerOptions(options);
  const source = scan(text, resolved.tokenizer, scratch);
  const out: string[] = [];
  for (let k = 0; k < scratch.count; k++) {
    const token = finishRougeToken(foldToken(source, scratch.start(k), scratch.end(k)), resolved);
    if (token !== null) out.push(token);
  }
  return out;
}

/**
 * Turns texts into vocabulary ids with one ROUGE tokenizer, fast: the ids go straight into a {@link CsrBuilder}.
 * A token spelled as before (same code units in the source) costs a scan, a hash and a cache probe; only a new
 * spelling builds a string, and its lowercase form, stopword test and stem are computed once.
 *
 * Ids come from `vocabulary`, which may be shared with other interners (hypotheses and references must share one).
 * Not re-entrant (one scratch span list per interner).
 */
export class RougeInterner {
  /** The resolved tokenizer options. */
  readonly options: ResolvedRougeTokenizerOptions;
  /** The vocabulary the ids come from. */
  readonly vocabulary: Vocabulary;
  /** Source spellings seen so far; `resolved[rawId]` is the vocabulary id they become, -1 = dropped. */
  private readonly spellings = new Vocabulary();
  private resolved = new Int32Array(256);
  private readonly spans = new SpanList();

  constructor(options: RougeTokenizerOptions = {}, vocabulary: Vocabulary = new Vocabulary()) {
    this.options = resolveRougeTokenizerOptions(options);
    this.vocabulary = vocabulary;
  }

  /** Appends the ids of the tokens of `text` to the open row of `out` (no `endRow`); returns how many. */
  appendIds(text: string, out: CsrBuilder): number {
    const { spans } = this;
    const source = scan(text, this.options.tokenizer, spans);
    let pushed = 0;
    for (let k = 0; k < spans.count; k++) {
      const id = this.idOfSpan(source, spans.start(k), spans.end(k), spans.hash(k));
      if (id >= 0) {
        out.push(id);
        pushed++;
      }
    }
    return pushed;
  }

  /** Appends the tokens of `text` as one row of `out`. */
  internLine(text: string, out: CsrBuilder): void {
    this.appendIds(text, out);
    out.endRow();
  }

  /** Appends one row per sentence to `out`; returns the number of rows appended. */
  internSentences(sentences: readonly string[], out: CsrBuilder): number {
    for (const s of sentences) this.internLine(s, out);
    return sentences.length;
  }

  /** The ids of the tokens of `text` (tests and small inputs). */
  ids(text: string): number[] {
    const { spans } = this;
    const source = scan(text, this.options.tokenizer, spans);
    const out: number[] = [];
    for (let k = 0; k < spans.count; k++) {
      const id = this.idOfSpan(source, spans.start(k), spans.end(k), spans.hash(k));
      if (id >= 0) out.push(id);
    }
    return out;
  }

  /** The vocabulary id the token spelled `source[start, end)` (hashing to `hash`) becomes, -1 when it is dropped. */
  private idOfSpan(source: string, start: number, end: number, hash: number): number {
    const raw = this.spellings.findRange(source, start, end, hash);
    return raw >= 0 ? this.resolved[raw] : this.learn(source, start, end, hash);
  }

  /** Resolves a spelling seen for the first time and caches its id. */
  private learn(source: string, start: number, end: number, hash: number): number {
    const raw = this.spellings.idOfRange(source, start, end, hash);
    if (raw >= this.resolved.length) {
      const grown = new Int32Array(this.resolved.length * 2);
      grown.set(this.resolved);
      this.resolved = grown;
    }
    const token = finishRougeToken(foldToken(source, start, end), this.options);
    const id = token === null ? -1 : this.vocabulary.id(token);
    this.resolved[raw] = id;
    return id;
  }
}
