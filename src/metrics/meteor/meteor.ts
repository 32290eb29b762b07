/**
 * METEOR exactly as NLTK 3.8 computes it (`nltk.translate.meteor_score.meteor_score` with its defaults): words
 * lowercased (`str.lower`), then aligned in three stages, each over the words the previous ones left, each walking
 * the hypothesis from its last word back and pairing a word with the last remaining reference word that matches it:
 * exact matches, then matches of Porter stems (`PorterStemmer()`, NLTK_EXTENSIONS), then WordNet 3.0 synonyms — and,
 * as in NLTK, the synonym stage compares the *stems* the second stage left (./wordnet.ts: a stem's synonyms are the
 * lemma names without an underscore of the synsets `morphy` finds for it in any part of speech, and the stem itself).
 * With m matches, P = m / hypothesis words, R = m / reference words, Fmean = P·R / (α·P + (1 − α)·R), and with the
 * matches sorted by hypothesis position, chunks = runs consecutive on both sides: score = (1 − γ·(chunks / m)^β)·Fmean;
 * 0 where NLTK divides by zero (no match, or an empty side). Several references: the best score.
 *
 * NLTK has no corpus METEOR; the corpus score here is the mean of the line values (what the goldens call
 * `meteor_mean_over_segments`), so rows hold each line's value and a count.
 *
 * Tokens: see ../nltk-text/settings.ts (`-tok`, default 13a, then `str.split()`).
 *
 * Statistics row (width 2): `meteor, lines` (the line's METEOR, 1).
 */
import { badOption } from '../../errors.js';
import { pyLower } from '../../text/pystr.js';
import { nltkPorterStem } from '../../text/rouge/porter-nltk.js';
import { bleuScan, getTokenScanner, TokenBounds, type TokenScanner } from '../../text/tokenizers/index.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import { nltkTextDefaults, nltkTextSignatureFields, type NltkTextSettings } from '../nltk-text/settings.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';
import type { Csr } from '../../text/csr.js';
import { tokenHash, Vocabulary } from '../../text/intern.js';
import { MeteorAligner, type AlignerReferences } from '../../wasm/meteor-align.js';
import { NameTable } from '../../wasm/name-table.js';
import { WORD_MAY_HAVE_SYNONYMS, Words13aGrowing } from '../../wasm/words-13a.js';
import { synonymFilter, visitSynonyms } from './wordnet.js';

/** Options of {@link Meteor}; the defaults are NLTK's. */
export interface MeteorOptions extends NltkTextSettings {
  /** Weight of precision against recall in Fmean. @default 0.9 */
  readonly alpha?: number;
  /** Exponent of the fragmentation. @default 3 */
  readonly beta?: number;
  /** Weight of the fragmentation penalty. @default 0.5 */
  readonly gamma?: number;
}

/** Column names of a METEOR statistics row. */
export const METEOR_STATS_COLUMNS = ['meteor', 'lines'] as const;

/** References as prepared: reference `j` of segment `i` is `lines[i][j]`. */
export interface MeteorReferences extends PreparedReferences {
  readonly lines: readonly (readonly ReferenceWords[])[];
}

/**
 * A reference line's lowercased words as ids, their stem ids (-1 until a stage first needs one) and per position the
 * previous position of the same word (the exact stage takes a word's positions from the last back). The lines of one
 * {@link Meteor.prepareReferences} lie back to back in one array, in segment order: scoring a system walks it from
 * the start to the end, which the memory system streams, where one small array per line is a separate object
 * somewhere on the heap.
 */
export class ReferenceWords {
  /** Number of words. */
  readonly length: number;
  /** The line's word ids, a view for readers; the alignment reads {@link data} at {@link at}. */
  readonly words: Int32Array;
  /**
   * The array the block is in: from {@link at}, word ids at [0, length), stem ids at [length, 2·length), previous
   * positions (-1: none) at [2·length, 3·length).
   */
  readonly data: Int32Array;
  /** Where the block starts in {@link data}. */
  readonly at: number;

  /** The block of `ids` at `data[at]`, {@link blockSize} entries, written here. */
  constructor(ids: Int32Array, data: Int32Array, at: number) {
    const m = ids.length;
    this.length = m;
    this.data = data;
    this.at = at;
    this.words = data.subarray(at, at + m);
    data.set(ids, at);
    data.fill(-1, at + m, at + 2 * m);
    let last = lastPositions;
    for (let j = 0; j < m; j++) {
      const id = ids[j];
      if (id >= last.length) last = lastPositions = withRoom(last, id + 1, -1);
      data[at + 2 * m + j] = last[id];
      last[id] = j;
    }
    for (let j = 0; j < m; j++) last[ids[j]] = -1;
  }
}

/** Per word id, its last position in the line a {@link ReferenceWords} is being built of (-1 between lines). */
let lastPositions = new Int32Array(256).fill(-1);

/** Entries of the block of a reference line of `m` words (see {@link ReferenceWords.data}). */
function blockSize(m: number): number {
  return 3 * m;
}

/** The reference lines `lines` laid out back to back in one array, in order. */
function referenceBlocks(lines: readonly Int32Array[]): ReferenceWords[] {
  let size = 0;
  for (const ids of lines) size += blockSize(ids.length);
  const data = new Int32Array(size);
  const out: ReferenceWords[] = [];
  let at = 0;
  for (const ids of lines) {
    out.push(new ReferenceWords(ids, data, at));
    at += blockSize(ids.length);
  }
  return out;
}

