/**
 * NLTK 3.8 METEOR's alignment and line value over word ids, a batch of lines per call (the caller is
 * src/wasm/meteor-align.ts): per line and reference the exact stage, the Porter-stem stage and the WordNet synonym
 * stage, each walking the hypothesis words it has left from the last back and pairing a word with the last
 * reference word left that matches it, then the chunks and the value; per line the best value over its references.
 * The stages pair the words `Meteor.single` in TypeScript pairs, on the same reference blocks.
 *
 * What the kernel cannot know it asks for instead of computing: a word's Porter stem and a stem's synonyms are
 * tables the caller fills (-1: not known yet). A line that meets unknown ones is left for the next call, with the
 * unknown ids in the need list (all the stems a stage may need at once: the synonyms of every hypothesis stem left
 * when the synonym stage starts, though it may stop before it reaches them all); the caller fills them and calls
 * again with the lines left, each aligned again from the start.
 * The fragmentation penalty γ·(chunks / matches)^β is read from the caller's memo (NaN: not computed); a pair not in
 * it is written to the overflow list (line, matches, chunks, hypothesis and reference words) for the caller to value
 * and fold into the line's best: a power computed here would not be bit for bit the JavaScript `**` of the
 * reference implementation.
 *
 * Layout, i32 words at `config` (byte addresses unless said otherwise):
 *   0 tokenWord: kernel token id → word id
 *   1 words: per word id 4 i32 [stamp, position (the exact stage's marks), stem id (-1 unknown), unused]
 *   2 synonymRanges: per stem 2 i32 [synonyms start, synonyms end] (where its kind is SYNONYMS_SOME)
 *   3 synonymKinds: per stem a byte, SYNONYMS_UNKNOWN, SYNONYMS_SOME or 0 (none but itself)
 *   4 synonyms: the stem ids the ranges index
 *   5 penalties: f64 by (matches, chunks), k = matches·(matches + 1)/2 + chunks, for matches < PENALTY_MATCHES
 *   6 refData: the reference blocks (see ReferenceWords in src/metrics/meteor/meteor.ts), i32 words
 *   7 refIndex: per segment and reference, [block start in refData (i32 words), words]
 *   8 references per segment                        9 tokens: the lines' kernel token ids
 *  10 offsets: nLines + 1 i32                       11 out: f64 per line, the best value (-Infinity: every
 *     reference in the overflow list)
 *  12 overflow: records of 5 i32                    13 overflow count (read and written)
 *  14 need: word ids whose stems, and −1 − stem ids whose synonyms, are needed    15 need count (written)
 *  17 hypothesis words  18 refOf (with a spare entry before it, 16-byte aligned)  19 hypLeft  20 hypStems
 *  21 taken: per reference position, the stamp of the line whose exact stage took it (with a spare entry before it)
 *  22 refLeft  23 refStems (16-byte aligned, room for 3 more than the reference words)  25 entries of taken
 *  26 words the words table holds
 *  27 stamp (read and written)                      28–29 α as f64       30 todo: line numbers
 */
import { get, put } from './common/memory';

/** Matches below which penalties are memoized (the caller's memo size). */
const PENALTY_MATCHES: i32 = 64;
/** A stem's synonym kind (a bit of synonymKinds) until the caller gives its synonyms. */
const SYNONYMS_UNKNOWN: u8 = 1;
/** A stem's synonym kind once it has synonyms other than itself. */
const SYNONYMS_SOME: u8 = 2;
/** What single returns when the line needs stems or synonyms (the need list grew). */
const NEEDS: f64 = -1;

let tokenWord: usize = 0;
let words: usize = 0;
let synonymRanges: usize = 0;
let synonymKinds: usize = 0;
let synonyms: usize = 0;
let penalties: usize = 0;
let refData: usize = 0;
let refIndex: usize = 0;
let nRefs: i32 = 0;
let overflow: usize = 0;
let overflowCount: i32 = 0;
let need: usize = 0;
let needCount: i32 = 0;
/** The need list's length when the current line started. */
let lineNeeds: i32 = 0;
let hypWords: usize = 0;
let refOf: usize = 0;
let hypLeft: usize = 0;
let hypStems: usize = 0;
let taken: usize = 0;
let takenRoom: i32 = 0;
let refLeft: usize = 0;
let refStems: usize = 0;
let wordRoom: i32 = 0;
let stamp: i32 = 0;
let alpha: f64 = 0;

