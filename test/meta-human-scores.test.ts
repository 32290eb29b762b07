/**
 * Score-table readers (src/meta/human-scores.ts) and alignment (src/meta/metric-scores.ts): the three formats,
 * column choice, filters, documents, and every bad input as an InputError naming file and line; alignment never
 * joins silently, and `allowMissing` reports what it leaves out.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { parseScoreTable, type ScoreColumns } from '../src/meta/human-scores.js';
import { readScoreTable } from '../src/node/score-table.js';
import { alignScores, parseMetricSource } from '../src/meta/metric-scores.js';

const tsv = (...rows: string[][]): string[] => rows.map((r) => r.join('\t'));

function fails(fn: () => unknown, file: string, line: number | undefined, message: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    const e = err as InputError;
    expect(e.file).toBe(file);
    expect(e.line).toBe(line);
    expect(e.message).toMatch(message);
    return;
  }
  throw new Error('expected an InputError');
}

describe('reading score tables', () => {
  it('TSV with a header: systems, items (auto seg_id), scores, lines', () => {
    const t = parseScoreTable('h.tsv', tsv(['system', 'seg_id', 'score'], ['A', '1', '0.5'], ['A', '2', '-1e-1'], ['B', '1', '3']));
    expect(t.systems).toEqual(['A', 'B']);
    expect(t.items).toEqual(['1', '2']);
    expect(t.itemName).toBe('seg_id');
    expect(Array.from(t.score)).toEqual([0.5, -0.1, 3]);
    expect(Array.from(t.line)).toEqual([2, 3, 4]);
    expect(Array.from(t.system)).toEqual([0, 0, 1]);
    expect(Array.from(t.item)).toEqual([0, 1, 0]);
  });
  it('a file without an item column is system-level; item none forces it', () => {
    const t = parseScoreTable('s.tsv', tsv(['system', 'da_z'], ['A', '0.1'], ['B', '0.2']), { score: 'da_z' });
    expect(t.itemName).toBeUndefined();
    expect(t.items).toEqual(['']);
    const u = parseScoreTable('s.tsv', tsv(['system', 'seg_id', 'score'], ['A', '1', '1'], ['B', '1', '2']), { item: null });
    expect(u.itemName).toBeUndefined();
  });
  it('JSON lines and JSON arrays; numbers and strings as keys; lines of array elements', () => {
    const jl = parseScoreTable('m.jsonl', ['{"system": "A", "seg_id": 1, "score": 2}', '{"system": "A", "seg_id": "2", "score": "0.25"}']);
    expect(jl.items).toEqual(['1', '2']);
    expect(Array.from(jl.score)).toEqual([2, 0.25]);
    expect(Array.from(jl.line)).toEqual([1, 2]);
    const arr = parseScoreTable('m.json', ['[', ' {"system": "A", "doc_id": "d1",', '  "score": 1},', ' {"system": "B", "doc_id": "d1", "score": 2}', ']']);
    expect(arr.itemName).toBe('doc_id');
    expect(Array.from(arr.line)).toEqual([2, 4]);
  });
  it('a file of one system without keys: items are record numbers (palette score -sl -f json)', () => {
    const t = parseScoreTable('sys.jsonl', ['{"name": "BLEU", "score": 10.5}', '{"name": "BLEU", "score": 0.0}'], { fixedSystem: 'S' });
    expect(t.systems).toEqual(['S']);
    expect(t.items).toEqual(['1', '2']);
    expect(t.itemName).toBe('#line');
  });
  it('one JSON object of one system (palette score -f json) is its system-level score', () => {
    const t = parseScoreTable('uedin.json', ['{', ' "name": "BLEU",', ' "score": 29.9', '}'], { fixedSystem: 'UEdin' });
    expect(t.itemName).toBeUndefined();
    expect(t.systems).toEqual(['UEdin']);
    expect(Array.from(t.score)).toEqual([29.9]);
  });

  it('where filters, document column, unrated records counted', () => {
    const lines = tsv(
      ['pair', 'system', 'seg_id', 'doc', 'score'],
      ['en-de', 'A', '1', 'd1', '1'],
      ['de-en', 'A', '1', 'd1', 'x'],
      ['en-de', 'A', '2', 'd2', ''],
      ['en-de', 'B', '1', 'd1', '2'],
    );
    const columns: ScoreColumns = { where: [['pair', 'en-de']], document: 'doc', allowUnrated: true };
    const t = parseScoreTable('h.tsv', lines, columns);
    expect(t.filtered).toBe(1);
    expect(t.unrated).toBe(1);
    expect(t.unratedBySystem.get('A')).toBe(1);
    expect(t.documents).toEqual(['d1']);
    expect(Array.from(t.document!)).toEqual([0, 0]);
  });
  it('CRLF lines: the carriage return is not part of the last field; a byte-order mark is not part of a name', () => {
    const t = parseScoreTable('h.tsv', ['system\tscore\r', 'A\t1.5\r']);
    expect(Array.from(t.score)).toEqual([1.5]);
    expect(parseScoreTable('h.tsv', ['\uFEFFsystem\tscore', 'A\t1']).systems).toEqual(['A']);
    expect(parseScoreTable('h.jsonl', ['\uFEFF{"system": "A", "score": 2}']).systems).toEqual(['A']);
  });
});

describe('bad score files name file and line', () => {
  const header = ['system', 'seg_id', 'score'];
  it('missing columns (in the header)', () => {
    fails(() => parseScoreTable('h.tsv', tsv(['system', 'seg_id', 'mqm'], ['A', '1', '1'])), 'h.tsv', 1, /no score column "score".*columns: system, seg_id, mqm/);
    fails(() => parseScoreTable('h.tsv', tsv(['sys', 'score'], ['A', '1'])), 'h.tsv', 1, /no system column "system"/);
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1', '1']), { item: 'doc' }), 'h.tsv', 1, /no item column "doc"/);
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1', '1']), { where: [['pair', 'x']] }), 'h.tsv', 1, /no filter column "pair"/);
    fails(() => parseScoreTable('h.tsv', tsv(['system', 'system'], ['A', '1'])), 'h.tsv', 1, /appears twice/);
  });
  it('NaN, infinite, empty and non-numeric scores', () => {
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1', '1'], ['A', '2', 'NaN'])), 'h.tsv', 3, /score is NaN/);
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1', '-inf'])), 'h.tsv', 2, /not finite/);
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1', ' '])), 'h.tsv', 2, /empty score/);
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1', '1,5'])), 'h.tsv', 2, /not a number: "1,5"/);
    fails(() => parseScoreTable('h.jsonl', ['{"system": "A", "seg_id": 1, "score": null}']), 'h.jsonl', 1, /empty score/);
    fails(() => parseScoreTable('h.jsonl', ['{"system": "A", "seg_id": 1, "score": [1]}']), 'h.jsonl', 1, /must be a string or a number/);
  });
  it('duplicate keys, with the line of the first', () => {
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1', '1'], ['B', '1', '1'], ['A', '1', '2'])), 'h.tsv', 4, /duplicate score for system "A", seg_id "1" \(first at line 2\)/);
    fails(() => parseScoreTable('s.tsv', tsv(['system', 'score'], ['A', '1'], ['A', '2'])), 's.tsv', 3, /duplicate score for system "A" \(first/);
  });
  it('short lines, bad JSON, missing fields, empty keys, empty files', () => {
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1'])), 'h.tsv', 2, /expected 3 tab-separated fields/);
    fails(() => parseScoreTable('h.jsonl', ['{"system": "A", "seg_id": 1, "score": 1}', '{"system": ']), 'h.jsonl', 2, /invalid JSON/);
    fails(() => parseScoreTable('h.jsonl', ['[1]']), 'h.jsonl', 1, /expected a JSON object/);
    fails(() => parseScoreTable('h.jsonl', ['{"system": "A", "seg_id": 1, "score": 1}', '']), 'h.jsonl', 2, /empty line/);
    fails(() => parseScoreTable('h.jsonl', ['{"system": "A", "seg_id": 1, "score": 1}', '{"system": "A", "score": 1}']), 'h.jsonl', 2, /no item field "seg_id"/);
    fails(() => parseScoreTable('h.tsv', tsv(header, ['', '1', '1'])), 'h.tsv', 2, /empty system/);
    fails(() => parseScoreTable('h.json', ['3']), 'h.json', 1, /expected a JSON array of records \(objects\) or one object/);
    fails(() => parseScoreTable('h.tsv', tsv(header)), 'h.tsv', undefined, /^a header line and no score records below it$/);
    fails(() => parseScoreTable('h.tsv', []), 'h.tsv', undefined, /^empty file: expected a header line naming the columns, then one score record per line$/);
    fails(() => parseScoreTable('h.jsonl', []), 'h.jsonl', undefined, /^empty file: expected one JSON object per line$/);
    fails(() => parseScoreTable('h.json', []), 'h.json', undefined, /^empty file: expected a JSON array of score records$/);
    fails(() => parseScoreTable('h.tsv', tsv(header, ['A', '1', ''], ['B', '1', '']), { allowUnrated: true }), 'h.tsv', undefined, /no score records \(2 unrated\)/);
  });
  it('a segment in two documents', () => {
    const lines = tsv(['system', 'seg_id', 'doc', 'score'], ['A', '1', 'd1', '1'], ['B', '1', 'd2', '1']);
    fails(() => parseScoreTable('h.tsv', lines, { document: 'doc' }), 'h.tsv', 3, /item "1" is in document "d2" here but in "d1" before/);
  });
  it('a missing file', () => {
    fails(() => readScoreTable('/nonexistent/h.tsv'), '/nonexistent/h.tsv', undefined, /no such file/);
  });
});

describe('alignment', () => {
  const human = parseScoreTable('h.tsv', tsv(['system', 'seg_id', 'score'], ['A', '1', '1'], ['A', '2', ''], ['B', '1', '3'], ['B', '2', '4']), { allowUnrated: true });
  const humanStrict = (): ReturnType<typeof parseScoreTable> =>
    parseScoreTable('h.tsv', tsv(['system', 'seg_id', 'score'], ['A', '1', '1'], ['A', '2', '2'], ['B', '1', '3'], ['B', '2', '4']));
  const metric = parseScoreTable('m.tsv', tsv(['system', 'seg_id', 'score'], ['B', '2', '40'], ['A', '1', '10'], ['A', '2', '20'], ['B', '1', '30']));

  it('pairs records by (system, item), whatever the order', () => {
    const a = alignScores([metric], humanStrict());
    expect(a.systems).toEqual(['A', 'B']);
    expect(Array.from(a.metric.value)).toEqual([10, 20, 30, 40]);
    expect(Array.from(a.human.value)).toEqual([1, 2, 3, 4]);
    expect(a.counts.pairs).toBe(4);
  });
  it('a metric record without a human score is an error naming the metric file and line', () => {
    fails(() => alignScores([metric], human), 'm.tsv', 4, /no human score for system "A", seg_id "2" in h.tsv/);
  });
  it('a human record without a metric score is an error naming the human file and line', () => {
    const short = parseScoreTable('m.tsv', tsv(['system', 'seg_id', 'score'], ['A', '1', '10'], ['A', '2', '20'], ['B', '1', '30']));
    fails(() => alignScores([short], humanStrict()), 'h.tsv', 5, /no metric score for system "B", seg_id "2" in m.tsv/);
  });
  it('a system on one side only is an error on that side', () => {
    const extra = parseScoreTable('m.tsv', tsv(['system', 'seg_id', 'score'], ['A', '1', '1'], ['A', '2', '1'], ['B', '1', '1'], ['B', '2', '1'], ['C', '1', '1']));
    fails(() => alignScores([extra], humanStrict()), 'm.tsv', 6, /system "C" has metric scores but no human scores in h.tsv/);
    const fewer = parseScoreTable('m.tsv', tsv(['system', 'seg_id', 'score'], ['A', '1', '1'], ['A', '2', '1']));
    fails(() => alignScores([fewer], humanStrict()), 'h.tsv', 4, /system "B" has human scores but no metric scores in m.tsv/);
  });
  it('allowMissing restricts to the rated keys of both and counts what it leaves out', () => {
    const extra = parseScoreTable('m.tsv', tsv(['system', 'seg_id', 'score'], ['A', '1', '10'], ['A', '2', '20'], ['A', '3', '25'], ['B', '1', '30'], ['C', '1', '1']));
    const a = alignScores([extra], human, { allowMissing: true });
    expect(a.systems).toEqual(['A', 'B']);
    expect(Array.from(a.metric.value)).toEqual([10, 30]);
    expect(Array.from(a.human.value)).toEqual([1, 3]);
    expect(a.counts).toEqual({ pairs: 2, metricOnly: 2, humanOnly: 1, unrated: 1, droppedSystems: ['C'] });
  });
  it('one metric file per system; a system in two files is an error', () => {
    const a = parseScoreTable('a.jsonl', ['{"score": 10}', '{"score": 20}'], { fixedSystem: 'A' });
    const b = parseScoreTable('b.jsonl', ['{"score": 30}', '{"score": 40}'], { fixedSystem: 'B' });
    const aligned = alignScores([a, b], humanStrict());
    expect(Array.from(aligned.metric.value)).toEqual([10, 20, 30, 40]);
    const again = parseScoreTable('a2.jsonl', ['{"score": 1}'], { fixedSystem: 'A' });
    fails(() => alignScores([a, again, b], humanStrict()), 'a2.jsonl', 1, /system "A" already has metric scores in a.jsonl/);
  });
  it('system-level metric scores with segment-level human scores', () => {
    const sys = parseScoreTable('s.tsv', tsv(['system', 'score'], ['B', '2'], ['A', '1']));
    const a = alignScores([sys], humanStrict());
    expect(a.metric.level).toBe('system');
    expect(Array.from(a.metric.value)).toEqual([1, 2]);
    expect(a.human.level).toBe('segment');
    expect(a.items).toEqual(['1', '2']);
  });
  it('parses SYSTEM=FILE unless the whole argument is an existing path', () => {
    expect(parseMetricSource('A=x.jsonl', () => false)).toEqual({ system: 'A', file: 'x.jsonl' });
    expect(parseMetricSource('a=b.tsv', () => true)).toEqual({ file: 'a=b.tsv' });
    expect(parseMetricSource('m.tsv', () => false)).toEqual({ file: 'm.tsv' });
  });
});
