/**
 * ROUGE-1.5.5's length limits `-l N` (words) and `-b N` (bytes), applied as its readers apply them: to the raw
 * sentences of every summary — peer AND models alike, although the usage text speaks of the peer only — before
 * any tokenization, so a "word" is a whitespace-separated chunk such as `well-known,` (which may later give two
 * tokens or none) and bytes are UTF-8 bytes of the raw text.
 *
 * ROUGE reads the text twice, with two subtly different routines, and both results matter:
 * - `ngram` (its `readText`: ROUGE-N, ROUGE-S/SU, and the unigram counts that clip ROUGE-L/W hits): sentences are
 *   taken whole while the running total stays below N, then the sentence that reaches N is cut to the remaining
 *   N − total words or bytes, and reading stops. Bytes of the spaces joining sentences are not counted.
 * - `lcs` (its `readText_LCS`: the sentences of ROUGE-L/W): identical for `-l`; for `-b` the running byte total
 *   is never increased (a bug), so every sentence is compared with N on its own: sentences shorter than N bytes
 *   are all kept until the first one of N bytes or more, which is cut to N bytes, and reading stops there.
 *
 * Word counting is Perl's `split(/\s+/, $s)` with `\s` = space, \t, \n, \v, \f, \r (bytes ≥ 0x80 never match):
 * a sentence starting with whitespace has an empty first field, which counts as a word (and takes a word's place
 * when the sentence is cut). A byte cut that falls inside a multi-byte character drops that character: ROUGE
 * would blank its bytes, and either way it only separates tokens.
 *
 * Sentences of length 0 are skipped first, as ROUGE's sentence-per-line reader skips empty lines.
 */

/** ROUGE-1.5.5's length limit: at most one of `words` (`-l`) and `bytes` (`-b`); 0 or absent = no limit. */
export interface Rouge155Limit {
  /** `-l N`: keep the first N words. @default 0 (no limit) */
  readonly words?: number;
  /** `-b N`: keep the first N bytes. @default 0 (no limit) */
  readonly bytes?: number;
}

/** Which of ROUGE-1.5.5's two readers to imitate (see the module comment). */
export type Rouge155ReadPurpose = 'ngram' | 'lcs';

/** Perl's `\s` on a byte string. */
function isPerlSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/**
 * Perl `split(/\s+/, s)` as [start, end) offsets: the fields, a leading empty one (at 0, 0) included, trailing
 * empty ones dropped.
 */
function perlFieldSpans(s: string): [number, number][] {
  const spans: [number, number][] = [];
  const n = s.length;
  let i = 0;
  if (n > 0 && isPerlSpace(s.charCodeAt(0))) {
    while (i < n && isPerlSpace(s.charCodeAt(i))) i++;
    if (i === n) return spans; // only whitespace: every field is empty, so none is returned
    spans.push([0, 0]);
  }
  while (i < n) {
    const start = i;
    while (i < n && !isPerlSpace(s.charCodeAt(i))) i++;
    spans.push([start, i]);
    while (i < n && isPerlSpace(s.charCodeAt(i))) i++;
  }
  return spans;
}

/** Perl `split(/\s+/, s)`: the fields, a leading empty one included, trailing empty ones dropped. */
function perlSplitWords(s: string): string[] {
  return perlFieldSpans(s).map(([start, end]) => s.slice(start, end));
}

/** UTF-8 length of one UTF-16 code unit position (a surrogate pair counts 4 on its high half, 0 on its low half). */
function utf8Width(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 4 : 3;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const p = i > 0 ? s.charCodeAt(i - 1) : 0;
    return p >= 0xd800 && p <= 0xdbff ? 0 : 3;
  }
  return 3;
}

/** Number of UTF-8 bytes of `s` (lone surrogates count 3, as their replacement would). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) n += utf8Width(s, i);
  return n;
}

/** The longest prefix of `s` whose UTF-8 encoding fits in `bytes` bytes (whole characters only). */
function utf8Prefix(s: string, bytes: number): string {
  let used = 0;
  let i = 0;
  while (i < s.length) {
    const w = utf8Width(s, i);
    const unit = w === 4 ? 2 : 1;
    if (used + w > bytes) break;
    used += w;
    i += unit;
  }
  return s.slice(0, i);
}

