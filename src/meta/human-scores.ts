/**
 * Parsers of score tables: human judgments (WMT MQM/DA, SummEval) and, with the same shapes, metric scores (see
 * `metric-scores.ts`); the Node adapter reads them from files (src/node/score-table.ts). A table holds one score per
 * key `(system, item)`, where the item is a segment id, a document id, or nothing at all for a system-level table
 * (one score per system).
 *
 * Accepted files (the format comes from the extension unless given: `.json` → JSON, `.jsonl`/`.ndjson` → JSON lines,
 * anything else → TSV):
 * - TSV: a header line naming the columns, then one record per line, fields separated by `'\t'` (no quoting).
 * - JSON lines: one object per line, the columns being its keys.
 * - JSON: an array of such objects, or one object: a single record (the shape of `palette score -f json` for one
 *   system; in a file of one system, {@link ScoreColumns.fixedSystem}, it is that system's system-level score).
 * Keys may be strings or numbers (`1` and `"1"` are the same item); scores numbers or numeric strings.
 *
 * Everything the user must fix is an `InputError` naming the file and line: a missing column, a short or long TSV
 * line, a record that is not an object, an empty / NaN / infinite / non-numeric score, a duplicate key. An empty
 * score may instead be read as "not rated" (MQM leaves unrated segments empty) when the caller asks for it, and the
 * skipped records are counted — never silently dropped.
 */
import { InputError } from '../errors.js';

/** File formats of score tables. */
export type ScoreFileFormat = 'tsv' | 'json' | 'jsonl';

/** The item columns {@link parseScoreTable} looks for, in this order, when none is named. */
export const AUTO_ITEM_COLUMNS: readonly string[] = ['seg_id', 'segment', 'doc_id', 'item'];

/** Which columns of a score file hold what. */
export interface ScoreColumns {
  /**
   * Column naming the system. Ignored when {@link ScoreColumns.fixedSystem} is set.
   * @default 'system'
   */
  readonly system?: string;
  /**
   * Column naming the item (segment or document) the score belongs to; `null` = a system-level file (one score
   * per system). When absent, the first of {@link AUTO_ITEM_COLUMNS} the file has is used; a file with none of
   * them is system-level — unless {@link ScoreColumns.fixedSystem} is set, when the item is the 1-based record
   * number (the shape of `palette score --sentence-level -f json`: one line per segment, no keys).
   */
  readonly item?: string | null;
  /** Column holding the score. @default 'score' */
  readonly score?: string;
  /** Column naming the document of each record, for bootstrap resampling by document. */
  readonly document?: string;
  /** Every record belongs to this system (the file has no system column). */
  readonly fixedSystem?: string;
  /** Only records whose column equals the value are read (`[column, value]` pairs, all must hold). */
  readonly where?: readonly (readonly [string, string])[];
  /**
   * Whether an empty score (empty TSV field, JSON `null` or `""`) means "not rated": such records are skipped and
   * counted in {@link ScoreTable.unrated}. Otherwise it is an error.
   * @default false
   */
  readonly allowUnrated?: boolean;
  /** File format; by default from the extension. */
  readonly format?: ScoreFileFormat;
}

/**
 * A score table, flat: record `r` is `(systems[system[r]], items[item[r]]) → score[r]`, read from line `line[r]` of
 * `file`. Records keep file order; `systems` and `items` list names in order of first appearance.
 */
export interface ScoreTable {
  /** The file, as named by the caller. */
  readonly file: string;
  /** Name of the score column. */
  readonly scoreName: string;
  /** Name of the item column, `'#line'` for record numbers, or `undefined` for a system-level table. */
  readonly itemName: string | undefined;
  /** Distinct system names. */
  readonly systems: readonly string[];
  /** Distinct item ids (`['']` for a system-level table). */
  readonly items: readonly string[];
  /** Distinct document ids, when a document column was read. */
  readonly documents: readonly string[] | undefined;
  /** System index of each record. */
  readonly system: Uint32Array;
  /** Item index of each record. */
  readonly item: Uint32Array;
  /** Document index of each record, when a document column was read. */
  readonly document: Uint32Array | undefined;
  /** Score of each record. */
  readonly score: Float64Array;
  /** 1-based line of each record in `file`. */
  readonly line: Uint32Array;
  /** Records skipped because their score was empty (with {@link ScoreColumns.allowUnrated}). */
  readonly unrated: number;
  /** The same, per system name. */
  readonly unratedBySystem: ReadonlyMap<string, number>;
  /** Records skipped by {@link ScoreColumns.where}. */
  readonly filtered: number;
}

/** One record of a file: its line and its cells as strings (`undefined` = no such column, `null` = empty). */
interface RawRecord {
  readonly line: number;
  get(column: string): string | null | undefined;
}

interface RawFile {
  /** The columns every record has (TSV header) or `undefined` (JSON: per record). */
  readonly header: readonly string[] | undefined;
  readonly records: RawRecord[];
  /** The file is one JSON object, not a list of records. */
  readonly single?: boolean;
}

