/**
 * Metric scores aligned with human scores, ready for correlation.
 *
 * Metric-score files have the shapes of human-score files (`human-scores.ts`: TSV with a header, JSON lines, JSON
 * array; segment-level with an item column, or system-level), and may also come one file per system
 * (`SYSTEM=FILE`): then the file needs no system column, and without an item column its records are segments
 * 1, 2, … in order — the shape `palette score --sentence-level -f json` prints (one `{"score": …}` per line).
 *
 * Alignment never joins silently: every metric record must have a human score and every human score a metric
 * record, system by system and item by item, or the first mismatch is an `InputError` naming the file and line.
 * With `allowMissing` the data are restricted, explicitly, to the keys both sides have (and to rated records), and
 * the counts of what was left out are returned for the caller to print — what WMT does with the 527 MQM-rated
 * segments of newstest2021 en-de.
 */
import { InputError } from '../errors.js';
import type { ScoreTable } from './human-scores.js';

/** One metric-score file and, for a file of one system, that system. */
export interface MetricSource {
  readonly file: string;
  readonly system?: string;
}

/**
 * Parses a `--metric` argument: `FILE`, or `SYSTEM=FILE` for a file holding the scores of one system. A path that
 * exists as given is a file even if it contains `=` (checked by the caller with `exists`).
 */
export function parseMetricSource(arg: string, exists: (path: string) => boolean): MetricSource {
  const eq = arg.indexOf('=');
  if (eq <= 0 || exists(arg)) return { file: arg };
  return { system: arg.slice(0, eq), file: arg.slice(eq + 1) };
}

/** Scores of one side: per aligned segment record, or one per system. */
export type SideScores =
  | { readonly level: 'segment'; readonly value: Float64Array }
  | { readonly level: 'system'; readonly value: Float64Array };

/** What alignment left out (all zero without `allowMissing`, except `unrated`, which is always counted). */
export interface AlignmentCounts {
  /** Aligned segment records (0 when either side is system-level). */
  readonly pairs: number;
  /** Metric records without a human score (dropped). */
  readonly metricOnly: number;
  /** Human records without a metric score (dropped). */
  readonly humanOnly: number;
  /** Human records of the kept systems with an empty score (not rated). */
  readonly unrated: number;
  /** Systems on one side only (dropped), by name. */
  readonly droppedSystems: readonly string[];
}

/**
 * Metric and human scores on the same keys. When both sides are segment-level, record `r` of both is the pair
 * `(systems[system[r]], items[item[r]])`; when one side is system-level, `system`/`item` describe the records of the
 * segment-level side; both system-level: no records (`system`, `item` empty), only one value per system on each side.
 */
export interface AlignedScores {
  /** Systems kept, in the order of the human file. */
  readonly systems: readonly string[];
  /** Items of the segment-level records, in order of first appearance. */
  readonly items: readonly string[];
  /** Name of the item column of the human file (or of the metric file when the human file is system-level). */
  readonly itemName: string | undefined;
  /** System index of each segment-level record. */
  readonly system: Uint32Array;
  /** Item index of each segment-level record. */
  readonly item: Uint32Array;
  /**
   * When the metric side is segment-level: for each record, the metric table (index into the tables given) and the
   * row in it that it came from (so that callers can pick per-record data kept beside the tables, e.g. statistics).
   */
  readonly metricTable: Uint32Array;
  readonly metricRow: Uint32Array;
  /** Document index of each item (from the human file's document column), or undefined. */
  readonly documentOfItem: Uint32Array | undefined;
  /** Document names. */
  readonly documents: readonly string[] | undefined;
  readonly metric: SideScores;
  readonly human: SideScores;
  readonly counts: AlignmentCounts;
}

/** Options of {@link alignScores}. */
export interface AlignOptions {
  /** Restrict to the keys both sides have instead of failing (see the module comment). @default false */
  readonly allowMissing?: boolean;
}

function bad(message: string, file: string, line?: number): InputError {
  return new InputError('E_BAD_INPUT', message, { file, line });
}

interface Located {
  readonly table: ScoreTable;
  readonly row: number;
}