function checkLimit(value: number | undefined, name: string): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer (got ${value})`);
  return value;
}

/**
 * The sentences of one summary as ROUGE-1.5.5 reads them under `limit`, for the given reader. Without a limit
 * the non-empty sentences are returned unchanged.
 * @throws RangeError when both limits are set (ROUGE refuses that too) or a limit is not a non-negative integer.
 */
export function truncateRouge155(
  sentences: readonly string[],
  limit: Rouge155Limit,
  purpose: Rouge155ReadPurpose,
): string[] {
  const words = checkLimit(limit.words, 'limit.words');
  const bytes = checkLimit(limit.bytes, 'limit.bytes');
  if (words > 0 && bytes > 0) throw new RangeError('limit.words and limit.bytes cannot both be set');
  const lines = sentences.filter((s) => s.length > 0);
  const out: string[] = [];
  if (words > 0) {
    let total = 0;
    for (const s of lines) {
      const fields = perlSplitWords(s);
      if (total + fields.length < words) {
        out.push(s);
        total += fields.length;
      } else {
        out.push(fields.slice(0, words - total).join(' '));
        break;
      }
    }
    return out;
  }
  if (bytes > 0) {
    let total = 0;
    for (const s of lines) {
      const size = utf8Length(s);
      if (total + size < bytes) {
        out.push(s);
        if (purpose === 'ngram') total += size;
      } else {
        out.push(utf8Prefix(s, bytes - total));
        break;
      }
    }
    return out;
  }
  return lines;
}

/**
 * The sentences of one summary read as ONE line, the sentences joined by single spaces (ROUGE-L of the rouge155
 * flavor reads a summary as one line): the line is cut under `limit` as {@link truncateRouge155} cuts a line (its
 * two readers agree on a single line), and what remains is returned cut back at the sentence boundaries, so that
 * each piece can be tokenized on its own and no token spans two sentences. Empty sentences are dropped first; the
 * first piece is kept even when the cut leaves it empty (the line is still there, without words); no sentences
 * give no pieces.
 * @throws RangeError as {@link truncateRouge155}.
 */
export function truncateRouge155Line(sentences: readonly string[], limit: Rouge155Limit): string[] {
  const words = checkLimit(limit.words, 'limit.words');
  const bytes = checkLimit(limit.bytes, 'limit.bytes');
  if (words > 0 && bytes > 0) throw new RangeError('limit.words and limit.bytes cannot both be set');
  const lines = sentences.filter((s) => s.length > 0);
  if (lines.length === 0) return [];
  const line = lines.join(' ');
  // starts[i]: where sentence i begins in the line.
  const starts: number[] = [];
  let at = 0;
  for (const s of lines) {
    starts.push(at);
    at += s.length + 1;
  }
  if (words > 0) {
    const spans = perlFieldSpans(line);
    if (spans.length < words) return lines;
    // The line keeps its first `words` fields joined by spaces; a joining space never lies inside a field, so each
    // field belongs to one sentence (the leading empty field, at 0, to the first).
    const pieces: string[][] = [[]];
    let sentence = 0;
    for (const [start, end] of spans.slice(0, words)) {
      while (sentence + 1 < lines.length && start >= starts[sentence + 1]) sentence++;
      while (pieces.length <= sentence) pieces.push([]);
      pieces[sentence].push(line.slice(start, end));
    }
    return pieces.filter((p, i) => i === 0 || p.length > 0).map((p) => p.join(' '));
  }
  if (bytes > 0) {
    if (utf8Length(line) < bytes) return lines;
    const kept = utf8Prefix(line, bytes);
    const pieces = [kept.slice(0, lines[0].length)];
    for (let i = 1; i < lines.length && starts[i] < kept.length; i++) {
      pieces.push(kept.slice(starts[i], starts[i] + lines[i].length));
    }
    return pieces;
  }
  return lines;
}
