/**
 * Paraphrase tables as ParaEval uses them (seed 001 §3.2–3.3): sets of phrases that may stand for each other.
 *
 * A set is a connected group: two phrases are in one set when a line pairs them (`ppdb`, `tsv`) or when they share
 * a pivot (`moses`: target phrases with the same source phrase), and sets are closed under that relation
 * (union-find), so that every phrase belongs to exactly one set and "the count of a paraphrase set in a reference"
 * is well defined. A noisy bilingual table can chain unrelated phrases into one large set; `minWords` (seed §4.2:
 * only phrases of ≥ 3 words gave stable correlations) and a filtered table keep sets tight.
 *
 * Phrases are tokenized and lowercased exactly as the text they will be matched against (the metric's tokenizer and
 * case), interned into a {@link Vocabulary} and stored as nodes of a {@link PhraseTrie}; a phrase shorter than
 * `minWords` tokens is left out of the table (a pair loses that side, a pivot group that member). Pivots are kept
 * only as trie nodes of their own token ids. Nothing but typed arrays and the vocabulary's token strings stays in
 * memory, whatever the size of the file.
 */
import { badOption, InputError } from '../../errors.js';
import { tokenHash, Vocabulary } from '../intern.js';
import { bleuScan, getTokenScanner, TokenBounds, type TokenizerName, type TokenScanner } from '../tokenizers/index.js';
import { PhraseTrie } from './phrase-trie.js';
import {
  checkParaphraseFormat,
  detectParaphraseFormat,
  parseTableLine,
  type ParaphraseFormat,
  type ResolvedParaphraseFormat,
} from './table-format.js';

/** How a table is read. */
export interface ParaphraseTableOptions {
  /** Line format. @default 'auto' */
  readonly format?: ParaphraseFormat;
  /** Leave out phrases of fewer tokens (seed 001 §4.2). @default 1 */
  readonly minWords?: number;
  /** Lowercase phrases (Python `str.lower()`); the metric lowercases its text the same way. @default false */
  readonly lowercase?: boolean;
  /** Tokenizer applied to every phrase, and by the metric to its text. @default '13a' */
  readonly tokenize?: TokenizerName;
}

/** Where a table came from and what it holds; the metric's signature quotes `name`, `sha256`, `format`. */
export interface ParaphraseTableInfo {
  /** The name the table goes by (its file's base name, or the name given). */
  readonly name: string;
  /** SHA-256 of the table's bytes, lowercase hex. */
  readonly sha256: string;
  /** The format it was read as. */
  readonly format: ResolvedParaphraseFormat;
  readonly minWords: number;
  readonly lowercase: boolean;
  readonly tokenize: TokenizerName;
  /** Lines read. */
  readonly lines: number;
  /** Lines that paired two phrases (before `minWords`). */
  readonly entries: number;
  /** PPDB rules skipped for holding nonterminals. */
  readonly skippedRules: number;
  /** Distinct phrases kept. */
  readonly phrases: number;
  /** Paraphrase sets. */
  readonly sets: number;
}

/** Checks table options and fills in the defaults. @throws InputError `E_BAD_OPTION`, `E_UNKNOWN_TOKENIZER`. */
export function resolveTableOptions(options: ParaphraseTableOptions): Required<ParaphraseTableOptions> {
  const minWords = options.minWords ?? 1;
  if (!Number.isSafeInteger(minWords) || minWords < 1) throw badOption('minWords', 'an integer >= 1', minWords);
  const lowercase = options.lowercase ?? false;
  if (typeof lowercase !== 'boolean') throw badOption('lowercase', 'a boolean', lowercase);
  const tokenize = options.tokenize ?? '13a';
  getTokenScanner(tokenize);
  return { format: checkParaphraseFormat(options.format ?? 'auto'), minWords, lowercase, tokenize };
}

