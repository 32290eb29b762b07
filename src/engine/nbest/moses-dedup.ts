/**
 * Moses `extractor`'s duplicate removal (mert/Data.cpp `Data::removeDuplicates`), per sentence.
 *
 * A candidate is a duplicate when an earlier kept candidate of the same sentence has equal features (compared as
 * single-precision floats, Moses' `FeatureStatsType`) and equal statistics. Moses does not delete in place: it swaps
 * the duplicate with the last not-yet-dropped candidate and shrinks the list, then looks at the swapped-in one, so
 * the surviving order differs from the input order. We reproduce that order exactly, because SCORES_TXT is compared
 * byte for byte.
 *
 * Candidates are compared without a key string each: a hash of the statistics row narrows the pairs, then the
 * statistics and the features fields are compared directly ({@link sameMosesFeatureFields}); the answer is that of
 * comparing {@link mosesFeatureKey}s (equal arrays give equal keys and, for the finite values Moses writes, equal
 * keys mean equal arrays), which test/reference/moses-dedup.ts does.
 */

/**
 * The feature key of a Moses features field (`name= v v name= v`, or `name=v` sparse pairs): names ending in `=`
 * are dropped, each dense value is parsed and rounded to single precision (`atof` into a `float`), a sparse
 * `name=value` pair keeps its name. Equal keys ⇔ equal feature vectors as Moses compares them.
 */
export function mosesFeatureKey(field: string): string {
  const { values, names } = parseMosesFeatures(field);
  let key = '';
  // String(-0) is "0": -0 and 0 compare equal in C as well.
  for (let k = 0; k < values.length; k++) key += `${names?.[k] ?? ''}${values[k]} `;
  return key;
}

/** Hash-table scratch of {@link mosesRemoveDuplicatesBy}, grown as needed and reused (one call at a time per thread). */
let heads = new Int32Array(64);
let chain = new Int32Array(64);
let hashes = new Int32Array(64);
/** With `narrow`: the first kept candidate of each `hash` value (open addressing; -1 = empty) and its hash. */
let firstOf = new Int32Array(64);
let firstHash = new Int32Array(64);
/** With `narrow`: whether a kept candidate is in the chained table yet. */
let chained = new Uint8Array(64);

/**
 * Removes duplicates from one sentence's candidates as Moses does (a duplicate is swapped with the last candidate
 * and dropped), without a key string per candidate: candidates `i` and `j` are duplicates when `same(i, j)`;
 * `hash(i)` (an int32) must be equal for duplicates (it only narrows the candidates `same` is asked about). Returns
 * the kept indices into the input, in Moses' order (test/reference/moses-dedup.ts is the plain key-based version).
 * The kept candidates sit in an open hash table of typed arrays (chained through `chain`), not a Map of arrays.
 *
 * `narrow(i)`, when given, is a second hash that must also be equal for duplicates, computed only for candidates
 * whose `hash` some other candidate has too: a candidate with a `hash` of its own is kept at once, and the others
 * are looked up by both hashes. A cheap `hash` that many non-duplicates share (the statistics of one text reached by
 * several derivations) then costs the expensive one (parsing features) only where it decides something.
 */
export function mosesRemoveDuplicatesBy(
  count: number,
  hash: (i: number) => number,
  same: (i: number, j: number) => boolean,
  narrow?: (i: number) => number,
): Int32Array {
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let size = 16;
  while (size < 2 * count) size *= 2;
  if (heads.length < size) {
    heads = new Int32Array(size);
    firstOf = new Int32Array(size);
    firstHash = new Int32Array(size);
  }
  if (chain.length < count) {
    chain = new Int32Array(2 * count);
    hashes = new Int32Array(2 * count);
    chained = new Uint8Array(2 * count);
  }
  heads.fill(-1, 0, size);
  if (narrow !== undefined) firstOf.fill(-1, 0, size);
  const mask = size - 1;
  // Puts kept candidate `c` of full hash `h` into the chained table.
  const chainIn = (c: number, h: number): void => {
    const slot = (h ^ (h >>> 15)) & mask;
    hashes[c] = h;
    chain[c] = heads[slot];
    heads[slot] = c;
  };
  // With `narrow`, the full hash of a candidate whose `hash` is `h`.
  const full = (c: number, h: number): number => h ^ Math.imul(narrow!(c) | 0, 0x9e3779b1);
  let end = count - 1;
  for (let k = 0; k <= end; k++) {
    const c = order[k];
    let h = hash(c) | 0;
    if (narrow !== undefined) {
      let slot = (h ^ (h >>> 15)) & mask;
      while (firstOf[slot] >= 0 && firstHash[slot] !== h) slot = (slot + 1) & mask;
      const first = firstOf[slot];
      if (first < 0) {
        // No kept candidate has this hash: not a duplicate, and chained only when another one comes.
        firstOf[slot] = c;
        firstHash[slot] = h;
        chained[c] = 0;
        continue;
      }
      if (chained[first] === 0) {
        chainIn(first, full(first, h));
        chained[first] = 1;
      }
      h = full(c, h);
    }
    const slot = (h ^ (h >>> 15)) & mask;
    let duplicate = false;
    for (let e = heads[slot]; e >= 0; e = chain[e]) {
      if (hashes[e] === h && same(e, c)) {
        duplicate = true;
        break;
      }
    }
    if (!duplicate) {
      chainIn(c, h);
      chained[c] = 1;
      continue;
    }
    if (k < end) {
      order[k] = order[end];
      order[end] = c;
      k--;
    }
    end--;
  }
  return order.subarray(0, end + 1);
}

