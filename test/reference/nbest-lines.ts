/**
 * Plain oracle of the n-best line scan (assembly/nbest-lines.ts): the decoded text split at `\n` (a final `\n`
 * starts no line), one `\r` before it dropped, `|||` found with `indexOf` from after the previous match; byte
 * positions from the UTF-8 length of the text before each position.
 */
export interface OracleLine {
  start: number;
  end: number;
  start16: number;
  end16: number;
  /** Separators, capped at 6 ("more than five"). */
  delims: number;
  /** Byte and UTF-16 positions of the first five separators. */
  delimBytes: number[];
  delim16: number[];
}

const encoder = new TextEncoder();

export function oracleNbestLines(text: string): OracleLine[] {
  const bytesBefore = (i: number): number => encoder.encode(text.slice(0, i)).length;
  const out: OracleLine[] = [];
  let start = 0;
  while (start < text.length) {
    let stop = text.indexOf('\n', start);
    if (stop < 0) stop = text.length;
    let end = stop;
    if (end > start && text[end - 1] === '\r') end--;
    const delim16: number[] = [];
    let delims = 0;
    for (let at = text.indexOf('|||', start); at >= 0 && at + 3 <= end; at = text.indexOf('|||', at + 3)) {
      if (delims < 5) delim16.push(at);
      if (delims <= 5) delims++;
    }
    out.push({
      start: bytesBefore(start),
      end: bytesBefore(end),
      start16: start,
      end16: end,
      delims,
      delimBytes: delim16.map(bytesBefore),
      delim16,
    });
    start = stop + 1;
  }
  return out;
}
