/**
 * Palette's `-d/--detail` alignment listing for the metrics that align words (WER, TER): printed after the scores,
 * one block per system and metric, one entry per segment. sacrebleu has no such listing (its `-d` without a test set
 * only switches JSON to text, which Palette keeps); this is a Palette addition.
 *
 * Each segment shows, sclite-style, the reference and the (shifted) hypothesis in aligned columns and a third row
 * marking each column `S` (substitution), `D` (deletion: a reference word the hypothesis lacks), `I` (insertion: a
 * hypothesis word with no reference counterpart); a missing word is `***`. TER's shifts come first, one line each,
 * with the words moved and their positions in the hypothesis as it was before that shift (1-based).
 */
import type { SegmentAlignment } from '../metrics/registry.js';
import { TerOp } from '../metrics/ter/alignment.js';

const GAP = '***';
const MARK = ['', 'S', 'I', 'D'];

/** Code points, the width a terminal gives most text. */
const width = (s: string): number => [...s].length;
const padRight = (s: string, w: number): string => s + ' '.repeat(Math.max(0, w - width(s)));

/** The aligned REF/HYP/OPS rows of one alignment. */
function alignedRows(a: SegmentAlignment): string[] {
  const ref: string[] = [];
  const hyp: string[] = [];
  const marks: string[] = [];
  let h = 0;
  let r = 0;
  for (const op of a.ops) {
    const hypWord = (): string => a.hypWords[a.hypOrder[h++]];
    if (op === TerOp.Match || op === TerOp.Sub) {
      ref.push(a.refWords[r++]);
      hyp.push(hypWord());
    } else if (op === TerOp.Ins) {
      ref.push(GAP);
      hyp.push(hypWord());
    } else {
      ref.push(a.refWords[r++]);
      hyp.push(GAP);
    }
    marks.push(MARK[op]);
  }
  const widths = ref.map((word, k) => Math.max(width(word), width(hyp[k]), 1));
  const row = (label: string, cells: string[]): string =>
    `  ${label} ${cells.map((c, k) => padRight(c, widths[k])).join(' ')}`.trimEnd();
  return [row('REF:', ref), row('HYP:', hyp), row('OPS:', marks)];
}

/** Counts of an alignment's operations. */
function counts(a: SegmentAlignment): string {
  let sub = 0;
  let del = 0;
  let ins = 0;
  for (const op of a.ops) {
    if (op === TerOp.Sub) sub++;
    else if (op === TerOp.Del) del++;
    else if (op === TerOp.Ins) ins++;
  }
  const shifts = a.shifts.length > 0 ? `, shifts ${a.shifts.length}` : '';
  return `S ${sub}, D ${del}, I ${ins}${shifts}`;
}

/**
 * The listing of one system for one metric (no final newline).
 * @param name the score's name (`WER`, `TER`)
 * @param system the system's name
 * @param alignments one per segment, in order
 */
export function formatAlignments(name: string, system: string, alignments: readonly SegmentAlignment[]): string {
  const lines = [`${name} alignment of ${system} (S substitution, D deletion, I insertion; ${GAP} no word):`];
  alignments.forEach((a, i) => {
    lines.push(`segment ${i + 1}, reference ${a.reference + 1}: ${a.edits} edits (${counts(a)})`);
    // Shifts are replayed on a copy so that each names the words it moved.
    let order = Array.from({ length: a.hypWords.length }, (_, k) => k);
    for (const shift of a.shifts) {
      const moved = order.slice(shift.start, shift.start + shift.length);
      const words = moved.map((k) => a.hypWords[k]).join(' ');
      lines.push(
        `  shift: "${words}" (words ${shift.start + 1}-${shift.start + shift.length}) to before word ${shift.target + 1}`,
      );
      order = applyShift(order, shift.start, shift.length, shift.target);
    }
    lines.push(...alignedRows(a));
  });
  return lines.join('\n');
}

/** The order after moving `length` items at `start` to before the item at `target` (clamped to the block's edges). */
function applyShift(order: number[], start: number, length: number, target: number): number[] {
  const block = order.slice(start, start + length);
  const rest = [...order.slice(0, start), ...order.slice(start + length)];
  const at = target <= start ? target : Math.max(start, target - length);
  return [...rest.slice(0, at), ...block, ...rest.slice(at)];
}