/** A new stamp; every stamped entry is cleared when the stamps wrap. */
function nextStamp(): i32 {
  if (stamp == 0x7fffffff) {
    for (let w = 0; w < wordRoom; w++) store<i32>(words + (usize(w) << 4), 0);
    memory.fill(taken, 0, usize(takenRoom) << 2);
    stamp = 0;
  }
  return ++stamp;
}

/**
 * NLTK's `_count_chunks` over refOf[0, n): a match starts a chunk unless it continues the previous one on both sides.
 * Counted as matches less continuations, four words per instruction (refOf[-1] and the entries from n to the next
 * multiple of four are -1): whether a word is matched follows no pattern a branch predictor could learn.
 */
function countChunks(n: i32): i32 {
  const refs = refOf;
  const one = i32x4.splat(1);
  const none = i32x4.splat(-1);
  let sum = i32x4.splat(0);
  for (let i = 0; i < n; i += 4) {
    const at = refs + (usize(i) << 2);
    const r = v128.load(at);
    // Lanes -1 where a match (r ≥ 0), and where a continuation (r ≥ 1 and the previous word's r − 1, a match).
    const match = i32x4.gt_s(r, none);
    const continues = v128.and(i32x4.gt_s(r, i32x4.splat(0)), i32x4.eq(v128.load(at - 4), i32x4.sub(r, one)));
    sum = i32x4.add(sum, i32x4.sub(continues, match));
  }
  return (
    i32x4.extract_lane(sum, 0) + i32x4.extract_lane(sum, 1) + i32x4.extract_lane(sum, 2) + i32x4.extract_lane(sum, 3)
  );
}

/** Adds `id` to the need list. */
// @ts-ignore: decorator
@inline
function ask(id: i32): void {
  put(need, needCount++, id);
}

/**
 * The last place of `stem` in the `groups` groups of four stems at `stems` (16-byte aligned), or -1: four compared
 * per instruction, from the last group back.
 */
// @ts-ignore: decorator
@inline
function lastPlace(stems: usize, groups: i32, stem: i32): i32 {
  const key = i32x4.splat(stem);
  let place = -1;
  for (let g = groups - 1; g >= 0; g--) {
    const hits = i32x4.bitmask(i32x4.eq(v128.load(stems + (usize(g) << 4)), key));
    if (hits != 0) {
      place = (g << 2) + 31 - clz<i32>(hits);
      break;
    }
  }
  return place;
}

/** A stem no word has: what a reference word left takes in refStems once a later stage takes it, and the padding. */
const GONE: i32 = -2;

/**
 * The value of the `n` words at hypWords against the reference block at `at` of `m` words; NaN after adding an
 * overflow record of line `line` (the caller values it), {@link NEEDS} after adding to the need list what the line
 * needs.
 *
 * The exact stage marks per word id (in the words table, stamped: never cleared between lines) its last position in
 * the reference; a hypothesis word, from the last back, takes its word's mark and moves it along the block's chain of
 * the word's positions. No branch depends on whether a word matches (that follows no pattern a predictor could
 * learn): a word without a match reads and writes its word's mark (of an earlier line, or with no position left) and
 * writes the spare entry before `taken`. The later stages see short lists (the words the exact stage left): the
 * reference stems left, in order, are compared four at a time with a hypothesis stem or synonym, and a stem taken is
 * overwritten with {@link GONE}, so that the last place of a stem is "the last reference word left that matches".
 */
