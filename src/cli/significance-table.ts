/**
 * python-tabulate's `fancy_grid` for cells holding several lines, as sacrebleu's paired-test table needs (a score
 * with its p-value on a second line): every column is as wide as its widest line (at least header + 2), every
 * line of a cell is padded on its own (the first column right-aligned, the others centred, Python's `'^'` putting
 * the odd space on the right), a row is as tall as its tallest cell and shorter cells are filled with blank lines
 * at the bottom. Every cell here is text, so tabulate's number re-formatting never applies. Widths count code
 * points; ANSI colour codes do not count.
 */

const ANSI = /\x1b\[[0-9;]*m/g;

function width(s: string): number {
  let n = 0;
  for (const _ of s.replace(ANSI, '')) n++;
  return n;
}

function pad(s: string, to: number, align: 'right' | 'center'): string {
  const room = Math.max(0, to - width(s));
  if (align === 'right') return ' '.repeat(room) + s;
  const left = Math.floor(room / 2);
  return ' '.repeat(left) + s + ' '.repeat(room - left);
}

/** Python `str.strip()` for what cells hold (ASCII whitespace). */
const strip = (s: string): string => s.replace(/^\s+|\s+$/g, '');

/** One column: its header and its cells (lines separated by `\n`). */
export interface MultilineColumn {
  readonly header: string;
  readonly cells: readonly string[];
}

/** Renders the columns as tabulate's `fancy_grid` with multi-line cells (no trailing newline). */
export function renderMultilineGrid(columns: readonly MultilineColumn[]): string {
  const aligns = columns.map((_, i) => (i === 0 ? 'right' : 'center') as 'right' | 'center');
  const nRows = columns.length === 0 ? 0 : columns[0].cells.length;
  const widths = columns.map((col) => {
    let w = width(col.header) + 2;
    for (const cell of col.cells) for (const line of strip(cell).split('\n')) w = Math.max(w, width(line));
    return w;
  });
  const cellLines = (text: string, c: number): string[] =>
    strip(text)
      .split('\n')
      .map((line) => pad(line, widths[c], aligns[c]));
  const line = (begin: string, fill: string, sep: string, end: string): string =>
    begin + widths.map((w) => fill.repeat(w + 2)).join(sep) + end;
  const rowLines = (cells: string[][]): string[] => {
    const height = Math.max(...cells.map((c) => c.length));
    const out: string[] = [];
    for (let k = 0; k < height; k++) {
      out.push('│' + cells.map((c, i) => ` ${c[k] ?? ' '.repeat(widths[i])} `).join('│') + '│');
    }
    return out;
  };
  const out = [line('╒', '═', '╤', '╕'), ...rowLines(columns.map((col, c) => cellLines(col.header, c)))];
  out.push(line('╞', '═', '╪', '╡'));
  for (let r = 0; r < nRows; r++) {
    if (r > 0) out.push(line('├', '─', '┼', '┤'));
    out.push(...rowLines(columns.map((col, c) => cellLines(col.cells[r], c))));
  }
  out.push(line('╘', '═', '╧', '╛'));
  return out.join('\n');
}
