/**
 * The multi-system results table exactly as sacrebleu prints it: python-tabulate's `fancy_grid` (for `-f text`)
 * and `latex_booktabs` (for `-f latex`) formats, called as sacrebleu calls them — `headers='keys'`, the first column
 * right-aligned, every other column centred, `floatfmt='.{width}f'`. Only that call is reproduced: tabulate's type
 * inference (a column of number-like strings is re-parsed and re-formatted with `floatfmt`), its minimum column width
 * (header + 2), Python's `'^'` centring (extra space on the right) and its LaTeX escapes. Widths count code points,
 * as tabulate does without the optional `wcwidth` package; ANSI colour codes do not count.
 */
import { pyFixed, pyParseFloat, pyParseInt } from './py-format.js';

/** One column of the table: its header and one cell per row. */
export interface TableColumn {
  readonly header: string;
  readonly cells: readonly string[];
}

/** The two tabulate formats sacrebleu uses. */
export type TableStyle = 'fancy_grid' | 'latex_booktabs';

type CellType = 0 | 1 | 2 | 3; // bool < int < float < text, tabulate's order of generality

const ANSI = /\x1b\[[0-9;]*m/g;
const visible = (s: string): string => s.replace(ANSI, '');
const width = (s: string): number => {
  let n = 0;
  for (const _ of visible(s)) n++;
  return n;
};

function cellType(raw: string): CellType {
  const s = visible(raw);
  if (s === 'True' || s === 'False') return 0;
  if (pyParseInt(s) !== undefined) return 1;
  const f = pyParseFloat(s);
  if (f !== undefined) {
    // tabulate counts 'inf'/'nan' spellings as numbers only in these three forms.
    if (!Number.isFinite(f)) return ['inf', '-inf', 'nan'].includes(s.toLowerCase()) ? 2 : 3;
    return 2;
  }
  return 3;
}

function formatCell(raw: string, type: CellType, floatDigits: number): string {
  if (type !== 2) return raw;
  const plain = visible(raw);
  const formatted = pyFixed(pyParseFloat(plain) as number, floatDigits);
  return raw === plain ? formatted : raw.replace(plain, formatted);
}

/** Python `str.strip()` on ASCII and Latin-1 whitespace, which is all a file name or score carries in practice. */
const strip = (s: string): string => s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, '');

function pad(s: string, to: number, align: 'right' | 'center'): string {
  const room = Math.max(0, to - width(s));
  if (align === 'right') return ' '.repeat(room) + s;
  const left = Math.floor(room / 2);
  return ' '.repeat(left) + s + ' '.repeat(room - left);
}

const LATEX_ESCAPES: Record<string, string> = {
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '^': '\\^{}',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '\\': '\\textbackslash{}',
  '<': '\\ensuremath{<}',
  '>': '\\ensuremath{>}',
};
const latexEscape = (s: string): string => s.replace(/[&%$#_^{}~\\<>]/g, (c) => LATEX_ESCAPES[c]);

/**
 * Renders columns as tabulate would (no trailing newline).
 * @param floatDigits the `floatfmt` precision, sacrebleu's `--width`
 */
export function renderTable(columns: readonly TableColumn[], style: TableStyle, floatDigits: number): string {
  const aligns = columns.map((_, i) => (i === 0 ? 'right' : 'center') as 'right' | 'center');
  const nRows = columns.length === 0 ? 0 : columns[0].cells.length;
  const aligned: string[][] = [];
  const widths: number[] = [];
  const headers: string[] = [];
  columns.forEach((col, c) => {
    let type: CellType = 0;
    for (const cell of col.cells) type = Math.max(type, cellType(cell)) as CellType;
    const cells = col.cells.map((cell) => strip(formatCell(cell, type, floatDigits)));
    const w = Math.max(width(col.header) + 2, ...cells.map(width));
    widths.push(w);
    aligned.push(cells.map((cell) => pad(cell, w, aligns[c])));
    headers.push(pad(col.header, w, aligns[c]));
  });
  const rows: string[][] = [];
  for (let r = 0; r < nRows; r++) rows.push(aligned.map((col) => col[r]));
  const padded = (cells: string[]): string[] => cells.map((cell) => ` ${cell} `);

  if (style === 'latex_booktabs') {
    const row = (cells: string[]): string => padded(cells).map(latexEscape).join('&') + '\\\\';
    const spec = aligns.map((a) => (a === 'right' ? 'r' : 'c')).join('');
    return [
      `\\begin{tabular}{${spec}}`,
      '\\toprule',
      row(headers),
      '\\midrule',
      ...rows.map(row),
      '\\bottomrule',
      '\\end{tabular}',
    ].join('\n');
  }
  const line = (begin: string, fill: string, sep: string, end: string): string =>
    begin + widths.map((w) => fill.repeat(w + 2)).join(sep) + end;
  const row = (cells: string[]): string => '│' + padded(cells).join('│') + '│';
  const out = [line('╒', '═', '╤', '╕'), row(headers), line('╞', '═', '╪', '╡')];
  rows.forEach((cells, i) => {
    if (i > 0) out.push(line('├', '─', '┼', '┤'));
    out.push(row(cells));
  });
  out.push(line('╘', '═', '╧', '╛'));
  return out.join('\n');
}