function single(line: i32, n: i32, at: i32, m: i32): f64 {
  if (n == 0 || m == 0) return 0;
  const stamp = nextStamp();
  // The module's globals read once: the optimizing compiler reloads a global at every use.
  const hw = hypWords;
  const ro = refOf;
  const wi = words;
  const tk = taken;
  const ranges = synonymRanges;
  const synKinds = synonymKinds;
  const hL = hypLeft;
  const hS = hypStems;
  const rL = refLeft;
  const rS = refStems;
  const syn = synonyms;
  const rw = refData + (usize(at) << 2);
  const stemsAt = rw + (usize(m) << 2);
  const chain = rw + (usize(2 * m) << 2);
  // Per word at words its last position in the reference (the last written): the exact stage takes a word's
  // positions from the last back, along the block's chain.
  for (let j = 0; j < m; j++) {
    const mark = wi + (usize(get(rw, j)) << 4);
    store<i32>(mark, stamp);
    store<i32>(mark, j, 4);
  }
  // The entries of refOf from n to the next multiple of four, for countChunks (those below n are written next).
  v128.store(ro + (usize(n & ~3) << 2), i32x4.splat(-1));
  // The hypothesis words left, from the last back, with their stems (negative once one is unknown).
  let matches = 0;
  let hl = 0;
  let unknown = 0;
  for (let i = n - 1; i >= 0; i--) {
    const mark = wi + (usize(get(hw, i)) << 4);
    const j = select<i32>(load<i32>(mark, 4), -1, load<i32>(mark) == stamp);
    // chain[-1] is a word of the block and taken[-1] a spare entry: a word without a match reads or writes them.
    store<i32>(mark, select<i32>(get(chain, j), -1, j >= 0), 4);
    put(tk, j, stamp);
    put(ro, i, j);
    const stem = load<i32>(mark, 8);
    put(hL, hl, i);
    put(hS, hl, stem);
    const left = j < 0;
    unknown |= select<i32>(stem, 0, left);
    hl += i32(left);
  }
  matches = n - hl;
  if (matches == n || matches == m) return value(line, matches, n, m);
  let rl = 0;
  for (let j = 0; j < m; j++) {
    const stem = get(stemsAt, j);
    const left = get(tk, j) != stamp;
    put(rL, rl, j);
    put(rS, rl, stem);
    unknown |= select<i32>(stem, 0, left);
    rl += i32(left);
  }
  if (unknown < 0) {
    for (let a = 0; a < hl; a++) if (get(hS, a) < 0) ask(get(hw, get(hL, a)));
    for (let b = 0; b < rl; b++) {
      const j = get(rL, b);
      if (get(stemsAt, j) >= 0) continue;
      const stem = load<i32>(wi + (usize(get(rw, j)) << 4), 8);
      if (stem < 0) ask(get(rw, j));
      else {
        put(stemsAt, j, stem);
        put(rS, b, stem);
      }
    }
    if (needCount > lineNeeds) return NEEDS;
  }
  const groups = (rl + 3) >> 2;
  put(rS, rl, GONE);
  put(rS, rl + 1, GONE);
  put(rS, rl + 2, GONE);
  let refsLeft = rl;
  // What is known of the synonyms of the stems the stage leaves, or'ed: SYNONYMS_UNKNOWN, SYNONYMS_SOME. Those with
  // synonyms or not known yet, the synonym stage's candidates, replace the lists as the stage goes (in order, never
  // ahead of it).
  let kinds = 0;
  let candidates = 0;
  for (let a = 0; a < hl; a++) {
    const stem = get(hS, a);
    const b = lastPlace(rS, groups, stem);
    if (b < 0) {
      const kind = load<u8>(synKinds + usize(stem));
      kinds |= kind;
      put(hL, candidates, get(hL, a));
      put(hS, candidates, stem);
      candidates += i32(kind != 0);
      continue;
    }
    put(rS, b, GONE);
    put(ro, get(hL, a), get(rL, b));
    matches++;
    refsLeft--;
  }
  if (matches == n || refsLeft == 0) return value(line, matches, n, m);
  // The synonyms of every stem the stage may reach, asked for at once: one round per line instead of one per stem.
  if (kinds & SYNONYMS_UNKNOWN) {
    for (let c = 0; c < candidates; c++) {
      const stem = get(hS, c);
      if (load<u8>(synKinds + usize(stem)) & SYNONYMS_UNKNOWN) ask(-1 - stem);
    }
    return NEEDS;
  }
  if (!(kinds & SYNONYMS_SOME)) return value(line, matches, n, m);
  // A stem's synonyms leave out the stem itself, which no reference word left has (the stem stage took those). The
  // reference word a hypothesis word takes is the last one left whose stem is among its synonyms.
  for (let c = 0; c < candidates && refsLeft > 0; c++) {
    const stem = get(hS, c);
    const to = get(ranges, 2 * stem + 1);
    let best = -1;
    for (let k = get(ranges, 2 * stem); k < to; k++) best = max(best, lastPlace(rS, groups, get(syn, k)));
    if (best < 0) continue;
    put(rS, best, GONE);
    put(ro, get(hL, c), get(rL, best));
    matches++;
    refsLeft--;
  }
  return value(line, matches, n, m);
}