/** Space or tab: the separators of a features field, and the blanks around an n-best line's id and score. */
export function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** The scanner's last counted token: `[start, end)`, its value from `value` (after the name's last `=`). */
let tokenStart = 0;
let tokenValue = 0;
let tokenEnd = 0;

/**
 * Whether two features fields (or {@link mosesFeatureKey}s) have equal keys, comparing them token by token without
 * parsing what is textually equal: labels are skipped, sparse names (with their `=`) must match exactly, and a
 * value is parsed (then rounded to single precision) only where the two texts differ ("0.50" and "0.5", "-0" and
 * "0"). No allocation unless a differing value is not a plain decimal.
 */
export function sameMosesFeatureFields(a: string, b: string): boolean {
  if (a === b) return true;
  const aEnd = encodeField(a, 0);
  const bEnd = encodeField(b, aEnd);
  return sameMosesFeatureBytes(fieldBytes, 0, aEnd, aEnd, bEnd);
}

/** Counted tokens {@link mosesFeatureHash} looks at: enough to tell derivations apart, few enough to be cheap. */
const HASHED_VALUES = 4;

/**
 * A hash of a features field that is equal for fields {@link sameMosesFeatureFields} finds equal: the sparse names
 * and single-precision values of its first {@link HASHED_VALUES} counted tokens (-0 hashes as 0, every NaN alike),
 * so that candidates with equal statistics but other features (common in an n-best list: one hypothesis from
 * several derivations) rarely meet in a bucket, at the cost of parsing a few values per candidate.
 */
export function mosesFeatureHash(field: string): number {
  return mosesFeatureHashBytes(fieldBytes, 0, encodeField(field, 0));
}

/** UTF-8 of the fields the text functions compare or hash (one call at a time per thread), grown as needed. */
let fieldBytes = new Uint8Array(256);
const fieldEncoder = new TextEncoder();

/** Writes `field`'s UTF-8 into {@link fieldBytes} from `at` (what is there before `at` is kept); its end. */
function encodeField(field: string, at: number): number {
  const need = at + 3 * field.length;
  if (fieldBytes.length < need) {
    const grown = new Uint8Array(2 * need);
    grown.set(fieldBytes.subarray(0, at));
    fieldBytes = grown;
  }
  return at + fieldEncoder.encodeInto(field, fieldBytes.subarray(at)).written;
}

/** Decodes a value's bytes for `Number` (a copy: a view of shared memory is not decoded everywhere). */
const valueDecoder = new TextDecoder();

/**
 * `Number` of the UTF-8 bytes `bytes[from .. to]` (valid UTF-8) without decoding them for a plain decimal
 * (`[+-]digits[.digits]`, at most 15 digits): the digits as an exact integer divided by an exact power of ten is one
 * correctly rounded operation, so it equals the correctly rounded parse. Other forms (exponents, NaN, Infinity, more
 * digits) go through `Number`.
 */
function valueOfBytes(bytes: Uint8Array, from: number, to: number): number {
  let i = from;
  let c = bytes[i];
  const negative = c === 0x2d;
  if (negative || c === 0x2b) i++;
  let v = 0;
  let digits = 0;
  let scale = 1;
  let dot = false;
  for (; i < to; i++) {
    c = bytes[i];
    if (c >= 0x30 && c <= 0x39) {
      v = v * 10 + (c - 0x30);
      digits++;
      if (dot) scale *= 10;
    } else if (c === 0x2e && !dot) {
      dot = true;
    } else {
      return Number(valueDecoder.decode(bytes.slice(from, to)));
    }
  }
  if (digits === 0 || digits > 15) return Number(valueDecoder.decode(bytes.slice(from, to)));
  return (negative ? -v : v) / scale;
}

/**
 * Finds the next counted token of the UTF-8 bytes `bytes[i .. end)` (blanks and labels, tokens ending in `=`, are
 * skipped) and leaves it in `tokenStart`/`tokenValue`/`tokenEnd`; false at the end of the field. Blanks and `=` are
 * ASCII, so the bytes of any other character split and name tokens as the characters do.
 */
