/**
 * Human judgments for the report: a score table (src/meta/human-scores.ts: TSV, JSON or JSON lines, system or
 * segment level) aligned to the report's systems and segments.
 *
 * Systems are matched by name: a table's system matches a report system whose name (the file path) is that name,
 * or whose file name is, with or without its last extension (`systems/Online-B.de` is `Online-B`). Every report
 * system must match exactly one table system — a missing one is an error naming the table, never a silent inner
 * join. Table systems that are not in the report (WMT tables list human references and systems without text) are
 * returned by name so the caller can say they were left out. Segment items must be 1-based line numbers within the
 * references; segments a system has no score for (MQM rates a subset; empty scores read as "not rated") are null
 * and counted. A segment-level table's system score is the mean of the system's rated segments (as WMT MQM).
 */
import { InputError } from '../errors.js';
import type { ScoreTable } from '../meta/human-scores.js';
import type { ReportHuman } from './report-data.js';
import { baseName, extName } from '../util/path-name.js';

/** A table aligned to the report. */
export interface AlignedHuman {
  /** The judgments, indexed like the report's systems and segments. */
  readonly human: ReportHuman;
  /** Table systems that match no report system (left out). */
  readonly unmatched: readonly string[];
  /** Segment scores missing for the report's systems (not rated), in all. */
  readonly missing: number;
}

/** The names a table may use for the system of file `name`: the path, the file name, the file name without its last extension. */
export function systemAliases(name: string): string[] {
  const file = baseName(name);
  const ext = extName(file);
  const stem = ext === '' ? file : file.slice(0, -ext.length);
  return [...new Set([name, file, stem])];
}

/**
 * Aligns `table` to the report's `systems` (names as shown) and `segments`.
 * @param name what the report calls these judgments
 * @throws InputError naming the table (and line) for a report system the table lacks or matches twice, or an item
 *   that is not a segment number within 1..segments.
 */
export function alignHumanTable(table: ScoreTable, systems: readonly string[], segments: number, name: string): AlignedHuman {
  const byAlias = new Map<string, number>();
  systems.forEach((system, s) => {
    for (const alias of systemAliases(system)) {
      // An alias two report systems share identifies neither.
      byAlias.set(alias, byAlias.has(alias) && byAlias.get(alias) !== s ? -1 : s);
    }
  });
  const tableToReport = new Int32Array(table.systems.length).fill(-1);
  const matchedBy: (string | undefined)[] = new Array(systems.length);
  const unmatched: string[] = [];
  table.systems.forEach((t, k) => {
    const s = byAlias.get(t);
    if (s === undefined || s < 0) {
      unmatched.push(t);
      return;
    }
    if (matchedBy[s] !== undefined) {
      throw new InputError(
        'E_BAD_INPUT',
        `systems "${matchedBy[s]}" and "${t}" both match the report's system ${systems[s]}`,
        { file: table.file },
      );
    }
    matchedBy[s] = t;
    tableToReport[k] = s;
  });
  const absent = systems.filter((_, s) => matchedBy[s] === undefined);
  if (absent.length > 0) {
    throw new InputError(
      'E_BAD_INPUT',
      `no human scores for ${absent.length === 1 ? 'system' : 'systems'} ${absent.join(', ')} ` +
        `(the file's systems are ${table.systems.join(', ')}; a system matches by its file name with or without extension)`,
      { file: table.file },
    );
  }

  if (table.itemName === undefined) {
    const system: (number | null)[] = new Array(systems.length).fill(null);
    for (let r = 0; r < table.score.length; r++) {
      const s = tableToReport[table.system[r]];
      if (s >= 0) system[s] = table.score[r];
    }
    return { human: withNote({ name, system }, unmatched, 0), unmatched, missing: 0 };
  }

  // Item ids are segment numbers: checked once per distinct item, reported at the first record using it.
  const segmentOfItem = new Int32Array(table.items.length).fill(-2);
  const segment: (number | null)[][] = systems.map(() => new Array(segments).fill(null));
  for (let r = 0; r < table.score.length; r++) {
    const s = tableToReport[table.system[r]];
    if (s < 0) continue;
    const k = table.item[r];
    if (segmentOfItem[k] === -2) {
      const id = table.items[k];
      const n = /^[0-9]+$/.test(id) ? Number(id) : NaN;
      if (!(n >= 1 && n <= segments)) {
        throw new InputError(
          'E_BAD_INPUT',
          `${table.itemName} ${JSON.stringify(id)} is not a segment number of the report (1 to ${segments})`,
          { file: table.file, line: table.line[r] },
        );
      }
      segmentOfItem[k] = n - 1;
    }
    segment[s][segmentOfItem[k]] = table.score[r];
  }
  let missing = 0;
  const system = segment.map((row) => {
    let sum = 0;
    let n = 0;
    for (const v of row) {
      if (v === null) missing++;
      else {
        sum += v;
        n++;
      }
    }
    return n === 0 ? null : sum / n;
  });
  return { human: withNote({ name, system, segment }, unmatched, missing), unmatched, missing };
}

/** The judgments with a note saying what alignment left out, if anything. */
function withNote(human: ReportHuman, unmatched: readonly string[], missing: number): ReportHuman {
  const parts: string[] = [];
  if (unmatched.length > 0) parts.push(`not in the report, left out: ${unmatched.join(', ')}`);
  if (missing > 0) parts.push(`${missing} segment scores of the report's systems missing (not rated)`);
  return parts.length === 0 ? human : { ...human, note: parts.join('; ') };
}
