/**
 * tercom 0.10.0's shift candidates (`TerScorer.GatherAllPossShifts`) and how a shift moves words
 * (`TerScorer.PerformShift`).
 *
 * A candidate moves the hypothesis phrase `[start, end]` (at most {@link TERCOM_MAX_SHIFT_SIZE} words, at least
 * one of them currently misaligned) to sit after hypothesis position `newloc` (-1: to the front), where
 * `newloc` is the hypothesis position aligned to a reference occurrence `moveto` of the same phrase (or the
 * reference word just before it, or any word inside it), provided that reference occurrence has a misaligned
 * word and lies within the maximum shift distance. A phrase is extended word by word while it still occurs in
 * the reference and either it has no misaligned word yet or some occurrence was in range. Candidates are kept
 * in tercom's order: by phrase length, then start, end, reference occurrence (ascending) and offset (-1 first),
 * because the greedy search takes the first of equally good shifts.
 *
 * tercom looks phrases up in a map from every reference phrase (whose words all occur in the hypothesis) to its
 * sorted start positions. A hypothesis phrase's words all occur in the hypothesis, so that lookup is the same as
 * the sorted occurrences of the phrase in the reference, found here by scanning the reference for the first word
 * and narrowing the list as the phrase grows.
 */
import type { TerShift } from './alignment.js';

/** tercom's `MAX_SHIFT_SIZE`: the longest reference phrase it indexes is 11 words, the longest shift 10. */
export const TERCOM_MAX_SHIFT_SIZE = 10;

/**
 * The shift candidates of one search step: `count` shifts as `(start, end, newloc)` triples, listed in the order
 * tercom tries them (longest first; see the file comment). Reused across steps.
 */
export class TercomShiftCandidates {
  /** `start, end, newloc` of every candidate, in generation order. */
  private triples = new Int32Array(3 * 256);
  private generated = 0;
  /** Candidate indices ordered by decreasing length, generation order within a length. */
  private order = new Int32Array(256);
  private readonly perLength = new Int32Array(TERCOM_MAX_SHIFT_SIZE + 1);
  private readonly cursor = new Int32Array(TERCOM_MAX_SHIFT_SIZE + 1);
  /** First position in tercom's order of bucket `b` (the shifts of `b + 1` words), `b` in `0 ..` max size. */
  readonly bucketStart = new Int32Array(TERCOM_MAX_SHIFT_SIZE + 1);
  /** End (exclusive) of bucket `b` in tercom's order. */
  readonly bucketEnd = new Int32Array(TERCOM_MAX_SHIFT_SIZE + 1);
  private occurrences = new Int32Array(64);

  /** Start of the `k`-th candidate in tercom's order. */
  start(k: number): number {
    return this.triples[3 * this.order[k]];
  }

  /** End (inclusive) of the `k`-th candidate. */
  end(k: number): number {
    return this.triples[3 * this.order[k] + 1];
  }

  /** Hypothesis position the `k`-th candidate moves its phrase after (-1: to the front). */
  newloc(k: number): number {
    return this.triples[3 * this.order[k] + 2];
  }

  private add(start: number, end: number, newloc: number): void {
    const at = 3 * this.generated;
    if (at + 3 > this.triples.length) {
      const grown = new Int32Array(this.triples.length * 2);
      grown.set(this.triples);
      this.triples = grown;
    }
    this.triples[at] = start;
    this.triples[at + 1] = end;
    this.triples[at + 2] = newloc;
    this.perLength[end - start]++;
    this.generated++;
  }