/** A finished, immutable paraphrase table (see the file comment). */
export class ParaphraseTable {
  /** Token ids of the phrases (the metric extends them with its text's other words, without changing these). */
  readonly vocab: Vocabulary;
  /** The phrases as trie nodes. */
  readonly trie: PhraseTrie;
  /** Set id of every trie node, -1 for nodes that are only prefixes. */
  readonly setOf: Int32Array;
  /** Tokens of the longest phrase. */
  readonly maxLength: number;
  readonly info: ParaphraseTableInfo;
  private readonly scanner: TokenScanner;

  /** @internal Built by {@link ParaphraseTableBuilder.finish}. */
  constructor(vocab: Vocabulary, trie: PhraseTrie, setOf: Int32Array, maxLength: number, info: ParaphraseTableInfo) {
    this.vocab = vocab;
    this.trie = trie;
    this.setOf = setOf;
    this.maxLength = maxLength;
    this.info = info;
    this.scanner = getTokenScanner(info.tokenize);
  }

  /** Number of paraphrase sets (set ids are `0 .. setCount - 1`). */
  get setCount(): number {
    return this.info.sets;
  }

  /** The set of `phrase` (tokenized and cased as the table's phrases), or -1 when the table does not hold it. */
  setOfPhrase(phrase: string): number {
    const bounds = new TokenBounds();
    const source = bleuScan(phrase, this.scanner, this.info.lowercase, bounds);
    if (bounds.count === 0) return -1;
    let node = 0;
    for (let k = 0; k < bounds.count && node >= 0; k++) {
      const id = this.vocab.findRange(source, bounds.start(k), bounds.end(k), tokenHash(source, bounds.start(k), bounds.end(k)));
      node = id < 0 ? -1 : this.trie.child(node, id);
    }
    return node < 0 ? -1 : this.setOf[node];
  }

  /** Every set as its phrases (tokens joined by spaces), sets and phrases in order of first appearance. */
  sets(): string[][] {
    const out: string[][] = Array.from({ length: this.setCount }, () => []);
    for (let node = 1; node < this.setOf.length; node++) {
      const s = this.setOf[node];
      if (s >= 0) out[s].push(Array.from(this.trie.phrase(node), (id) => this.vocab.token(id)).join(' '));
    }
    return out;
  }
}

/** Reads a table line by line (in any number of pieces) and builds its {@link ParaphraseTable}. */
export class ParaphraseTableBuilder {
  private readonly options: Required<ParaphraseTableOptions>;
  private readonly scanner: TokenScanner;
  private readonly bounds = new TokenBounds();
  private readonly ids: number[] = [];
  private format: ResolvedParaphraseFormat | undefined;
  private readonly vocab = new Vocabulary();
  private readonly trie = new PhraseTrie();
  /** Union-find parent of each trie node (meaningful for phrase nodes). */
  private parent = new Int32Array(256);
  /** 1 for trie nodes that are phrases of the table. */
  private isPhrase = new Uint8Array(256);
  private readonly pivotVocab = new Vocabulary();
  private readonly pivots = new PhraseTrie();
  /** A phrase node of each pivot's group + 1 (0: none yet). */
  private pivotMember = new Int32Array(256);
  private lines = 0;
  private entries = 0;
  private skippedRules = 0;
  private maxLength = 0;

  /** @throws InputError `E_BAD_OPTION`, `E_UNKNOWN_TOKENIZER` for bad options. */
  constructor(options: ParaphraseTableOptions = {}) {
    this.options = resolveTableOptions(options);
    this.scanner = getTokenScanner(this.options.tokenize);
    if (this.options.format !== 'auto') this.format = this.options.format;
  }

  /**
   * Adds one line (without its terminator; a trailing `'\r'` is ignored).
   * @param file name for error messages
   * @param line 1-based line number for error messages
   * @throws InputError `E_BAD_INPUT` naming `file` and `line` for a malformed line.
   */
  addLine(text: string, file: string, line: number): void {
    this.lines++;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    try {
      this.format ??= detectParaphraseFormat(text);
      if (this.format === undefined) return;
      const parsed = parseTableLine(text, this.format);
      if (parsed.kind === 'skip') {
        if (parsed.why === 'nonterminal') this.skippedRules++;
        return;
      }
      this.entries++;
      if (this.format === 'moses') this.addToPivot(parsed.first, parsed.second);
      else {
        const a = this.phraseNode(parsed.first);
        const b = this.phraseNode(parsed.second);
        if (a >= 0 && b >= 0) this.union(a, b);
      }
    } catch (err) {
      if (err instanceof InputError && err.file === undefined) throw new InputError(err.code, err.message, { file, line });
      throw err;
    }
  }

