/**
 * ROUGE-1.5.5's summary file formats and what its readers take from each line (a file is read line by line, each
 * line with its `\n`):
 * - `SEE` (the HTML of NIST's SEE tool): a line `<a name="N">[N]</a> <a href="#N" id=N>TEXT` (optionally with
 *   `size="N" ` before `name`) gives the sentence TEXT = everything after `id=N>` up to the next `<` or the end of
 *   the line — *including* the line's `\n` when `</a>` is on the next line. Only that first line of a sentence is
 *   read: text on continuation lines is lost, exactly as in ROUGE. Entities are not decoded.
 * - `ISI`: a line `<S SNTNO="…">TEXT</S>` gives TEXT.
 * - `SPL` (sentence per line): every line without its `\n` is a sentence, empty lines skipped (a line of spaces is
 *   kept; a `\r` stays in the sentence).
 * - `SIMPLE` (Basic Elements, `-3`): every line without its `\n`, empty ones included, is a `HEAD|MODIFIER|RELATION`
 *   triple.
 * Lines that match no pattern are ignored. The patterns are ROUGE's, case-sensitive; its `\s` is ASCII whitespace
 * (the Perl reads bytes).
 */

import { decodeLines } from '../read-lines.js';

/** An input format (`INPUT-FORMAT TYPE`, or `-z`). */
export type Rouge155Format = 'SEE' | 'SPL' | 'ISI' | 'SIMPLE';

/** The format `name` names (ROUGE matches them case-insensitively), or undefined. */
export function parseRouge155Format(name: string): Rouge155Format | undefined {
  const upper = name.toUpperCase();
  return upper === 'SEE' || upper === 'SPL' || upper === 'ISI' || upper === 'SIMPLE' ? upper : undefined;
}

const SEE_SIZED = /^<a size="[0-9]+" name="[0-9]+">\[[0-9]+\]<\/a>[ \t\n\v\f\r]+<a href="#[0-9]+" id=[0-9]+>([^<]+)/;
const SEE_PLAIN = /^<a name="[0-9]+">\[[0-9]+\]<\/a>[ \t\n\v\f\r]+<a href="#[0-9]+" id=[0-9]+>([^<]+)/;
const ISI_LINE = /^<S SNTNO="[0-9a-z,]+">([^<]+)<\/S>/;

/** A line without its terminating `\n` (Perl `chomp`). */
function chomp(line: string): string {
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}

/**
 * The sentences ROUGE-1.5.5's `readText`/`readText_LCS` take from a summary's lines, before lowercasing and
 * length limits (those belong to the text layer).
 * @param lines the file's lines, each with its `\n` (the last one may lack it)
 * @param format `SEE`, `ISI` or `SPL`
 */
export function summarySentences(lines: readonly string[], format: Exclude<Rouge155Format, 'SIMPLE'>): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (format === 'SPL') {
      const text = chomp(line);
      if (text.length > 0) out.push(text);
      continue;
    }
    const m = format === 'SEE' ? (SEE_SIZED.exec(line) ?? SEE_PLAIN.exec(line)) : ISI_LINE.exec(line);
    if (m !== null) out.push(m[1]);
  }
  return out;
}

/**
 * The Basic Element lines ROUGE-1.5.5's `readBE` takes from a summary: every line of a `SIMPLE` file, chomped;
 * nothing from an `ISI` file (a placeholder in ROUGE).
 */
export function basicElementLines(lines: readonly string[], format: 'SIMPLE' | 'ISI'): string[] {
  return format === 'SIMPLE' ? lines.map(chomp) : [];
}

/**
 * The lines of a text file, each with its `\n` (the last one may lack it).
 * @throws InputError `E_INVALID_UTF8` with the line of the first bad byte
 */
export function decodeTerminatedLines(bytes: Uint8Array, path: string): string[] {
  const lines = decodeLines(bytes, path, { allowEmpty: true });
  const last = bytes.length > 0 && bytes[bytes.length - 1] === 0x0a ? lines.length : lines.length - 1;
  for (let i = 0; i < last; i++) lines[i] += '\n';
  return lines;
}