function describeKey(system: string, itemName: string | undefined, item: string): string {
  return itemName === undefined || itemName === '' ? `system ${JSON.stringify(system)}` : `system ${JSON.stringify(system)}, ${itemName === '#line' ? 'segment' : itemName} ${JSON.stringify(item)}`;
}

function fileList(tables: readonly ScoreTable[]): string {
  return tables.length === 1 ? tables[0].file : `the metric files (${tables.map((t) => t.file).join(', ')})`;
}

/**
 * Aligns metric scores (one table, or one per system) with human scores.
 * @throws InputError naming the file and line of the first record without a counterpart (without `allowMissing`),
 *   a system present in two metric files, or a mix of segment- and system-level metric files.
 */
export function alignScores(metricTables: readonly ScoreTable[], human: ScoreTable, options: AlignOptions = {}): AlignedScores {
  const allowMissing = options.allowMissing === true;
  const metricLevel = metricTables[0].itemName === undefined ? 'system' : 'segment';
  const humanLevel = human.itemName === undefined ? 'system' : 'segment';
  for (const t of metricTables) {
    if ((t.itemName === undefined ? 'system' : 'segment') !== metricLevel) {
      throw bad(`mixes system-level and segment-level metric files (this one is ${t.itemName === undefined ? 'system' : 'segment'}-level, ${metricTables[0].file} is not)`, t.file);
    }
  }

  // Metric records by key, across files; a system must come from one file only.
  const metricByKey = new Map<string, Located>();
  const metricSystemFirst = new Map<string, Located>();
  for (const table of metricTables) {
    const systemsHere = new Set<string>();
    for (let r = 0; r < table.score.length; r++) {
      const sys = table.systems[table.system[r]];
      if (!systemsHere.has(sys)) {
        const before = metricSystemFirst.get(sys);
        if (before !== undefined) {
          throw bad(`system ${JSON.stringify(sys)} already has metric scores in ${before.table.file}`, table.file, table.line[r]);
        }
        systemsHere.add(sys);
        metricSystemFirst.set(sys, { table, row: r });
      }
      metricByKey.set(`${sys}\u0000${metricLevel === 'segment' ? table.items[table.item[r]] : ''}`, { table, row: r });
    }
  }
  const humanSystemFirst = new Map<string, number>();
  for (let r = 0; r < human.score.length; r++) {
    const sys = human.systems[human.system[r]];
    if (!humanSystemFirst.has(sys)) humanSystemFirst.set(sys, r);
  }

  // Systems: the same on both sides, or (allowMissing) the common ones.
  const droppedSystems: string[] = [];
  for (const [sys, r] of humanSystemFirst) {
    if (metricSystemFirst.has(sys)) continue;
    if (!allowMissing) {
      throw bad(`system ${JSON.stringify(sys)} has human scores but no metric scores in ${fileList(metricTables)}`, human.file, human.line[r]);
    }
    droppedSystems.push(sys);
  }
  for (const [sys, at] of metricSystemFirst) {
    if (humanSystemFirst.has(sys)) continue;
    if (!allowMissing) {
      throw bad(`system ${JSON.stringify(sys)} has metric scores but no human scores in ${human.file}`, at.table.file, at.table.line[at.row]);
    }
    droppedSystems.push(sys);
  }
  const systems = human.systems.filter((s) => metricSystemFirst.has(s));
  if (systems.length === 0) throw bad(`no system has both metric scores and human scores (in ${fileList(metricTables)})`, human.file);
  const systemIndex = new Map(systems.map((s, k) => [s, k]));

  const itemNames: string[] = [];
  const itemIndex = new Map<string, number>();
  const itemId = (name: string): number => {
    let k = itemIndex.get(name);
    if (k === undefined) {
      k = itemNames.length;
      itemIndex.set(name, k);
      itemNames.push(name);
    }
    return k;
  };
  const sysOut: number[] = [];
  const itemOut: number[] = [];
  const metricOut: number[] = [];
  const humanOut: number[] = [];
  const docOfItem: number[] = [];
  const tableOut: number[] = [];
  const rowOut: number[] = [];
  let metricOnly = 0;
  let humanOnly = 0;

  if (metricLevel === 'segment' && humanLevel === 'segment') {
    const matched = new Set<string>();
    for (let r = 0; r < human.score.length; r++) {
      const sys = human.systems[human.system[r]];
      const k = systemIndex.get(sys);
      if (k === undefined) continue;
      const item = human.items[human.item[r]];
      const key = `${sys}\u0000${item}`;
      const m = metricByKey.get(key);
      if (m === undefined) {
        if (!allowMissing) {
          throw bad(`no metric score for ${describeKey(sys, human.itemName, item)} in ${fileList(metricTables)}`, human.file, human.line[r]);
        }
        humanOnly++;
        continue;
      }
      matched.add(key);
      const it = itemId(item);
      if (human.document) docOfItem[it] = human.document[r];
      sysOut.push(k);
      itemOut.push(it);
      humanOut.push(human.score[r]);
      metricOut.push(m.table.score[m.row]);
      tableOut.push(metricTables.indexOf(m.table));
      rowOut.push(m.row);
    }
    for (const table of metricTables) {
      for (let r = 0; r < table.score.length; r++) {
        const sys = table.systems[table.system[r]];
        if (!systemIndex.has(sys)) continue;
        const key = `${sys}\u0000${table.items[table.item[r]]}`;
        if (matched.has(key)) continue;
        if (!allowMissing) {
          throw bad(`no human score for ${describeKey(sys, table.itemName, table.items[table.item[r]])} in ${human.file}`, table.file, table.line[r]);
        }
        metricOnly++;
      }
    }
    if (sysOut.length === 0) throw bad(`no segment has both a metric score and a human score (in ${fileList(metricTables)})`, human.file);
  } else if (humanLevel === 'segment' || metricLevel === 'segment') {
    // One side per segment, the other per system: the segment side's records of the common systems.
    const tables = humanLevel === 'segment' ? [human] : metricTables;
    for (const table of tables) {
      for (let r = 0; r < table.score.length; r++) {
        const k = systemIndex.get(table.systems[table.system[r]]);
        if (k === undefined) continue;
        const it = itemId(table.items[table.item[r]]);
        if (table === human && human.document) docOfItem[it] = human.document[r];
        sysOut.push(k);
        itemOut.push(it);
        (humanLevel === 'segment' ? humanOut : metricOut).push(table.score[r]);
        if (table !== human) {
          tableOut.push(metricTables.indexOf(table));
          rowOut.push(r);
        }
      }
    }
  }

  const perSystem = (pick: (sys: string) => number): Float64Array => Float64Array.from(systems, pick);
  const metric: SideScores =
    metricLevel === 'segment'
      ? { level: 'segment', value: Float64Array.from(metricOut) }
      : { level: 'system', value: perSystem((s) => {
          const at = metricByKey.get(`${s}\u0000`)!;
          return at.table.score[at.row];
        }) };
  const humanSide: SideScores =
    humanLevel === 'segment'
      ? { level: 'segment', value: Float64Array.from(humanOut) }
      : { level: 'system', value: perSystem((s) => human.score[humanSystemFirst.get(s)!]) };
  const documentOfItem = human.document && humanLevel === 'segment' ? Uint32Array.from(itemNames, (_, k) => docOfItem[k]) : undefined;
  return {
    systems,
    items: itemNames,
    itemName: humanLevel === 'segment' ? human.itemName : metricLevel === 'segment' ? metricTables[0].itemName : undefined,
    system: Uint32Array.from(sysOut),
    item: Uint32Array.from(itemOut),
    metricTable: Uint32Array.from(tableOut),
    metricRow: Uint32Array.from(rowOut),
    documentOfItem,
    documents: documentOfItem ? human.documents : undefined,
    metric,
    human: humanSide,
    counts: {
      pairs: metricLevel === 'segment' && humanLevel === 'segment' ? sysOut.length : 0,
      metricOnly,
      humanOnly,
      unrated: systems.reduce((sum, s) => sum + (human.unratedBySystem.get(s) ?? 0), 0),
      droppedSystems,
    },
  };
}