function bad(message: string, file: string, line?: number): InputError {
  return new InputError('E_BAD_INPUT', message, { file, line });
}

/** The format a file name implies. */
export function formatOfPath(path: string): ScoreFileFormat {
  const lower = path.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  return 'tsv';
}

/** A TSV line's fields; a `'\r'` ending the line (a CRLF file) is not part of the last field. */
function tsvFields(line: string): string[] {
  return (line.endsWith('\r') ? line.slice(0, -1) : line).split('\t');
}

function readTsv(file: string, lines: readonly string[]): RawFile {
  const header = tsvFields(lines[0]);
  const index = new Map<string, number>();
  header.forEach((name, k) => {
    if (index.has(name)) throw bad(`column ${JSON.stringify(name)} appears twice in the header`, file, 1);
    index.set(name, k);
  });
  const records: RawRecord[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cells = tsvFields(lines[i]);
    const line = i + 1;
    if (cells.length !== header.length) {
      throw bad(`expected ${header.length} tab-separated fields (as the header), got ${cells.length}`, file, line);
    }
    records.push({
      line,
      get(column) {
        const k = index.get(column);
        if (k === undefined) return undefined;
        const cell = cells[k];
        return cell.trim() === '' ? null : cell;
      },
    });
  }
  return { header, records };
}

function scalarCell(value: unknown, column: string, file: string, line: number): string | null {
  if (value === null || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw bad(`field ${JSON.stringify(column)} must be a string or a number (got ${JSON.stringify(value)})`, file, line);
}

function objectRecord(value: unknown, file: string, line: number): RawRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw bad('expected a JSON object (one record)', file, line);
  }
  const obj = value as Record<string, unknown>;
  return {
    line,
    get(column) {
      if (!Object.hasOwn(obj, column)) return undefined;
      return scalarCell(obj[column], column, file, line);
    },
  };
}

function readJsonl(file: string, lines: readonly string[]): RawFile {
  const records: RawRecord[] = [];
  lines.forEach((text, i) => {
    if (text.trim() === '') throw bad('empty line (expected one JSON object per line)', file, i + 1);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw bad(`invalid JSON: ${(err as Error).message}`, file, i + 1);
    }
    records.push(objectRecord(value, file, i + 1));
  });
  return { header: undefined, records };
}

/**
 * Lines on which the elements of a top-level JSON array start (a scan of strings and nesting only; the text is
 * known to parse).
 */
function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    if (depth === 1 && expectElement && c !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectElement = true;
  }
  return lines;
}

function readJson(file: string, lines: readonly string[]): RawFile {
  const text = lines.join('\n');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw bad(`invalid JSON: ${(err as Error).message}`, file);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return { header: undefined, records: [objectRecord(value, file, 1)], single: true };
  }
  if (!Array.isArray(value)) throw bad('expected a JSON array of records (objects) or one object', file, 1);
  const at = arrayElementLines(text);
  return { header: undefined, records: value.map((v, k) => objectRecord(v, file, at[k] ?? 1)) };
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Parses a score cell: a decimal number (Python `float` syntax without `nan`/`inf`, which are rejected by name).
 * @throws InputError naming the file and line for anything else.
 */
export function parseScore(cell: string, column: string, file: string, line: number): number {
  const text = cell.trim();
  if (NUMBER.test(text)) return Number(text);
  const lower = text.toLowerCase().replace(/^[+-]/, '');
  if (lower === 'nan') throw bad(`${column} is NaN`, file, line);
  if (lower === 'inf' || lower === 'infinity') throw bad(`${column} is not finite (${text})`, file, line);
  throw bad(`${column} is not a number: ${JSON.stringify(cell)}`, file, line);
}

/** Interns strings into first-appearance indices. */
class Names {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  id(name: string): number {
    let k = this.index.get(name);
    if (k === undefined) {
      k = this.list.length;
      this.index.set(name, k);
      this.list.push(name);
    }
    return k;
  }
}

/**
 * Reads a score table from already decoded lines (see the module comment for the formats and the checks).
 * @param file the name used in messages
 * @throws InputError `E_BAD_INPUT` / `E_EMPTY_INPUT` naming the file and line.
 */