  /**
   * The finished table.
   * @param name what the signature calls the table
   * @param sha256 hex digest of the table's bytes
   */
  finish(name: string, sha256: string): ParaphraseTable {
    const size = this.trie.size;
    const setOf = new Int32Array(size).fill(-1);
    const rootSet = new Int32Array(size).fill(-1);
    let sets = 0;
    let phrases = 0;
    for (let node = 1; node < size; node++) {
      if (this.isPhrase[node] === 0) continue;
      phrases++;
      const root = this.find(node);
      if (rootSet[root] < 0) rootSet[root] = sets++;
      setOf[node] = rootSet[root];
    }
    const { minWords, lowercase, tokenize } = this.options;
    return new ParaphraseTable(this.vocab, this.trie, setOf, this.maxLength, {
      name,
      sha256,
      format: this.format ?? (this.options.format === 'auto' ? 'tsv' : this.options.format),
      minWords,
      lowercase,
      tokenize,
      lines: this.lines,
      entries: this.entries,
      skippedRules: this.skippedRules,
      phrases,
      sets,
    });
  }

  /** The trie node of `phrase` (registered as a phrase), or -1 when it is shorter than `minWords`. */
  private phraseNode(phrase: string): number {
    const { bounds, ids } = this;
    const source = bleuScan(phrase, this.scanner, this.options.lowercase, bounds);
    if (bounds.count === 0) throw new InputError('E_BAD_INPUT', `phrase ${JSON.stringify(phrase)} has no tokens`);
    if (bounds.count < this.options.minWords) return -1;
    ids.length = 0;
    for (let k = 0; k < bounds.count; k++) {
      const start = bounds.start(k);
      const end = bounds.end(k);
      ids.push(this.vocab.idOfRange(source, start, end, tokenHash(source, start, end)));
    }
    const node = this.trie.add(ids, 0, ids.length);
    if (node >= this.parent.length) {
      const capacity = Math.max(this.parent.length * 2, this.trie.size);
      const parent = new Int32Array(capacity);
      parent.set(this.parent);
      this.parent = parent;
      const isPhrase = new Uint8Array(capacity);
      isPhrase.set(this.isPhrase);
      this.isPhrase = isPhrase;
    }
    if (this.isPhrase[node] === 0) {
      this.isPhrase[node] = 1;
      this.parent[node] = node;
      if (ids.length > this.maxLength) this.maxLength = ids.length;
    }
    return node;
  }

  /** Joins `target` to the set of the other targets of `pivot` (the pivot's tokens are its whitespace split). */
  private addToPivot(pivot: string, target: string): void {
    const node = this.phraseNode(target);
    if (node < 0) return;
    let p = 0;
    for (const token of pivot.split(/\s+/)) {
      if (token !== '') p = this.pivots.childOrAdd(p, this.pivotVocab.id(token));
    }
    if (p >= this.pivotMember.length) {
      const grown = new Int32Array(Math.max(this.pivotMember.length * 2, this.pivots.size));
      grown.set(this.pivotMember);
      this.pivotMember = grown;
    }
    if (this.pivotMember[p] === 0) this.pivotMember[p] = node + 1;
    else this.union(this.pivotMember[p] - 1, node);
  }

  private find(node: number): number {
    const { parent } = this;
    while (parent[node] !== node) {
      parent[node] = parent[parent[node]];
      node = parent[node];
    }
    return node;
  }

  private union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    // The older node stays the root, so set ids follow first appearance after path compression too.
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }
}
