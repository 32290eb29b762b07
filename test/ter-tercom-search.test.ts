/**
 * The tercom flavor's search machinery against a literal port of tercom 0.10.0 kept in this file (`literalTer`:
 * jhclark/tercom src/ter/core/TerScorer.java read line by line — full `S`/`P` matrices, the phrase map of
 * `BuildWordMatches`, `GatherAllPossShifts`, `CalcBestShift`, `PerformShift`, string words — with none of the fast
 * path's reuse), and against plain Levenshtein:
 * - TercomEditDistance with a beam wider than both lengths = Levenshtein distance; its path is a valid alignment;
 * - distanceWithPrefix (columns reused from the last full call) = a full call: cost and path, narrow beams included;
 * - tercomPerformShift = the literal PerformShift; tercomShiftAsTerShift + the shared performShift = the same words;
 * - TercomAligner = literalTer: edits, ins/del/sub, shifts, words shifted, final alignment and shift list, over
 *   small vocabularies (many repeated words, so many shift candidates), lengths 0–40 and 63–65, unequal lengths,
 *   beams 0–20 and shift distances 0–50;
 * - the TER paper's example (Snover et al. 2006, §2): 4 edits / 13 reference words, one shift of two words.
 * All comparisons exact (integer costs and counts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerOp } from '../src/metrics/ter/alignment.js';
import { performShift } from '../src/metrics/ter/shift.js';
import { TercomAligner } from '../src/metrics/ter/tercom-aligner.js';
import { TercomEditDistance } from '../src/metrics/ter/tercom-edit-distance.js';
import { tercomPerformShift, tercomShiftAsTerShift } from '../src/metrics/ter/tercom-shifts.js';
import { sentenceScore } from '../src/metrics/metric.js';
import { TercomTer } from '../src/metrics/ter/tercom-ter.js';

// ---------------------------------------------------------------------------------------------------------------
// Literal port of tercom 0.10.0's TerScorer (the test oracle). Alignment characters as tercom's: ' ', S, I, D.

interface LiteralAlignment {
  numEdits: number;
  alignment: string[];
}

interface LiteralShift {
  start: number;
  end: number;
  moveto: number;
  newloc: number;
}

const INF = 999999.0;
const MAX_SHIFT_SIZE = 10;

function literalMinEditDist(hyp: string[], ref: string[], beam: number): LiteralAlignment {
  let currentBest = INF;
  let lastBest = INF;
  let firstGood = 0;
  let currentFirstGood = 0;
  let lastGood = -1;
  let curLastGood = 0;
  const size = Math.max(ref.length, hyp.length) + 1;
  const S: number[][] = [];
  const P: string[][] = [];
  for (let i = 0; i < size; i++) {
    S.push(new Array<number>(size).fill(0));
    P.push(new Array<string>(size).fill('\0'));
  }
  for (let i = 0; i <= ref.length; i++) {
    for (let j = 0; j <= hyp.length; j++) {
      S[i][j] = -1.0;
      P[i][j] = '0';
    }
  }
  S[0][0] = 0.0;
  for (let j = 0; j <= hyp.length; j++) {
    lastBest = currentBest;
    currentBest = INF;
    firstGood = currentFirstGood;
    currentFirstGood = -1;
    lastGood = curLastGood;
    curLastGood = -1;
    for (let i = firstGood; i <= ref.length; i++) {
      if (i > lastGood) break;
      if (S[i][j] < 0) continue;
      const score = S[i][j];
      if (j < hyp.length && score > lastBest + beam) continue;
      if (currentFirstGood === -1) currentFirstGood = i;
      if (i < ref.length && j < hyp.length) {
        if (ref[i] === hyp[j]) {
          const cost = 0.0 + score;
          if (S[i + 1][j + 1] === -1 || cost < S[i + 1][j + 1]) {
            S[i + 1][j + 1] = cost;
            P[i + 1][j + 1] = ' ';
          }
          if (cost < currentBest) currentBest = cost;
        } else {
          const cost = 1.0 + score;
          if (S[i + 1][j + 1] < 0 || cost < S[i + 1][j + 1]) {
            S[i + 1][j + 1] = cost;
            P[i + 1][j + 1] = 'S';
            if (cost < currentBest) currentBest = cost;
          }
        }
      }
      curLastGood = i + 1;
      if (j < hyp.length) {
        const icost = score + 1.0;
        if (S[i][j + 1] < 0 || S[i][j + 1] > icost) {
          S[i][j + 1] = icost;
          P[i][j + 1] = 'I';
        }
      }
      if (i < ref.length) {
        const dcost = score + 1.0;
        if (S[i + 1][j] < 0.0 || S[i + 1][j] > dcost) {
          S[i + 1][j] = dcost;
          P[i + 1][j] = 'D';
          if (i >= lastGood) lastGood = i + 1;
        }
      }
    }
  }
  const path: string[] = [];
  let i = ref.length;
  let j = hyp.length;
  while (i > 0 || j > 0) {
    const op = P[i][j];
    path.unshift(op);
    if (op === ' ' || op === 'S') {
      i--;
      j--;
    } else if (op === 'D') i--;
    else if (op === 'I') j--;
    else throw new Error(`Invalid path: ${op}`);
  }
  return { numEdits: S[ref.length][hyp.length], alignment: path };
}

const key = (words: string[]): string => JSON.stringify(words);

function literalBuildWordMatches(hyp: string[], ref: string[]): Map<string, number[]> {
  const hwhash = new Set(hyp);
  const cor = ref.map((w) => hwhash.has(w));
  const out = new Map<string, number[]>();
  for (let start = 0; start < ref.length; start++) {
    if (!cor[start]) continue;
    for (let end = start; end < ref.length && end - start <= MAX_SHIFT_SIZE && cor[end]; end++) {
      const k = key(ref.slice(start, end + 1));
      const vals = out.get(k) ?? [];
      if (!vals.includes(start)) vals.push(start);
      vals.sort((a, b) => a - b);
      out.set(k, vals);
    }
  }
  return out;
}

function literalFindAlignErr(align: string[], herr: boolean[], rerr: boolean[], ralign: number[]): void {
  let hpos = -1;
  let rpos = -1;
  for (const sym of align) {
    if (sym === ' ' || sym === 'S') {
      hpos++;
      rpos++;
      herr[hpos] = sym === 'S';
      rerr[rpos] = sym === 'S';
      ralign[rpos] = hpos;
    } else if (sym === 'I') {
      hpos++;
      herr[hpos] = true;
    } else {
      rpos++;
      rerr[rpos] = true;
      ralign[rpos] = hpos;
    }
  }
}

function literalGather(
  hyp: string[],
  rloc: Map<string, number[]>,
  herr: boolean[],
  rerr: boolean[],
  ralign: number[],
  maxDist: number,
): LiteralShift[][] {
  if (MAX_SHIFT_SIZE <= 0 || maxDist <= 0) return [];
  const all: LiteralShift[][] = Array.from({ length: MAX_SHIFT_SIZE + 1 }, () => []);
  for (let start = 0; start < hyp.length; start++) {
    const single = rloc.get(key(hyp.slice(start, start + 1)));
    if (!single) continue;
    let ok = false;
    for (const moveto of single) {
      if (ok) break;
      if (start !== ralign[moveto] && ralign[moveto] - start <= maxDist && start - ralign[moveto] - 1 <= maxDist)
        ok = true;
    }
    if (!ok) continue;
    ok = true;
    for (let end = start; ok && end < hyp.length && end < start + MAX_SHIFT_SIZE; end++) {
      const cand = hyp.slice(start, end + 1);
      ok = false;
      const movetos = rloc.get(key(cand));
      if (!movetos) continue;
      let anyHerr = false;
      for (let i = 0; i <= end - start && !anyHerr; i++) if (herr[start + i]) anyHerr = true;
      if (!anyHerr) {
        ok = true;
        continue;
      }
      for (const moveto of movetos) {
        if (!(
          ralign[moveto] !== start &&
          (ralign[moveto] < start || ralign[moveto] > end) &&
          ralign[moveto] - start <= maxDist &&
          start - ralign[moveto] <= maxDist
        )) {
          continue;
        }
        ok = true;
        let anyRerr = false;
        for (let i = 0; i <= end - start && !anyRerr; i++) if (rerr[moveto + i]) anyRerr = true;
        if (!anyRerr) continue;
        for (let roff = -1; roff <= end - start; roff++) {
          let topush: LiteralShift | null = null;
          if (roff === -1 && moveto === 0) topush = { start, end, moveto: -1, newloc: -1 };
          else if (start !== ralign[moveto + roff] && (roff === 0 || ralign[moveto + roff] !== ralign[moveto])) {
            topush = { start, end, moveto: moveto + roff, newloc: ralign[moveto + roff] };
          }
          if (topush) all[end - start].push(topush);
        }
      }
    }
  }
  return all;
}

function literalPerformShift<T>(words: T[], start: number, end: number, newloc: number): T[] {
  const out: T[] = [];
  if (newloc === -1) {
    for (let i = start; i <= end; i++) out.push(words[i]);
    for (let i = 0; i <= start - 1; i++) out.push(words[i]);
    for (let i = end + 1; i < words.length; i++) out.push(words[i]);
  } else if (newloc < start) {
    for (let i = 0; i <= newloc; i++) out.push(words[i]);
    for (let i = start; i <= end; i++) out.push(words[i]);
    for (let i = newloc + 1; i <= start - 1; i++) out.push(words[i]);
    for (let i = end + 1; i < words.length; i++) out.push(words[i]);
  } else if (newloc > end) {
    for (let i = 0; i <= start - 1; i++) out.push(words[i]);
    for (let i = end + 1; i <= newloc; i++) out.push(words[i]);
    for (let i = start; i <= end; i++) out.push(words[i]);
    for (let i = newloc + 1; i < words.length; i++) out.push(words[i]);
  } else {
    for (let i = 0; i <= start - 1; i++) out.push(words[i]);
    for (let i = end + 1; i < words.length && i <= end + (newloc - start); i++) out.push(words[i]);
    for (let i = start; i <= end; i++) out.push(words[i]);
    for (let i = end + (newloc - start) + 1; i < words.length; i++) out.push(words[i]);
  }
  return out;
}

interface LiteralResult {
  numEdits: number;
  alignment: string[];
  shifts: LiteralShift[];
  aftershift: string[];
}

function literalTer(hyp: string[], ref: string[], beam: number, maxDist: number): LiteralResult {
  const rloc = literalBuildWordMatches(hyp, ref);
  let curAlign = literalMinEditDist(hyp, ref, beam);
  let cur = hyp;
  let edits = 0;
  const shifts: LiteralShift[] = [];
  for (;;) {
    const herr = new Array<boolean>(hyp.length).fill(false);
    const rerr = new Array<boolean>(ref.length).fill(false);
    const ralign = new Array<number>(ref.length).fill(0);
    literalFindAlignErr(curAlign.alignment, herr, rerr, ralign);
    const poss = literalGather(cur, rloc, herr, rerr, ralign, maxDist);
    const curerr = curAlign.numEdits;
    let bestShiftCost = 0;
    let bestAlign = curAlign;
    let bestShift: LiteralShift | null = null;
    let bestWords = cur;
    let anygain = false;
    outer: for (let i = poss.length - 1; i >= 0; i--) {
      const maxfix = 2 * (1 + i);
      let curfix = curerr - (bestShiftCost + bestAlign.numEdits);
      if (curfix > maxfix || (bestShiftCost !== 0 && curfix === maxfix)) break;
      for (const s of poss[i]) {
        curfix = curerr - (bestShiftCost + bestAlign.numEdits);
        if (curfix > maxfix || (bestShiftCost !== 0 && curfix === maxfix)) break outer;
        const shifted = literalPerformShift(cur, s.start, s.end, s.newloc);
        const a = literalMinEditDist(shifted, ref, beam);
        const gain = bestAlign.numEdits + bestShiftCost - (a.numEdits + 1.0);
        if (gain > 0 || (bestShiftCost === 0 && gain === 0)) {
          anygain = true;
          bestShift = s;
          bestShiftCost = 1.0;
          bestAlign = a;
          bestWords = shifted;
        }
      }
    }
    if (!anygain) break;
    edits += 1.0;
    shifts.push(bestShift!);
    curAlign = bestAlign;
    cur = bestWords;
  }
  return { numEdits: curAlign.numEdits + edits, alignment: curAlign.alignment, shifts, aftershift: cur };
}

// ---------------------------------------------------------------------------------------------------------------

const OP_CHAR = new Map<number, string>([
  [TerOp.Match, ' '],
  [TerOp.Sub, 'S'],
  [TerOp.Ins, 'I'],
  [TerOp.Del, 'D'],
]);

function opsString(ops: ArrayLike<number>): string[] {
  return Array.from(ops, (op) => OP_CHAR.get(op)!);
}

function levenshtein(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let prev = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    prev = row;
  }
  return prev[b.length];
}

/** Word ids over a small vocabulary, lengths 0–40 or around 64. */
function sentence(vocabulary: number) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(fc.integer({ min: 0, max: vocabulary - 1 }), { minLength: 0, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: vocabulary - 1 }), { minLength: 63, maxLength: 65 }) },
  );
}