/** NLTK's value of `matches` of `n` and `m` words (refOf holds them), or NaN after an overflow record. */
function value(line: i32, matches: i32, n: i32, m: i32): f64 {
  if (matches == 0) return 0;
  const precision = f64(matches) / f64(n);
  const recall = f64(matches) / f64(m);
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  const chunks = countChunks(n);
  let penalty = NaN;
  if (matches < PENALTY_MATCHES) penalty = load<f64>(penalties + (usize(((matches * (matches + 1)) >> 1) + chunks) << 3));
  if (penalty != penalty) {
    const rec = overflow + usize(overflowCount++) * 20;
    store<i32>(rec, line);
    store<i32>(rec, matches, 4);
    store<i32>(rec, chunks, 8);
    store<i32>(rec, n, 12);
    store<i32>(rec, m, 16);
    return NaN;
  }
  return (1 - penalty) * fmean;
}

/**
 * The lines of the todo list (`nTodo` line numbers) of the batch `config` describes: the best value of each at out.
 * A line that needs what the need list then names is not valued: the call writes it back to the todo list, and
 * returns how many such lines there are (0: all done); the caller supplies what they need and calls again.
 */
export function meteorLines(config: usize, nTodo: i32): i32 {
  tokenWord = usize(get(config, 0));
  words = usize(get(config, 1));
  synonymRanges = usize(get(config, 2));
  synonymKinds = usize(get(config, 3));
  synonyms = usize(get(config, 4));
  penalties = usize(get(config, 5));
  refData = usize(get(config, 6));
  refIndex = usize(get(config, 7));
  nRefs = get(config, 8);
  const tokens = usize(get(config, 9));
  const offsets = usize(get(config, 10));
  const out = usize(get(config, 11));
  overflow = usize(get(config, 12));
  overflowCount = get(config, 13);
  need = usize(get(config, 14));
  needCount = 0;
  hypWords = usize(get(config, 17));
  refOf = usize(get(config, 18));
  put(refOf, -1, -1);
  hypLeft = usize(get(config, 19));
  hypStems = usize(get(config, 20));
  taken = usize(get(config, 21));
  refLeft = usize(get(config, 22));
  takenRoom = get(config, 25);
  refStems = usize(get(config, 23));
  wordRoom = get(config, 26);
  stamp = get(config, 27);
  alpha = load<f64>(config, 112);
  const todo = usize(get(config, 30));
  let pending = 0;
  for (let t = 0; t < nTodo; t++) {
    const line = get(todo, t);
    const start = get(offsets, line);
    const n = get(offsets, line + 1) - start;
    for (let k = 0; k < n; k++) put(hypWords, k, get(tokenWord, get(tokens, start + k)));
    const lineOverflow = overflowCount;
    lineNeeds = needCount;
    let best = -Infinity;
    for (let j = 0; j < nRefs; j++) {
      const ref = refIndex + (usize(line * nRefs + j) << 3);
      const score = single(line, n, load<i32>(ref), load<i32>(ref, 4));
      if (needCount > lineNeeds) break;
      if (score > best) best = score;
    }
    if (needCount > lineNeeds) {
      // The line is aligned again in the next call: what it added to the overflow list goes.
      overflowCount = lineOverflow;
      put(todo, pending++, line);
    } else store<f64>(out + (usize(line) << 3), best);
  }
  put(config, 13, overflowCount);
  put(config, 15, needCount);
  put(config, 27, stamp);
  return pending;
}
