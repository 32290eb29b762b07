/**
 * Plain oracles of the n-best byte parse (assembly/nbest-lines.ts). The line split: the decoded text split at `\n`
 * (a final `\n` starts no line), one `\r` before it dropped, `|||` found with `indexOf` from after the previous
 * match; byte positions from the UTF-8 length of the text before each position.
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

/** The candidate columns of a chunk (see assembly/nbest-lines.ts `nbestCandidates`), as plain arrays. */
export interface OracleCandidates {
  ids: number[];
  /** Line (the chunk's first is `firstLine`). */
  lines: number[];
  hypStarts: number[];
  hypEnds: number[];
  hypStarts16: number[];
  hypEnds16: number[];
  featureStarts: number[];
  featureEnds: number[];
  featureStarts16: number[];
  featureEnds16: number[];
}

/** Spaces and tabs dropped at both ends (the blanks of an id and a score). */
function trimBlanks(s: string): string {
  return s.replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * Plain oracle of the byte parse of a chunk: undefined when `bytes` are not valid UTF-8 (a strict decoder refuses
 * them) or some non-empty line is not plainly well-formed (two to five separators, an id of at most ten digits
 * below 2^31 with spaces or tabs around it, ids non-decreasing from 0 and below `segments`, a score field, when
 * there is one, matching the plain decimal pattern); else the candidates' columns from {@link oracleNbestLines}.
 */
export function oracleNbestCandidates(bytes: Uint8Array, firstLine: number, segments: number | undefined): OracleCandidates | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const out: OracleCandidates = {
    ids: [], lines: [], hypStarts: [], hypEnds: [], hypStarts16: [], hypEnds16: [],
    featureStarts: [], featureEnds: [], featureStarts16: [], featureEnds16: [],
  };
  let previous = 0;
  const lines = oracleNbestLines(text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.end === line.start) continue;
    if (line.delims < 2 || line.delims > 5) return undefined;
    const idText = trimBlanks(text.slice(line.start16, line.delim16[0]));
    if (!/^[0-9]{1,10}$/.test(idText) || Number(idText) > 0x7fffffff) return undefined;
    const id = Number(idText);
    if (id < previous || (segments !== undefined && id >= segments)) return undefined;
    if (line.delims >= 3) {
      const score = trimBlanks(text.slice(line.delim16[2] + 3, line.delims >= 4 ? line.delim16[3] : line.end16));
      if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(score)) return undefined;
    }
    previous = id;
    out.ids.push(id);
    out.lines.push(firstLine + i);
    out.hypStarts.push(line.delimBytes[0] + 3);
    out.hypEnds.push(line.delimBytes[1]);
    out.hypStarts16.push(line.delim16[0] + 3);
    out.hypEnds16.push(line.delim16[1]);
    out.featureStarts.push(line.delimBytes[1] + 3);
    out.featureEnds.push(line.delims >= 3 ? line.delimBytes[2] : line.end);
    out.featureStarts16.push(line.delim16[1] + 3);
    out.featureEnds16.push(line.delims >= 3 ? line.delim16[2] : line.end16);
  }
  return out;
}