describe('TercomEditDistance', () => {
  it('equals the Levenshtein distance when the beam cannot prune, with a valid path', () => {
    const ed = new TercomEditDistance();
    fc.assert(
      fc.property(sentence(6), sentence(6), (h, r) => {
        const hyp = Int32Array.from(h);
        const ref = Int32Array.from(r);
        const d = ed.distance(hyp, hyp.length, ref, ref.length, h.length + r.length + 1);
        expect(d).toBe(levenshtein(hyp, ref));
        let i = 0;
        let j = 0;
        let cost = 0;
        for (const op of ed.path.subarray(0, ed.pathLength)) {
          if (op === TerOp.Match) expect(hyp[j++]).toBe(ref[i++]);
          else if (op === TerOp.Sub) {
            expect(hyp[j++]).not.toBe(ref[i++]);
            cost++;
          } else if (op === TerOp.Ins) {
            j++;
            cost++;
          } else {
            i++;
            cost++;
          }
        }
        expect([i, j, cost]).toEqual([ref.length, hyp.length, d]);
      }),
      { numRuns: 300 },
    );
  });

  it('equals the literal port (full matrices) under narrow beams', () => {
    const ed = new TercomEditDistance();
    fc.assert(
      fc.property(sentence(5), sentence(5), fc.integer({ min: 0, max: 6 }), (h, r, beam) => {
        const d = ed.distance(Int32Array.from(h), h.length, Int32Array.from(r), r.length, beam);
        const lit = literalMinEditDist(h.map(String), r.map(String), beam);
        expect(d).toBe(lit.numEdits);
        expect(opsString(ed.path.subarray(0, ed.pathLength))).toEqual(lit.alignment);
      }),
      { numRuns: 300 },
    );
  });

  it('distanceWithPrefix equals a full call (cost and path) for any shared prefix', () => {
    const ed = new TercomEditDistance();
    const full = new TercomEditDistance();
    fc.assert(
      fc.property(
        sentence(5).filter((h) => h.length > 0),
        sentence(5),
        fc.integer({ min: 0, max: 25 }),
        fc.nat(),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }),
        (h, r, beam, at, tails) => {
          const base = Int32Array.from(h);
          const ref = Int32Array.from(r);
          ed.distance(base, base.length, ref, ref.length, beam);
          // Several variants after one full call: the kept table must stay intact between them.
          for (const t of tails) {
            const prefix = at % (base.length + 1);
            const variant = base.slice();
            for (let k = prefix; k < variant.length; k++) variant[k] = (variant[k] + t + k) % 5;
            const got = ed.distanceWithPrefix(variant, variant.length, ref, ref.length, beam, prefix);
            const gotPath = Array.from(ed.path.subarray(0, ed.pathLength));
            expect(got).toBe(full.distance(variant, variant.length, ref, ref.length, beam));
            expect(gotPath).toEqual(Array.from(full.path.subarray(0, full.pathLength)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('shift application', () => {
  const shiftCase = fc
    .integer({ min: 1, max: 14 })
    .chain((n) =>
      fc.tuple(
        fc.constant(n),
        fc.integer({ min: 0, max: n - 1 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: -1, max: n - 1 }),
      ),
    )
    .map(([n, start, extra, newloc]) => ({ n, start, end: Math.min(n - 1, start + extra), newloc }));

  it("tercomPerformShift is tercom's PerformShift in all four cases", () => {
    fc.assert(
      fc.property(shiftCase, ({ n, start, end, newloc }) => {
        const words = Int32Array.from({ length: n }, (_, k) => k);
        const out = new Int32Array(n);
        tercomPerformShift(words, n, start, end, newloc, out);
        expect(Array.from(out)).toEqual(literalPerformShift(Array.from(words), start, end, newloc));
      }),
    );
  });

  it('tercomShiftAsTerShift gives a TerShift that the shared performShift applies the same way', () => {
    fc.assert(
      fc.property(shiftCase, ({ n, start, end, newloc }) => {
        const words = Int32Array.from({ length: n }, (_, k) => k);
        const ours = new Int32Array(n);
        tercomPerformShift(words, n, start, end, newloc, ours);
        const s = tercomShiftAsTerShift(start, end, newloc);
        const shared = new Int32Array(n);
        performShift(words, s.start, s.length, s.target, shared);
        expect(Array.from(shared)).toEqual(Array.from(ours));
      }),
    );
  });

  it('a shift into its own phrase moves it by newloc − start (one word less than target = newloc + 1 would)', () => {
    const words = Int32Array.of(0, 1, 2, 3, 4, 5);
    const out = new Int32Array(6);
    tercomPerformShift(words, 6, 1, 3, 2, out);
    expect(Array.from(out)).toEqual([0, 4, 1, 2, 3, 5]);
    const sacre = new Int32Array(6);
    performShift(words, 1, 3, 3, sacre);
    expect(Array.from(sacre)).toEqual([0, 4, 5, 1, 2, 3]);
  });
});

describe('TercomAligner', () => {
  it('equals the literal port of TerScorer.TER (counts, alignment, shifts, shifted words)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }).chain((v) => fc.tuple(sentence(v), sentence(v))),
        fc.constantFrom(20, 20, 0, 1, 3, 8),
        fc.constantFrom(50, 50, 0, 1, 2, 5),
        ([h, r], beam, dist) => {
          const aligner = new TercomAligner({ beamWidth: beam, maxShiftDistance: dist });
          const edits = aligner.align(Int32Array.from(h), h.length, Int32Array.from(r), r.length);
          const lit = literalTer(h.map(String), r.map(String), beam, dist);
          expect(edits).toBe(lit.numEdits);
          const c = aligner.counts;
          expect([c.ins, c.del, c.sub]).toEqual(
            ['I', 'D', 'S'].map((ch) => lit.alignment.filter((a) => a === ch).length),
          );
          expect(c.shifts).toBe(lit.shifts.length);
          expect(c.wordsShifted).toBe(lit.shifts.reduce((n, s) => n + s.end - s.start + 1, 0));
          const alignment = aligner.alignment(h.length);
          expect(opsString(alignment.ops)).toEqual(lit.alignment);
          expect(Array.from(alignment.hypOrder, (k) => String(h[k]))).toEqual(lit.aftershift);
          expect(alignment.shifts).toEqual(lit.shifts.map((s) => tercomShiftAsTerShift(s.start, s.end, s.newloc)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('one aligner reused across pairs of different sizes gives the same as fresh ones', () => {
    const shared = new TercomAligner();
    fc.assert(
      fc.property(fc.array(fc.tuple(sentence(4), sentence(4)), { minLength: 1, maxLength: 6 }), (pairs) => {
        for (const [h, r] of pairs) {
          const fresh = new TercomAligner();
          const a = shared.align(Int32Array.from(h), h.length, Int32Array.from(r), r.length);
          const b = fresh.align(Int32Array.from(h), h.length, Int32Array.from(r), r.length);
          expect(a).toBe(b);
          expect({ ...shared.counts }).toEqual({ ...fresh.counts });
        }
      }),
      { numRuns: 40 },
    );
  });

  it('the TER paper example: 1 shift + 2 substitutions + 1 missing word over 13 reference words', () => {
    // Snover et al. 2006, "A Study of Translation Edit Rate with Targeted Human Annotation", section 2.
    const score = sentenceScore(
      new TercomTer(),
      'THIS WEEK the saudis denied information published in the new york times',
      ['SAUDI ARABIA denied THIS WEEK information published in the AMERICAN new york times'],
    );
    expect(score.details).toMatchObject({
      num_edits: 4,
      ref_length: 13,
      shifts: 1,
      words_shifted: 2,
      sub: 2,
      del: 1,
      ins: 0,
    });
    expect(score.score).toBe(100 * (4 / 13));
  });

  it('shifts only with a positive maximum distance (-d 0 turns them off)', () => {
    const hyp = Int32Array.of(1, 2, 3, 4);
    const ref = Int32Array.of(3, 4, 1, 2);
    const off = new TercomAligner({ beamWidth: 20, maxShiftDistance: 0 });
    expect(off.align(hyp, 4, ref, 4)).toBe(4);
    expect(off.counts.shifts).toBe(0);
    const on = new TercomAligner();
    expect(on.align(hyp, 4, ref, 4)).toBe(1);
    expect(on.counts).toMatchObject({ shifts: 1, wordsShifted: 2, ins: 0, del: 0, sub: 0 });
  });
});