/** `refs` as the alignment kernel reads them: one array of blocks and per segment and reference [start, words]. */
function alignerReferences(refs: MeteorReferences): AlignerReferences {
  const blocks = refs.lines.flat();
  // The blocks of one prepareReferences share one array; others are laid out again.
  const shared = blocks.length > 0 && blocks.every((b) => b.data === blocks[0].data);
  const data = shared ? blocks[0].data : referenceBlocks(blocks.map((b) => b.data.slice(b.at, b.at + b.length)))[0]?.data ?? new Int32Array(0);
  const index = new Int32Array(2 * blocks.length);
  let at = 0;
  let longest = 0;
  let words = 0;
  for (let k = 0; k < blocks.length; k++) {
    const b = blocks[k];
    words += b.length;
    index[2 * k] = shared ? b.at : at;
    index[2 * k + 1] = b.length;
    at += blockSize(b.length);
    longest = Math.max(longest, b.length);
  }
  return { data, index, nRefs: refs.lines.length > 0 ? refs.lines[0].length : 0, longest, words };
}

/** `ids` when it holds `n` entries, else a copy of it with room for twice `n`, the entries past it set to `fill`. */
function withRoom(ids: Int32Array<ArrayBuffer>, n: number, fill = 0): Int32Array<ArrayBuffer> {
  if (ids.length >= n) return ids;
  const grown = new Int32Array(2 * n);
  grown.set(ids);
  if (fill !== 0) grown.fill(fill, ids.length);
  return grown;
}

/**
 * Whether `name` is made only of the characters whose lowercase the kernel knows (assembly/meteor-words.ts: ASCII,
 * Latin-1, general punctuation), whatever its length: such a name goes to the kernel's name table, any other to the
 * TypeScript one, so that one string always has one entry.
 */
function kernelCanName(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 0xff && (c < 0x2000 || c > 0x206f)) return false;
  }
  return true;
}

/** UTF-16 units of text (about a hundred lines) from which a batch creates {@link Meteor}'s kernel instance. */
const KERNEL_INSTANCE_UNITS = 16384;

/** Matches below which {@link Meteor}'s fragmentation penalties are memoized. */
const PENALTY_MEMO_MATCHES = 64;

/** The synonyms of a stem that has none but itself. */
const NO_SYNONYMS = new Int32Array(0);

/** A stem's synonym state once it is known to have no synonym but itself. */
const SYNONYMS_NONE = 1;
/** A stem's synonym state once its synonyms are in {@link Meteor.synonymIds}. */
const SYNONYMS_SOME = 2;

/**
 * NLTK's `_count_chunks` over the matches in hypothesis order (`refOf[i]` the reference position of hypothesis word
 * i, or -1): a match starts a chunk unless the word before it is matched with the reference word before its own.
 * Counted as matches less continuations, in arithmetic rather than branches: whether a word is matched follows no
 * pattern a branch predictor could learn.
 */
function countChunks(refOf: Int32Array, n: number): number {
  let chunks = 0;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const r = refOf[i];
    // A match: r ≥ 0, the sign bit of ~r. A continuation: r ≥ 1 (the sign bit of ~(r − 1)) and prev = r − 1 (then
    // prev ≥ 0, a match), where d = prev − (r − 1) is 0, the one d for which |d| − 1 is negative.
    const d = prev - r + 1;
    chunks += ((~r >>> 31) - ((~(r - 1) >>> 31) & (((d ^ (d >> 31)) - (d >> 31) - 1) >>> 31))) | 0;
    prev = r;
  }
  return chunks;
}