function nextCountedBytes(bytes: Uint8Array, i: number, end: number): boolean {
  while (i < end) {
    while (i < end && isBlank(bytes[i])) i++;
    if (i === end) return false;
    const start = i;
    let eq = -1;
    for (; i < end; i++) {
      const c = bytes[i];
      if (isBlank(c)) break;
      if (c === 0x3d) eq = i;
    }
    if (eq === i - 1) continue;
    tokenStart = start;
    tokenValue = eq < 0 ? start : eq + 1;
    tokenEnd = i;
    return true;
  }
  return false;
}

/**
 * {@link sameMosesFeatureFields} of two features fields given as UTF-8 byte ranges of `bytes` (valid UTF-8): the
 * same answer, since equal texts are equal bytes and the tokens are the same.
 */
export function sameMosesFeatureBytes(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a === bEnd - b) {
    let k = 0;
    while (k < aEnd - a && bytes[a + k] === bytes[b + k]) k++;
    if (k === aEnd - a) return true;
  }
  let i = a;
  let j = b;
  for (;;) {
    const hasA = nextCountedBytes(bytes, i, aEnd);
    const sa = tokenStart;
    const va = tokenValue;
    const ea = tokenEnd;
    const hasB = nextCountedBytes(bytes, j, bEnd);
    if (!hasA || !hasB) return hasA === hasB;
    const sb = tokenStart;
    const vb = tokenValue;
    const eb = tokenEnd;
    i = ea;
    j = eb;
    if (va - sa !== vb - sb) return false;
    for (let k = 0; k < va - sa; k++) if (bytes[sa + k] !== bytes[sb + k]) return false;
    let textEqual = ea - va === eb - vb;
    for (let k = 0; textEqual && k < ea - va; k++) textEqual = bytes[va + k] === bytes[vb + k];
    if (textEqual) continue;
    const x = Math.fround(valueOfBytes(bytes, va, ea));
    const y = Math.fround(valueOfBytes(bytes, vb, eb));
    if (x !== y && !(x !== x && y !== y)) return false;
  }
}

/**
 * A hash of a features field given as the UTF-8 bytes `bytes[from .. to)`, equal for fields
 * {@link sameMosesFeatureBytes} finds equal ({@link mosesFeatureHash} of a text is this hash of its UTF-8).
 */
export function mosesFeatureHashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  let i = from;
  for (let counted = 0; counted < HASHED_VALUES && nextCountedBytes(bytes, i, to); counted++) {
    for (let k = tokenStart; k < tokenValue; k++) h = Math.imul(h ^ bytes[k], 0x01000193);
    const v = Math.fround(valueOfBytes(bytes, tokenValue, tokenEnd));
    h = Math.imul(h ^ (v | 0) ^ ((v * 65536) | 0), 0x01000193);
    i = tokenEnd;
  }
  return h;
}

/**
 * The features fields of a task's candidates as duplicate removal compares them: `same(i, j)` as
 * {@link sameMosesFeatureFields}, `hash(i)` equal whenever `same` holds.
 */
export interface FeatureFields {
  hash(i: number): number;
  same(i: number, j: number): boolean;
}

/** {@link FeatureFields} of texts. */
export function featureFieldsOfTexts(fields: readonly string[]): FeatureFields {
  return {
    hash: (i) => mosesFeatureHash(fields[i]),
    same: (i, j) => sameMosesFeatureFields(fields[i], fields[j]),
  };
}

/** {@link FeatureFields} of UTF-8 byte ranges: field `i` is `bytes[starts[i] .. ends[i])`. */
export function featureFieldsOfBytes(bytes: Uint8Array, starts: Int32Array, ends: Int32Array): FeatureFields {
  return {
    hash: (i) => mosesFeatureHashBytes(bytes, starts[i], ends[i]),
    same: (i, j) => sameMosesFeatureBytes(bytes, starts[i], ends[i], starts[j], ends[j]),
  };
}

/**
 * A features field parsed: the single-precision values in order and, for `name=value` pairs, the name with its `=`
 * (`''` for a dense value).
 */
export interface MosesFeatures {
  readonly values: number[];
  /** Undefined when every value is dense (Moses' `name= v v` form, names dropped). */
  readonly names: string[] | undefined;
}

/**
 * Parses a features field, or a {@link mosesFeatureKey} (parsing a key gives the same result as parsing its field:
 * a single-precision value prints as a double that rounds back to itself).
 */
export function parseMosesFeatures(field: string): MosesFeatures {
  const values: number[] = [];
  let names: string[] | undefined;
  const end = encodeField(field, 0);
  const text = (from: number, to: number): string => valueDecoder.decode(fieldBytes.slice(from, to));
  for (let i = 0; nextCountedBytes(fieldBytes, i, end); i = tokenEnd) {
    const sparse = tokenValue > tokenStart;
    if (sparse && names === undefined) names = values.map(() => '');
    names?.push(sparse ? text(tokenStart, tokenValue) : '');
    values.push(Math.fround(Number(text(tokenValue, tokenEnd))));
  }
  return { values, names };
}