export function parseScoreTable(file: string, rawLines: readonly string[], columns: ScoreColumns = {}): ScoreTable {
  const format = columns.format ?? formatOfPath(file);
  // A byte-order mark (spreadsheet exports) is not part of the first column's name or of the JSON.
  const lines = rawLines.length > 0 && rawLines[0].startsWith('\uFEFF') ? [rawLines[0].slice(1), ...rawLines.slice(1)] : rawLines;
  if (lines.length === 0) {
    const expected =
      format === 'tsv'
        ? 'a header line naming the columns, then one score record per line'
        : format === 'jsonl'
          ? 'one JSON object per line'
          : 'a JSON array of score records';
    throw new InputError('E_EMPTY_INPUT', `empty file: expected ${expected}`, { file });
  }
  if (format === 'tsv' && lines.length === 1) {
    throw new InputError('E_EMPTY_INPUT', 'a header line and no score records below it', { file });
  }
  const raw = format === 'tsv' ? readTsv(file, lines) : format === 'jsonl' ? readJsonl(file, lines) : readJson(file, lines);
  if (raw.records.length === 0) throw new InputError('E_EMPTY_INPUT', 'no score records', { file });

  const scoreName = columns.score ?? 'score';
  const systemName = columns.system ?? 'system';
  const present = (column: string): boolean =>
    raw.header ? raw.header.includes(column) : raw.records[0].get(column) !== undefined;
  let itemName: string | undefined;
  if (columns.item === null) itemName = undefined;
  else if (columns.item !== undefined) itemName = columns.item;
  else {
    // A single object of one system is that system's score; records of one system without keys are its segments.
    const byLine = columns.fixedSystem !== undefined && raw.single !== true ? '#line' : undefined;
    itemName = AUTO_ITEM_COLUMNS.find(present) ?? byLine;
  }

  const known = raw.header ? ` (columns: ${raw.header.join(', ')})` : '';
  const need = (column: string, what: string): void => {
    if (raw.header && !raw.header.includes(column)) {
      throw bad(`no ${what} column ${JSON.stringify(column)} in the header${known}`, file, 1);
    }
  };
  need(scoreName, 'score');
  if (columns.fixedSystem === undefined) need(systemName, 'system');
  if (itemName !== undefined && itemName !== '#line') need(itemName, 'item');
  if (columns.document !== undefined) need(columns.document, 'document');
  for (const [column] of columns.where ?? []) need(column, 'filter');

  const systems = new Names();
  const items = new Names();
  const documents = columns.document !== undefined ? new Names() : undefined;
  const n = raw.records.length;
  const system = new Uint32Array(n);
  const item = new Uint32Array(n);
  const document = documents ? new Uint32Array(n) : undefined;
  const score = new Float64Array(n);
  const line = new Uint32Array(n);
  const firstLine = new Map<string, number>();
  const documentOfItem = new Map<number, number>();
  let count = 0;
  let unrated = 0;
  const unratedBySystem = new Map<string, number>();
  let filtered = 0;
  let recordNumber = 0;

  const cell = (record: RawRecord, column: string, what: string): string | null => {
    const value = record.get(column);
    if (value === undefined) throw bad(`record has no ${what} field ${JSON.stringify(column)}`, file, record.line);
    return value;
  };
  const key = (record: RawRecord, column: string, what: string): string => {
    const value = cell(record, column, what);
    if (value === null) throw bad(`empty ${what} (${column})`, file, record.line);
    return value;
  };

  for (const record of raw.records) {
    recordNumber++;
    if (columns.where?.some(([column, value]) => cell(record, column, 'filter') !== value)) {
      filtered++;
      continue;
    }
    const sys = columns.fixedSystem ?? key(record, systemName, 'system');
    const it = itemName === undefined ? '' : itemName === '#line' ? String(recordNumber) : key(record, itemName, 'item');
    const id = `${sys}\u0000${it}`;
    const seen = firstLine.get(id);
    if (seen !== undefined) {
      const what = itemName === undefined ? `system ${JSON.stringify(sys)}` : `system ${JSON.stringify(sys)}, ${itemName} ${JSON.stringify(it)}`;
      throw bad(`duplicate score for ${what} (first at line ${seen})`, file, record.line);
    }
    firstLine.set(id, record.line);
    const value = cell(record, scoreName, 'score');
    if (value === null) {
      if (!columns.allowUnrated) throw bad(`empty ${scoreName} (not rated?)`, file, record.line);
      unrated++;
      unratedBySystem.set(sys, (unratedBySystem.get(sys) ?? 0) + 1);
      continue;
    }
    score[count] = parseScore(value, scoreName, file, record.line);
    system[count] = systems.id(sys);
    item[count] = items.id(it);
    line[count] = record.line;
    if (documents && document && columns.document !== undefined) {
      const doc = documents.id(key(record, columns.document, 'document'));
      const before = documentOfItem.get(item[count]);
      if (before !== undefined && before !== doc) {
        throw bad(
          `item ${JSON.stringify(it)} is in document ${JSON.stringify(documents.list[doc])} here but in ` +
            `${JSON.stringify(documents.list[before])} before`,
          file,
          record.line,
        );
      }
      documentOfItem.set(item[count], doc);
      document[count] = doc;
    }
    count++;
  }
  if (count === 0) {
    const why = filtered > 0 ? ` (${filtered} filtered out, ${unrated} unrated)` : unrated > 0 ? ` (${unrated} unrated)` : '';
    throw new InputError('E_EMPTY_INPUT', `no score records${why}`, { file });
  }
  return {
    file,
    scoreName,
    itemName,
    systems: systems.list,
    items: items.list,
    documents: documents?.list,
    system: system.slice(0, count),
    item: item.slice(0, count),
    document: document?.slice(0, count),
    score: score.slice(0, count),
    line: line.slice(0, count),
    unrated,
    unratedBySystem,
    filtered,
  };
}