/** NLTK 3.8 METEOR (see the file comment). */
export class Meteor implements Metric<MeteorReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'meteor';
  /** 2. */
  readonly statsWidth = 2;
  /** {@link METEOR_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = METEOR_STATS_COLUMNS;
  /** α. */
  readonly alpha: number;
  /** β. */
  readonly beta: number;
  /** γ. */
  readonly gamma: number;
  /** The tokenizer before `str.split()`. */
  readonly tokenize: string;
  /** Whether lines are lowercased before tokenizing (the words are lowercased in any case). */
  readonly lowercase: boolean;
  private readonly scanner: TokenScanner;
  private readonly bounds = new TokenBounds();
  /**
   * Tokens as written, for the tokenizers the WebAssembly kernel does not run: a line's tokens are looked up from
   * their spans of the line (no string cut out per token), and each new one is lowercased once (tokens recur across
   * lines).
   */
  private readonly written = new Vocabulary();
  /** Id of a token as written (in {@link written}) → the id of its lowercased word. */
  private writtenWords = new Int32Array(256);
  /**
   * Whether lines are tokenized and interned by the words-13a kernel (13a, not lowercased first), a batch of lines
   * per call, into the ids of {@link kernelVocab}.
   */
  private readonly kernel13a: boolean;
  /**
   * The kernel's vocabulary of tokens as written, grown by every batch, in a kernel instance of its own (created on
   * first use): it stays there between batches.
   */
  private kernelVocab: Words13aGrowing | undefined = undefined;
  /** Kernel token id → the id of its lowercased word: a token's string is read and lowercased once, when it is new. */
  private kernelWords = new Int32Array(256);
  /** Kernel token ids below this have words with stems (see {@link alignBatch}). */
  private stemmedTokens = 0;
  /**
   * The alignment kernel's instance (created with the first batch of kernel rows): it aligns and values the lines of
   * such a batch in one call, from copies of this object's tables it is given as they grow.
   */
  private aligner: MeteorAligner | undefined = undefined;
  /** The references the aligner was last given, as it reads them. */
  private alignerRefs: { of: MeteorReferences; refs: AlignerReferences } | undefined = undefined;
  /**
   * Lowercased word, stem or WordNet lemma name → its entry in {@link nameWords} and {@link nameStems}: one table for
   * words and stems, since most words are their own stem, which is then found instead of added a second time. Once
   * the kernel's name table exists ({@link kernelNames}), only names it cannot hold are here.
   */
  private readonly names = new Map<string, number>();
  /** Entries so far (of {@link names} and of the kernel's name table). */
  private entries = 0;
  /**
   * The kernel's table of words and stems (made with {@link kernelVocab}): names of the characters the kernel's words
   * are made of go there, others to {@link names}.
   */
  private kernelNames: NameTable | undefined = undefined;
  /** Kernel name id → its entry (-1: none yet), and entry → its kernel name id (-1: a name of {@link names}). */
  private kernelNameEntries = new Int32Array(256).fill(-1);
  private entryKernelNames = new Int32Array(256).fill(-1);
  /** The kernel name ids of a batch's new tokens' words and stems, and one id. */
  private kernelIds = new Int32Array(256);
  private readonly oneId = new Int32Array(1);
  /** Entry → the id of the word it names, or -1. */
  private nameWords = new Int32Array(256).fill(-1);
  /** Entry → the id of the stem it names, or -1. */
  private nameStems = new Int32Array(256).fill(-1);
  /** Word id → its string ('' until read, for a word of the kernel's name table: see {@link wordName}). */
  private readonly wordNames: string[] = [];
  /** Word id → its entry (of {@link names} or of the kernel's name table). */
  private wordEntries = new Int32Array(256);
  /**
   * Word id → the id of its Porter stem, or -1 until a stage needs it: a word every line matches exactly is never
   * stemmed. As long as the vocabulary at least (grown as words are added).
   */
  private wordStems = new Int32Array(256).fill(-1);
  /** Stem id → the stem ids of its synonyms other than itself (found on first need; one entry per stem). */
  private readonly synonymIds: Int32Array[] = [];
  /**
   * Stem id → 0 until its synonyms are looked up, then {@link SYNONYMS_NONE} or {@link SYNONYMS_SOME}: most stems
   * have none, and a byte says so.
   */
  private synonymState = new Uint8Array(256);
  /** Stem id → 1 when the kernel's synonym filter turned its stem away (as long as {@link synonymState}). */
  private filteredOut = new Uint8Array(256);
  /** Stem id → its string ('' until read, for a stem of the kernel's name table: see {@link stemName}). */
  private readonly stemNames: string[] = [];
  /** Stem id → its entry. */
  private stemEntries = new Int32Array(256);
  /** {@link alignBatch}'s list of stems looked up, or of the kernel's needs and the stems found for them. */
  private scratch = new Int32Array(256);
  /** The synonyms of a stem being looked up ({@link synonymsOf}), before they are copied to an array of their own. */
  private synonymScratch = new Int32Array(64);
  /** The names a synonym look-up visited, and their kernel name ids. */
  private readonly synonymNames: string[] = [];
  private synonymIdsOf = new Int32Array(64);
  /** How many of {@link synonymScratch} the look-up has found. */
  private synonymsFound = 0;
  /** Per stem id, the {@link synonymStamp} of the last look-up that found it. */
  private synonymSeen = new Int32Array(256);
  private synonymStamp = 0;
  /** The word ids of the line scanned last ({@link scanIds}). */
  private lineIds = new Int32Array(256);
  /** Per hypothesis position, the reference position it is matched with, or -1. */
  private hypRefOf = new Int32Array(64);
  /** Per reference position, the alignment's {@link stamp} once its exact stage has taken it. */
  private refTaken = new Int32Array(64);
  /**
   * Per word id w, [stamp, position] at 2w: once the stamp is the line's {@link stamp}, the position of the word that
   * the exact stage takes next (-1: none left). As long as twice the vocabulary at least (grown as words are added).
   */
  private wordMarks = new Int32Array(512);
  /** The hypothesis positions the exact stage left, in order, and their stems. */
  private hypLeft = new Int32Array(64);
  private hypStems = new Int32Array(64);
  /** The reference positions the exact stage left, in order. */
  private refLeft = new Int32Array(64);
  /** Per reference word left, the place in that list of the previous one with the same stem (-1: none). */
  private refPrev = new Int32Array(64);
  /**
   * Per stem id, [stamp, place]: the stem stage's index of the reference stems left, valid where the stamp is the
   * current line's {@link stamp} (so it is never cleared between lines). As long as twice the stems at least.
   */
  private stemMarks = new Int32Array(512);
  /**
   * The fragmentation penalty γ·(chunks / matches)^β by (matches, chunks) for fewer than
   * {@link PENALTY_MEMO_MATCHES} matches, NaN until first needed: a line's value otherwise costs a power, and the
   * same few pairs recur on most lines.
   */
  private readonly penalties = new Float64Array((PENALTY_MEMO_MATCHES * (PENALTY_MEMO_MATCHES + 1)) >> 1).fill(NaN);
  /**
   * Counts the alignments: what {@link wordMarks}, {@link refTaken} and {@link stemMarks} entries of the current one
   * carry.
   */
  private stamp = 0;

  /** @throws InputError `E_BAD_OPTION` for α outside [0, 1], a non-finite β or γ, or an unknown tokenizer. */
  constructor(options: MeteorOptions = {}) {
    this.alpha = options.alpha ?? 0.9;
    this.beta = options.beta ?? 3;
    this.gamma = options.gamma ?? 0.5;
    if (typeof this.alpha !== 'number' || !(this.alpha >= 0 && this.alpha <= 1)) throw badOption('METEOR alpha', 'a number in [0, 1]', this.alpha);
    if (typeof this.beta !== 'number' || !Number.isFinite(this.beta)) throw badOption('METEOR beta', 'a finite number', this.beta);
    if (typeof this.gamma !== 'number' || !Number.isFinite(this.gamma)) throw badOption('METEOR gamma', 'a finite number', this.gamma);
    ({ tokenize: this.tokenize, lowercase: this.lowercase } = nltkTextDefaults(options));
    this.scanner = getTokenScanner(this.tokenize);
    this.kernel13a = this.tokenize === '13a' && !this.lowercase;
  }

  /** `nrefs:1|tok:13a|alpha:0.9|beta:3|gamma:0.5|version:…` (case: METEOR lowercases). */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        ...nltkTextSignatureFields(this, false),
        { key: 'alpha', abbr: 'a', value: this.alpha },
        { key: 'beta', abbr: 'b', value: this.beta },
        { key: 'gamma', abbr: 'g', value: this.gamma },
      ],
      short,
    );
  }

  /**
   * Each reference as lowercased words.
   * @throws InputError `E_EMPTY_INPUT` without streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): MeteorReferences {
    const segments = checkReferenceStreams('METEOR', refStreams);
    const nRefs = refStreams.length;
    // Segment by segment, reference after reference: the order in which segmentStats reads them.
    const ids: Int32Array[] = [];
    const flat: string[] = [];
    if (this.kernel13a) for (let i = 0; i < segments; i++) for (let j = 0; j < nRefs; j++) flat.push(refStreams[j][i]);
    if (this.kernel13a && this.kernelTakes(flat)) {
      const rows = this.kernelRows(flat);
      const words = this.kernelWords;
      // Every line's word ids in one array, each line a view of it: one backing store, not one per line.
      const first = rows.offsets[0];
      const all = new Int32Array(rows.offsets[flat.length] - first);
      for (let k = 0; k < all.length; k++) all[k] = words[rows.tokens[first + k]];
      for (let row = 0; row < flat.length; row++) ids.push(all.subarray(rows.offsets[row] - first, rows.offsets[row + 1] - first));
    } else {
      for (let i = 0; i < segments; i++) {
        for (let j = 0; j < nRefs; j++) {
          // Scanned first: a long line replaces lineIds with a larger array.
          const n = this.scanIds(refStreams[j][i]);
          ids.push(this.lineIds.slice(0, n));
        }
      }
    }
    const blocks = referenceBlocks(ids);
    const lines: ReferenceWords[][] = [];
    for (let i = 0; i < segments; i++) lines.push(blocks.slice(i * nRefs, (i + 1) * nRefs));
    return { segments, lines };
  }

  /**
   * One row per hypothesis: `[meteor_score, 1]`.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: MeteorReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    const out = new Float64Array(hyps.length * 2);
    const rows = this.kernel13a && this.kernelTakes(hyps) ? this.kernelRows(hyps) : undefined;
    if (rows !== undefined && hyps.length > 0) {
      this.alignBatch(rows, refs, out);
      return out;
    }
    for (let s = 0; s < hyps.length; s++) {
      const n = rows === undefined ? this.scanIds(hyps[s]) : this.rowIds(rows, s);
      let best = -Infinity;
      const rw = refs.lines[s];
      for (let j = 0; j < rw.length; j++) {
        const score = this.single(n, rw[j]);
        if (score > best) best = score;
      }
      out[2 * s] = best;
      out[2 * s + 1] = 1;
    }
    return out;
  }

  /** Corpus METEOR: the mean of the line values. */
  scoreFromStats(totals: Float64Array): MetricScore {
    checkStatsWidth('METEOR', totals, 2);
    const [sum, lines] = totals;
    return { name: 'METEOR', score: sum / lines, verboseScore: `(lines = ${lines})`, details: { lines } };
  }

  /** Sentence METEOR from one row. */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    checkStatsWidth('METEOR', row, 2);
    return { name: 'METEOR', score: row[0] / row[1], verboseScore: '', details: {} };
  }

  /**
   * `single_meteor_score(reference, hypothesis)` for the `n` words of {@link lineIds}. Each stage walks the
   * hypothesis words it has left from the last back and pairs each with the last reference word left that matches
   * it, which is what NLTK's pops from its lists of remaining words do. A stage only takes reference words, so those
   * equal to a given one go from the last back: the exact stage follows, per word, a mark in {@link wordMarks}
   * along the reference's chain of the word's positions from the last, and the stem stage the same over the stems
   * left, indexed for the line in {@link stemMarks}. The stem and synonym stages see only the words the exact stage
   * left, so only those are stemmed.
   */
  private single(n: number, ref: ReferenceWords): number {
    const m = ref.length;
    // NLTK returns 0.0 on a ZeroDivisionError: an empty side, or no match (Fmean's denominator is then 0).
    if (n === 0 || m === 0) return 0;
    if (this.hypRefOf.length < n) {
      this.hypRefOf = new Int32Array(2 * n);
      this.hypLeft = new Int32Array(2 * n);
      this.hypStems = new Int32Array(2 * n);
    }
    if (this.refTaken.length < m) {
      this.refTaken = new Int32Array(2 * m);
      this.refLeft = new Int32Array(2 * m);
      this.refPrev = new Int32Array(2 * m);
    }
    if (this.stamp === 0x7fffffff) {
      this.stemMarks.fill(0);
      this.wordMarks.fill(0);
      this.refTaken.fill(0);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    const hw = this.lineIds;
    const rw = ref.data;
    const at = ref.at;
    const refOf = this.hypRefOf;
    const taken = this.refTaken;
    const wordMarks = this.wordMarks;
    // Per word its last position (the last written); the block chains each position to the previous one of its word.
    for (let j = 0; j < m; j++) {
      const w = rw[at + j];
      wordMarks[2 * w] = stamp;
      wordMarks[2 * w + 1] = j;
    }
    const chainAt = at + 2 * m;
    let matches = 0;
    for (let i = n - 1; i >= 0; i--) {
      const w = hw[i];
      const j = wordMarks[2 * w] === stamp ? wordMarks[2 * w + 1] : -1;
      refOf[i] = j;
      if (j >= 0) {
        wordMarks[2 * w + 1] = rw[chainAt + j];
        // Taken by this alignment: the stamp, so that nothing is cleared between alignments.
        taken[j] = stamp;
        matches++;
      }
    }
    // Stages over no word left on either side find nothing.
    if (matches === n || matches === m) return this.value(matches, n, m);
    const hypLeft = this.hypLeft;
    const hs = this.hypStems;
    const refLeft = this.refLeft;
    const wordStems = this.wordStems;
    let hl = 0;
    for (let i = 0; i < n; i++) {
      if (refOf[i] >= 0) continue;
      const w = hw[i];
      const stem = wordStems[w];
      hypLeft[hl] = i;
      hs[hl++] = stem >= 0 ? stem : this.stemOf(w);
    }
    const stemsAt = at + m;
    for (let j = 0; j < m; j++) {
      if (taken[j] === stamp || rw[stemsAt + j] >= 0) continue;
      rw[stemsAt + j] = this.stemOf(rw[at + j]);
    }
    // The stems left, indexed: stemMarks[2·stem] is this line's stamp once the stem is among them, and then
    // stemMarks[2·stem + 1] its last place in the list left not yet taken; refPrev chains its earlier places.
    // (Read after the stemming above, which may grow it.)
    const marks = this.stemMarks;
    const prev = this.refPrev;
    let rl = 0;
    for (let j = 0; j < m; j++) {
      if (taken[j] === stamp) continue;
      const stem = rw[stemsAt + j];
      refLeft[rl] = j;
      if (marks[2 * stem] !== stamp) {
        marks[2 * stem] = stamp;
        prev[rl] = -1;
      } else prev[rl] = marks[2 * stem + 1];
      marks[2 * stem + 1] = rl++;
    }
    let refsLeft = rl;
    for (let a = hl - 1; a >= 0; a--) {
      const stem = hs[a];
      if (marks[2 * stem] !== stamp) continue;
      const b = marks[2 * stem + 1];
      if (b < 0) continue;
      marks[2 * stem + 1] = prev[b];
      refOf[hypLeft[a]] = refLeft[b];
      matches++;
      refsLeft--;
    }
    if (matches === n || refsLeft === 0) return this.value(matches, n, m);
    // A stem's synonyms always include the stem itself, which no reference word left has (the stem stage took
    // those): only the others can match, and most stems have none. The reference word a hypothesis word takes is
    // the last one left whose stem is among its synonyms: per synonym among the stems left, the last place of that
    // stem not yet taken is the head of its chain in stemMarks (every stage takes heads only), and the greatest of
    // those is the word.
    const state = this.synonymState;
    for (let a = hl - 1; a >= 0 && refsLeft > 0; a--) {
      if (refOf[hypLeft[a]] >= 0 || state[hs[a]] === SYNONYMS_NONE) continue;
      const syns = this.synonymsOf(hs[a]);
      // Read after the look-up, which may grow it.
      const heads = this.stemMarks;
      let best = -1;
      let bestStem = -1;
      for (let k = 0; k < syns.length; k++) {
        const stem = syns[k];
        if (heads[2 * stem] !== stamp) continue;
        const b = heads[2 * stem + 1];
        if (b > best) {
          best = b;
          bestStem = stem;
        }
      }
      if (best < 0) continue;
      heads[2 * bestStem + 1] = prev[best];
      refOf[hypLeft[a]] = refLeft[best];
      matches++;
      refsLeft--;
    }
    return this.value(matches, n, m);
  }

  /**
   * The rows of the kernel's `rows` against `refs` into `out`, aligned by the alignment kernel: it stops at a line
   * that needs a word's stem or a stem's synonyms not yet given to it, which are found here (as {@link single} finds
   * them) before it goes on from that line; the penalties it has no memo entry for it leaves to {@link valueOf}.
   */
  private alignBatch(rows: Csr, refs: MeteorReferences, out: Float64Array): void {
    const aligner = (this.aligner ??= new MeteorAligner(this.alpha));
    // Stems found before the first round: the kernel stops a line at a word without a stem and aligns it again from
    // its start once the stem is given, which in a new object's first batches (every word new) is most lines. The
    // words stemmed here are those the exact stage is sure to leave (a hypothesis word in no reference) and the
    // references' words, most of which some line leaves; a word that exact matches alone would take is not stemmed,
    // which is what made stemming every word dearer than the second round. Stem ids only name stems: no value changes.
    const newRefs = this.alignerRefs?.of !== refs;
    if (newRefs) this.stemReferences(refs);
    // Only tokens new since the last batch can have a word without a stem: every batch leaves the words of all the
    // tokens known then stemmed (those of the references by stemReferences, the others here). A token new here but
    // in no line of the batch (one of references prepared since) is stemmed too: rare, and it changes no value.
    const tokenWords = this.kernelWords;
    const inRefs = this.inReferences;
    const mark = this.referencesMark;
    const count = this.kernelVocab!.count;
    // The synonyms of those words' stems are looked up here too: the synonym stage needs them for a word no earlier
    // stage matched, which a word in no reference seldom is, and each line that asked for one would be aligned again.
    // Most stems take a filter look-up or two (./wordnet.ts mayHaveSynonyms).
    let looked = 0;
    for (let token = this.stemmedTokens; token < count; token++) {
      const word = tokenWords[token];
      // A word of the references is left to the kernel's needs; another word's stem (found with the token or now)
      // is looked up unless an earlier batch did.
      if (word < inRefs.length && inRefs[word] === mark) continue;
      const stem = this.stemOf(word);
      if (this.synonymState[stem] === 0) {
        this.synonymsOf(stem);
        this.scratch = withRoom(this.scratch, looked + 1);
        this.scratch[looked++] = stem;
      }
    }
    this.stemmedTokens = count;
    aligner.setWords(this.kernelWords, this.kernelVocab!.count, this.wordStems, this.wordNames.length);
    aligner.stemCount(this.stemNames.length);
    for (let k = 0; k < looked; k++) {
      const stem = this.scratch[k];
      if (!aligner.hasSynonyms(stem)) aligner.setSynonyms(stem, this.synonymsOf(stem));
    }
    if (newRefs || this.alignerRefs === undefined) this.alignerRefs = { of: refs, refs: alignerReferences(refs) };
    aligner.references(this.alignerRefs.refs);
    aligner.batch(rows);
    const lines = rows.offsets.length - 1;
    while (aligner.run() > 0) {
      // Stems first, then synonyms: either may add stems, which must have records before the kernel sees them.
      // The needs copied to the scratch's first half, the stems found for them in its second.
      const n = aligner.needCount();
      this.scratch = withRoom(this.scratch, 2 * n);
      const needs = this.scratch;
      aligner.needsInto(needs);
      for (let k = 0; k < n; k++) if (needs[k] >= 0) needs[n + k] = this.stemOf(needs[k]);
      for (let k = 0; k < n; k++) if (needs[k] < 0) this.synonymsOf(-1 - needs[k]);
      aligner.stemCount(this.stemNames.length);
      for (let k = 0; k < n; k++) {
        if (needs[k] >= 0) aligner.setStem(needs[k], needs[n + k]);
        else if (!aligner.hasSynonyms(-1 - needs[k])) aligner.setSynonyms(-1 - needs[k], this.synonymsOf(-1 - needs[k]));
      }
    }
    const values = aligner.values();
    for (let s = 0; s < lines; s++) {
      out[2 * s] = values[s];
      out[2 * s + 1] = 1;
    }
    const overflow = aligner.overflowRecords();
    if (overflow.length === 0) return;
    for (let r = 0; r < overflow.length; r += 5) {
      const line = overflow[r];
      const score = this.valueOf(overflow[r + 1], overflow[r + 2], overflow[r + 3], overflow[r + 4]);
      if (score > out[2 * line]) out[2 * line] = score;
    }
    aligner.setPenalties(this.penalties);
  }

  /** NLTK's score from the matches ({@link hypRefOf} holds them) of `n` hypothesis and `m` reference words. */
  private value(matches: number, n: number, m: number): number {
    if (matches === 0) return 0;
    return this.valueOf(matches, countChunks(this.hypRefOf, n), n, m);
  }

  /** NLTK's score from `matches` (at least one) in `chunks` chunks of `n` hypothesis and `m` reference words. */
  private valueOf(matches: number, chunks: number, n: number, m: number): number {
    const precision = matches / n;
    const recall = matches / m;
    const fmean = (precision * recall) / (this.alpha * precision + (1 - this.alpha) * recall);
    if (matches >= PENALTY_MEMO_MATCHES) return (1 - this.gamma * (chunks / matches) ** this.beta) * fmean;
    // 1 ≤ chunks ≤ matches: one entry per pair, the pairs of fewer matches first.
    const k = ((matches * (matches + 1)) >> 1) + chunks;
    let penalty = this.penalties[k];
    if (penalty !== penalty) this.penalties[k] = penalty = this.gamma * (chunks / matches) ** this.beta;
    return (1 - penalty) * fmean;
  }

  /**
   * A line's words (the tokenizer, `str.split()`, then `str.lower()` of each) as word ids, into {@link lineIds};
   * returns how many.
   */
  private scanIds(line: string): number {
    const source = bleuScan(line, this.scanner, this.lowercase, this.bounds);
    const b = this.bounds;
    const count = b.count;
    if (this.lineIds.length < count) this.lineIds = new Int32Array(2 * count);
    const words = this.lineIds;
    const bounds = b.bounds;
    for (let k = 0; k < count; k++) {
      const start = bounds[2 * k];
      const end = bounds[2 * k + 1];
      const hash = tokenHash(source, start, end);
      const token = this.written.findRange(source, start, end, hash);
      if (token >= 0) {
        words[k] = this.writtenWords[token];
        continue;
      }
      const added = this.written.idOfRange(source, start, end, hash);
      this.writtenWords = withRoom(this.writtenWords, added + 1);
      words[k] = this.writtenWords[added] = this.wordId(pyLower(this.written.token(added)));
    }
    return count;
  }

  /**
   * Whether the kernel reads `lines`: always once its instance exists (a call then costs little more than its
   * lines); before, only a batch large enough to pay for creating the instance (milliseconds, more with many
   * objects alive), so that an object made to score a sentence or two takes the general path. Both give a token the
   * id of its lowercased word, so the two may take turns.
   */
  private kernelTakes(lines: readonly string[]): boolean {
    if (this.kernelVocab !== undefined) return true;
    let units = 0;
    for (const line of lines) units += line.length;
    return units >= KERNEL_INSTANCE_UNITS;
  }

  /**
   * The kernel's token ids of `lines` (one row each; views valid until its next call), its vocabulary grown by
   * their new tokens, each of which is given here the id of its lowercased word in {@link kernelWords}.
   */
  private kernelRows(lines: readonly string[]): Csr {
    if (this.kernelVocab === undefined) {
      this.kernelVocab = new Words13aGrowing(true, synonymFilter());
      this.kernelNames = new NameTable();
      this.moveNamesToKernel();
    }
    const vocab = this.kernelVocab;
    const known = vocab.count;
    const rows = vocab.build(lines);
    if (vocab.count > known) {
      this.kernelWords = withRoom(this.kernelWords, vocab.count);
      // The kernel lowercased and stemmed most tokens already (WordFacts), and their words and stems go to the
      // kernel's name table in one call: those need neither a string, pyLower, Porter nor a Map look-up here.
      const { flags, units, starts } = vocab.wordFacts()!;
      const fresh = vocab.count - known;
      this.kernelIds = withRoom(this.kernelIds, 2 * fresh);
      const ids = this.kernelIds;
      this.kernelNames!.internUnits(units, starts, 2 * fresh, ids);
      for (let k = 0; k < fresh; k++) {
        const f = flags[k];
        if (f === 0) {
          this.kernelWords[known + k] = this.wordId(pyLower(vocab.token(known + k)));
          continue;
        }
        const entry = this.entryOfKernelName(ids[2 * k]);
        let word = this.nameWords[entry];
        if (word < 0) word = this.newWord(entry, '');
        this.kernelWords[known + k] = word;
        if (this.wordStems[word] >= 0) continue;
        const stem = this.stemIdAt(ids[2 * k + 1] < 0 ? entry : this.entryOfKernelName(ids[2 * k + 1]), '');
        this.wordStems[word] = stem;
        // The kernel's filter says most stems have no synonym: their look-up is then answered without a search.
        if ((f & WORD_MAY_HAVE_SYNONYMS) === 0 && this.synonymState[stem] === 0) this.filteredOut[stem] = 1;
      }
    }
    return rows;
  }

  /** Row `row` of the kernel's `rows` as word ids, into {@link lineIds}; returns how many. */
  private rowIds(rows: Csr, row: number): number {
    const from = rows.offsets[row];
    const n = rows.offsets[row + 1] - from;
    if (this.lineIds.length < n) this.lineIds = new Int32Array(2 * n);
    const ids = this.lineIds;
    const tokens = rows.tokens;
    const words = this.kernelWords;
    for (let k = 0; k < n; k++) ids[k] = words[tokens[from + k]];
    return n;
  }

  /** The id of lowercased word `lower`, added when new. */
  private wordId(lower: string): number {
    const entry = this.nameOf(lower);
    const known = this.nameWords[entry];
    return known >= 0 ? known : this.newWord(entry, lower);
  }

  /** A new word, named by `entry` (its string `lower`, or '' when the kernel's name table holds it). */
  private newWord(entry: number, lower: string): number {
    const word = this.wordNames.length;
    this.nameWords[entry] = word;
    this.wordNames.push(lower);
    this.wordEntries = withRoom(this.wordEntries, word + 1);
    this.wordEntries[word] = entry;
    this.wordStems = withRoom(this.wordStems, word + 1, -1);
    this.wordMarks = withRoom(this.wordMarks, 2 * (word + 1));
    return word;
  }

  /** Word `id` as a string. */
  private wordName(id: number): string {
    return this.named(this.wordNames, id, this.wordEntries[id]);
  }

  /** Stem `id` as a string. */
  private stemName(id: number): string {
    return this.named(this.stemNames, id, this.stemEntries[id]);
  }

  /** `strings[k]`, named by `entry`: read from the kernel's name table (once) while it is ''. */
  private named(strings: string[], k: number, entry: number): string {
    const kernelName = strings[k] === '' ? this.entryKernelNames[entry] : -1;
    return kernelName < 0 ? strings[k] : (strings[k] = this.kernelNames!.name(kernelName));
  }

  /**
   * Word id → {@link referencesMark} when some line of the references last given to the alignment kernel holds it
   * (words above its length: none). A new mark per set of references, so that one-line calls, each with references
   * of their own, need not clear it.
   */
  private inReferences = new Int32Array(0);
  private referencesMark = 0;

  /** Stems the words of `refs` that have none yet, and marks them in {@link inReferences}. */
  private stemReferences(refs: MeteorReferences): void {
    this.inReferences = withRoom(this.inReferences, this.wordNames.length);
    const inRefs = this.inReferences;
    const mark = ++this.referencesMark;
    for (const line of refs.lines) {
      for (const ref of line) {
        const ids = ref.data;
        for (let k = ref.at, end = ref.at + ref.length; k < end; k++) {
          inRefs[ids[k]] = mark;
          if (this.wordStems[ids[k]] < 0) this.stemOf(ids[k]);
        }
      }
    }
  }

  /** The stem id of word `id` (Porter, NLTK_EXTENSIONS), stemmed on first need. */
  private stemOf(id: number): number {
    let stem = this.wordStems[id];
    if (stem >= 0) return stem;
    const word = this.wordName(id);
    const found = nltkPorterStem(word, 'NLTK_EXTENSIONS', true);
    // Most words are their own stem (seven in ten of a German corpus): its entry is then the word's, no look-up.
    stem = found === word ? this.stemIdAt(this.wordEntries[id], found) : this.stemId(found);
    this.wordStems[id] = stem;
    return stem;
  }

  /**
   * The entry of word or stem `name`, added when new: in the kernel's name table once it exists, for a string of the
   * characters its words are made of ({@link kernelCanName}), else in {@link names}.
   */
  private nameOf(name: string): number {
    if (this.kernelNames !== undefined && name !== '' && kernelCanName(name)) {
      this.kernelNames.internStrings([name], 1, this.oneId);
      return this.entryOfKernelName(this.oneId[0]);
    }
    let entry = this.names.get(name);
    if (entry === undefined) {
      entry = this.newEntry();
      this.names.set(name, entry);
    }
    return entry;
  }

  /** A new entry, naming no word and no stem yet. */
  private newEntry(): number {
    const entry = this.entries++;
    this.nameWords = withRoom(this.nameWords, entry + 1, -1);
    this.nameStems = withRoom(this.nameStems, entry + 1, -1);
    this.entryKernelNames = withRoom(this.entryKernelNames, entry + 1, -1);
    return entry;
  }

  /** The entry of the kernel's name `id`, added when new. */
  private entryOfKernelName(id: number): number {
    if (id >= this.kernelNameEntries.length) this.kernelNameEntries = withRoom(this.kernelNameEntries, id + 1, -1);
    let entry = this.kernelNameEntries[id];
    if (entry < 0) {
      entry = this.kernelNameEntries[id] = this.newEntry();
      this.entryKernelNames[entry] = id;
    }
    return entry;
  }

  /**
   * When the kernel's name table is made: the entries named so far whose strings it can hold move there (an object
   * that first scored a few lines took the TypeScript way), so that a word or stem keeps its entry whichever way
   * it comes again.
   */
  private moveNamesToKernel(): void {
    const strings: string[] = [];
    const entries: number[] = [];
    for (const [name, entry] of this.names) {
      if (name === '' || !kernelCanName(name)) continue;
      strings.push(name);
      entries.push(entry);
    }
    if (strings.length === 0) return;
    const ids = new Int32Array(strings.length);
    this.kernelNames!.internStrings(strings, strings.length, ids);
    for (let k = 0; k < ids.length; k++) {
      this.kernelNameEntries = withRoom(this.kernelNameEntries, ids[k] + 1, -1);
      this.kernelNameEntries[ids[k]] = entries[k];
      this.entryKernelNames[entries[k]] = ids[k];
      this.names.delete(strings[k]);
    }
  }

  /** The id of stem (or WordNet lemma name) `stem`, added when new: the synonym stage compares synonyms with stems. */
  private stemId(stem: string): number {
    return this.stemIdAt(this.nameOf(stem), stem);
  }

  /** {@link stemId} of `stem` ('' when the kernel's name table holds it), whose entry is `name`. */
  private stemIdAt(name: number, stem: string): number {
    let id = this.nameStems[name];
    if (id < 0) {
      id = this.stemNames.length;
      this.nameStems[name] = id;
      this.stemNames.push(stem);
      this.stemEntries = withRoom(this.stemEntries, id + 1);
      this.stemEntries[id] = name;
      this.synonymIds.push(NO_SYNONYMS);
      if (id === this.synonymState.length) {
        const grown = new Uint8Array(2 * id);
        grown.set(this.synonymState);
        this.synonymState = grown;
        const out = new Uint8Array(2 * id);
        out.set(this.filteredOut);
        this.filteredOut = out;
      }
      this.stemMarks = withRoom(this.stemMarks, 2 * (id + 1));
    }
    return id;
  }

  /** The stem ids of the synonyms of stem `id` (./wordnet.ts), the stem itself left out. */
  private synonymsOf(id: number): Int32Array {
    const state = this.synonymState[id];
    if (state === SYNONYMS_NONE) return NO_SYNONYMS;
    if (state === SYNONYMS_SOME) return this.synonymIds[id];
    if (this.filteredOut[id] === 1) {
      this.synonymState[id] = SYNONYMS_NONE;
      return NO_SYNONYMS;
    }
    this.synonymsFound = 0;
    // A stamp per look-up marks the stems found so far, so that a name of several synsets is kept once.
    if (++this.synonymStamp === 0x7fffffff) {
      this.synonymSeen.fill(0);
      this.synonymStamp = 1;
    }
    // Most stems of a text in another language than English are not even written in WordNet's alphabet, and most
    // others lead to no index lemma: the search turns both away before it builds anything.
    this.synonymNames.length = 0;
    visitSynonyms(this.stemName(id), this.keepSynonym);
    const names = this.synonymNames;
    if (names.length > 0 && this.kernelNames !== undefined && names.every(kernelCanName)) {
      // WordNet's names are ASCII: the kernel's name table takes them all in one call.
      this.synonymIdsOf = withRoom(this.synonymIdsOf, names.length);
      this.kernelNames.internStrings(names, names.length, this.synonymIdsOf);
      for (let k = 0; k < names.length; k++) this.keepStem(this.stemIdAt(this.entryOfKernelName(this.synonymIdsOf[k]), ''));
    } else for (const name of names) this.keepStem(this.stemId(name));
    const found = this.synonymsFound;
    if (found === 0) {
      this.synonymState[id] = SYNONYMS_NONE;
      return NO_SYNONYMS;
    }
    const ids = this.synonymScratch.slice(0, found);
    this.synonymIds[id] = ids;
    this.synonymState[id] = SYNONYMS_SOME;
    return ids;
  }

  /** {@link synonymsOf}'s visitor: the names of the stem's synonyms, into {@link synonymNames}. */
  private readonly keepSynonym = (name: string): void => {
    this.synonymNames.push(name);
  };

  /** Stem `other` into {@link synonymScratch}, once per look-up. */
  private keepStem(other: number): void {
    this.synonymSeen = withRoom(this.synonymSeen, other + 1);
    if (this.synonymSeen[other] === this.synonymStamp) return;
    this.synonymSeen[other] = this.synonymStamp;
    this.synonymScratch = withRoom(this.synonymScratch, this.synonymsFound + 1);
    this.synonymScratch[this.synonymsFound++] = other;
  }
}