  /**
   * Collects the candidates of `hyp` against `ref` given the current alignment: `herr[h]`/`rerr[r]` say whether
   * hypothesis/reference word is misaligned, `ralign[r]` is the hypothesis position aligned to reference word
   * `r` (the one before it for a deletion, -1 before the first). Afterwards bucket `b` (shifts of `b + 1` words)
   * is `bucketStart[b] .. bucketEnd[b]` of the ordered list, the buckets laid out longest first.
   * @param maxShiftDistance tercom's `-d`; 0 or less means no shifts at all.
   */
  gather(
    hyp: Int32Array,
    hypLen: number,
    ref: Int32Array,
    refLen: number,
    herr: Uint8Array,
    rerr: Uint8Array,
    ralign: Int32Array,
    maxShiftDistance: number,
  ): void {
    this.generated = 0;
    this.perLength.fill(0);
    const dist = maxShiftDistance;
    if (dist > 0) {
      if (this.occurrences.length < refLen) {
        this.occurrences = new Int32Array(Math.max(refLen, this.occurrences.length * 2));
      }
      const occ = this.occurrences;
      for (let start = 0; start < hypLen; start++) {
        const first = hyp[start];
        let n = 0;
        for (let r = 0; r < refLen; r++) if (ref[r] === first) occ[n++] = r;
        if (n === 0) continue;
        let reachable = false;
        for (let k = 0; k < n && !reachable; k++) {
          const ra = ralign[occ[k]];
          reachable = start !== ra && ra - start <= dist && start - ra - 1 <= dist;
        }
        if (!reachable) continue;
        let ok = true;
        for (let end = start; ok && end < hypLen && end < start + TERCOM_MAX_SHIFT_SIZE; end++) {
          const len = end - start + 1;
          if (len > 1) {
            const word = hyp[end];
            let kept = 0;
            for (let k = 0; k < n; k++) {
              const last = occ[k] + len - 1;
              if (last < refLen && ref[last] === word) occ[kept++] = occ[k];
            }
            n = kept;
          }
          ok = false;
          if (n === 0) continue;
          let anyHypError = false;
          for (let h = start; h <= end && !anyHypError; h++) anyHypError = herr[h] !== 0;
          if (!anyHypError) {
            ok = true;
            continue;
          }
          for (let k = 0; k < n; k++) {
            const moveto = occ[k];
            const ra = ralign[moveto];
            if (!(ra !== start && (ra < start || ra > end) && ra - start <= dist && start - ra <= dist)) continue;
            ok = true;
            let anyRefError = false;
            for (let r = moveto; r < moveto + len && !anyRefError; r++) anyRefError = rerr[r] !== 0;
            if (!anyRefError) continue;
            for (let roff = -1; roff < len; roff++) {
              if (roff === -1 && moveto === 0) this.add(start, end, -1);
              else {
                const newloc = ralign[moveto + roff];
                if (start !== newloc && (roff === 0 || newloc !== ra)) this.add(start, end, newloc);
              }
            }
          }
        }
      }
    }
    this.sortByLength();
  }

  /** Stable counting sort of the generated candidates into longest-first buckets. */
  private sortByLength(): void {
    if (this.order.length < this.generated) {
      this.order = new Int32Array(Math.max(this.generated, this.order.length * 2));
    }
    let at = 0;
    for (let b = TERCOM_MAX_SHIFT_SIZE; b >= 0; b--) {
      this.bucketStart[b] = at;
      at += this.perLength[b];
      this.bucketEnd[b] = at;
      this.cursor[b] = this.bucketStart[b];
    }
    for (let k = 0; k < this.generated; k++) {
      const b = this.triples[3 * k + 1] - this.triples[3 * k];
      this.order[this.cursor[b]++] = k;
    }
  }

  /** Total number of candidates. */
  get count(): number {
    return this.generated;
  }
}

/**
 * Writes into `out` the words of `words[0, len)` after moving `[start, end]` after position `newloc` (-1: to the
 * front), with tercom's four cases (`newloc` before, after or inside the phrase; inside moves the phrase right
 * by `newloc − start`, clipped at the end).
 *
 * Outside the phrase this is sacreBLEU's `_perform_shift` with `target = newloc + 1` (shift.ts). Inside it is
 * not: sacreBLEU would move the phrase one word further (by `target − start`), so the shared `performShift`
 * cannot stand in for this one.
 */
export function tercomPerformShift(
  words: Int32Array,
  len: number,
  start: number,
  end: number,
  newloc: number,
  out: Int32Array,
): void {
  let c = 0;
  if (newloc === -1) {
    for (let i = start; i <= end; i++) out[c++] = words[i];
    for (let i = 0; i < start; i++) out[c++] = words[i];
    for (let i = end + 1; i < len; i++) out[c++] = words[i];
  } else if (newloc < start) {
    for (let i = 0; i <= newloc; i++) out[c++] = words[i];
    for (let i = start; i <= end; i++) out[c++] = words[i];
    for (let i = newloc + 1; i < start; i++) out[c++] = words[i];
    for (let i = end + 1; i < len; i++) out[c++] = words[i];
  } else if (newloc > end) {
    for (let i = 0; i < start; i++) out[c++] = words[i];
    for (let i = end + 1; i <= newloc; i++) out[c++] = words[i];
    for (let i = start; i <= end; i++) out[c++] = words[i];
    for (let i = newloc + 1; i < len; i++) out[c++] = words[i];
  } else {
    const stop = end + (newloc - start);
    for (let i = 0; i < start; i++) out[c++] = words[i];
    for (let i = end + 1; i < len && i <= stop; i++) out[c++] = words[i];
    for (let i = start; i <= end; i++) out[c++] = words[i];
    for (let i = stop + 1; i < len; i++) out[c++] = words[i];
  }
}

/**
 * A tercom shift `[start, end]` after `newloc` as a {@link TerShift} that the shared `performShift` (shift.ts)
 * applies with the same result: `target = newloc + 1`, except for a `newloc` inside the phrase, where tercom
 * moves the phrase by `newloc − start` words, which is `target = newloc` in sacreBLEU's convention.
 */
export function tercomShiftAsTerShift(start: number, end: number, newloc: number): TerShift {
  const inside = newloc >= start && newloc <= end;
  return { start, length: end - start + 1, target: inside ? newloc : newloc + 1 };
}
