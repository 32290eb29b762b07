/**
 * One column step of the bit-vector Levenshtein algorithm (Myers 1999, "A fast bit-vector algorithm for approximate
 * string matching based on dynamic programming", in the edit-distance form of Hyyrö 2003, "A bit-vector algorithm
 * for computing Levenshtein and Damerau edit distances") over a pattern of any length, held in u64 words.
 *
 * Column j of the distance table D (pattern positions as rows) is kept as two vectors of vertical differences:
 * bit i of VP is set where D[i+1][j] − D[i][j] = +1, bit i of VN where it is −1. Reading text token t with
 * pattern match vector PM[t]:
 *   X = PM[t] | VN,  D0 = (((X & VP) + VP) ^ VP) | X,  HP = VN | ~(D0 | VP),  HN = VP & D0,
 *   HP' = (HP << 1) | 1,  HN' = HN << 1,  VP = HN' | ~(D0 | HP'),  VN = HP' & D0.
 * The `| 1` shifts in the top row's +1 (D[0][j] = j: global distance). Across words, the addition's carry and the
 * bits shifted out of HP and HN pass to the next word up; nothing passes down, so bits at and above the pattern's
 * length never disturb the bits below it.
 */

/** Word `w` of the vertical-positive vector of the start column (D[i][0] = i: every difference is +1). */
export const START_VP: u64 = u64.MAX_VALUE;

/**
 * Advances a column of `words` words by one text token: reads VP and VN at `vp`/`vn` (0: the start column), the
 * match vector word by word from `pm` (0: a token absent from the pattern), writes the next column to `outVp`/`outVn`
 * (which may be `vp`/`vn`).
 */
// @ts-ignore: decorator
@inline
export function levenshteinStep(vp: usize, vn: usize, pm: usize, outVp: usize, outVn: usize, words: i32): void {
  let carry: u64 = 0;
  let hpCarry: u64 = 1;
  let hnCarry: u64 = 0;
  const end = usize(words) << 3;
  for (let q: usize = 0; q < end; q += 8) {
    const p = vp ? load<u64>(vp + q) : START_VP;
    const n = vn ? load<u64>(vn + q) : 0;
    const x = (pm ? load<u64>(pm + q) : 0) | n;
    const t = x & p;
    const s = t + p;
    const sum = s + carry;
    carry = u64(s < t) | u64(sum < s);
    const d0 = (sum ^ p) | x;
    const hp = n | ~(d0 | p);
    const hn = p & d0;
    const hps = (hp << 1) | hpCarry;
    const hns = (hn << 1) | hnCarry;
    hpCarry = hp >> 63;
    hnCarry = hn >> 63;
    store<u64>(outVp + q, hns | ~(d0 | hps));
    store<u64>(outVn + q, hps & d0);
  }
}

/**
 * D[m][n] from the last column's vectors (`words` words at `vp`, `vn`) of a pattern of `m` tokens after `n` text
 * tokens: D[0][n] = n plus the vertical differences of rows 1..m.
 */
// @ts-ignore: decorator
@inline
export function distanceOfColumn(vp: usize, vn: usize, m: i32, n: i32, words: i32): i32 {
  let d = n;
  for (let w = 0; w < words; w++) {
    const bits = m - (w << 6);
    const mask = bits >= 64 ? u64.MAX_VALUE : bits <= 0 ? 0 : (u64(1) << u64(bits)) - 1;
    const q = usize(w) << 3;
    d += i32(popcnt<u64>(load<u64>(vp + q) & mask)) - i32(popcnt<u64>(load<u64>(vn + q) & mask));
  }
  return d;
}
