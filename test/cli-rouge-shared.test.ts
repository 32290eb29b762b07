/**
 * `palette score -m rouge-…` against the ROUGE goldens in ../shared, through the whole CLI (argv → stdout), skipped
 * cleanly when ../shared is absent:
 * - golden/rouge-score/compare-mt-sum.{nostem,stem}.json: both systems in one run (the references prepared once),
 *   the JSON table's F of rouge1–4, rougeL, rougeLsum against `mean_over_segments`; one system's JSON
 *   precision/recall/fmeasure; every `-sl` line of rougeL;
 * - golden/rouge-score/summeval.ref0.json: all 16 systems per run, without and with `--stem`, rougeLsum with
 *   `--split-sentences punct` (the goldens' `tokpunct`); M0's `-sl` rougeLsum lines;
 * - golden/rouge-score/summeval.multiref11.json: 11 references (`score_multi`, best F), M0 and M23;
 * - golden/rouge155/summeval.{ref0.stem,multiref11}.json: `--rouge-flavor rouge155`, every unit's printed [R, P, F]
 *   from `-sl -f json -w 5` for ROUGE-1 … ROUGE-SU4 (ROUGE-1.5.5's summary-level ROUGE-L is `rouge-lsum` with the
 *   sentences split), and the corpus scores against `plain_mean_of_printed_units`.
 * Printed values are compared at golden/README.md's tolerance (1e-9 relative, 1e-12 absolute) with `-w 16`, and
 * ROUGE-1.5.5's 5-decimal values exactly (`-w 5`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { captureCli } from './helpers/cli.js';
import { SHARED, haveShared, sharedPath } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/rouge-score/summeval.ref0.json');
const data = (path: string): string => sharedPath(`data/${path}`);

/** golden/README.md's float tolerance. */
function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(1e-12, 1e-9 * Math.max(Math.abs(a), Math.abs(b)));
}

function expectClose(got: readonly number[], expected: readonly number[], at: string): void {
  expect(got.length, at).toBe(expected.length);
  got.forEach((g, i) => {
    if (!close(g, expected[i])) expect(got, at).toEqual(expected);
  });
}

async function palette(...argv: string[]): Promise<string> {
  const { code, out, err } = await captureCli(run, ['score', ...argv]);
  expect(code, err).toBe(0);
  return out;
}

interface ScoreRecord {
  hyp: string;
  refs: string[];
  config: { use_stemmer: boolean };
  corpus: { mean_over_segments: Record<string, number[]> };
  segment_fields: string[];
  segments: unknown[][];
}

interface Rouge155Record {
  hyp: string;
  refs: string[];
  config: { options: string };
  corpus: { plain_mean_of_printed_units: Record<string, number[]> };
  segment_fields: string[];
  segments: unknown[][];
}

function records<T>(path: string): T[] {
  return (JSON.parse(readFileSync(new URL(`golden/${path}`, SHARED), 'utf8')) as { records: T[] }).records;
}

/** rouge-score's type names and the ids `-m` takes for them. */
const SCORE_TYPES: [string, string][] = [
  ['rouge1', 'rouge-1'],
  ['rouge2', 'rouge-2'],
  ['rouge3', 'rouge-3'],
  ['rouge4', 'rouge-4'],
  ['rougeL', 'rouge-l'],
  ['rougeLsum', 'rouge-lsum'],
];
const NAMES: Record<string, string> = {
  'rouge-1': 'ROUGE-1',
  'rouge-2': 'ROUGE-2',
  'rouge-3': 'ROUGE-3',
  'rouge-4': 'ROUGE-4',
  'rouge-l': 'ROUGE-L',
  'rouge-lsum': 'ROUGE-Lsum',
};

interface JsonScore {
  name: string;
  score: number;
  precision: number;
  recall: number;
  fmeasure: number;
  flavor: string;
}

/**
 * Several systems in one run: each record's mean F of every type against the JSON table's F, then the first
 * record's P/R/F from a one-system run.
 */
async function checkSystems(group: ScoreRecord[], extra: string[]): Promise<void> {
  const refs = group[0].refs.map(data);
  const ids = SCORE_TYPES.map(([, id]) => id);
  const table = JSON.parse(
    await palette(...refs, '-i', ...group.map((r) => data(r.hyp)), '-m', ...ids, '-w', '16', '-q', ...extra),
  ) as Record<string, string>[];
  expect(table).toHaveLength(group.length);
  group.forEach((record, s) => {
    expect(table[s].system).toBe(data(record.hyp));
    for (const [type, id] of SCORE_TYPES) {
      const at = `${record.hyp} ${extra.join(' ')} ${type}`;
      expectClose([Number(table[s][NAMES[id]])], [record.corpus.mean_over_segments[type][2]], at);
    }
  });
  const one = JSON.parse(await palette(...refs, '-i', data(group[0].hyp), '-m', ...ids, '-w', '16', ...extra)) as JsonScore[];
  expect(one.map((o) => o.name)).toEqual(ids.map((id) => NAMES[id]));
  one.forEach((o, k) => {
    const type = SCORE_TYPES[k][0];
    expect(o.flavor).toBe('rouge-score');
    expect(o.score).toBe(o.fmeasure);
    expectClose([o.precision, o.recall, o.fmeasure], group[0].corpus.mean_over_segments[type], `${group[0].hyp} ${type}`);
  });
}

/** `-sl -f json -w 16` of one type: every line's [P, R, F] against the record's segments. */
async function checkSegments(record: ScoreRecord, type: string, id: string, extra: string[]): Promise<void> {
  const out = await palette(...record.refs.map(data), '-i', data(record.hyp), '-m', id, '-sl', '-f', 'json', '-w', '16', ...extra);
  const lines = out.trimEnd().split('\n').map((l) => JSON.parse(l) as JsonScore);
  expect(lines).toHaveLength(record.segments.length);
  const column = record.segment_fields.indexOf(type);
  for (const segment of record.segments) {
    const line = segment[0] as number;
    const s = lines[line - 1];
    expectClose([s.precision, s.recall, s.fmeasure], segment[column] as number[], `${record.hyp} ${type} line ${line}`);
  }
}

describe.skipIf(!HAVE_SHARED)('palette score -m rouge-… vs the rouge-score goldens (../shared)', () => {
  it('compare-mt headlines: 2 systems, rouge1-4/L/Lsum, without and with --stem; -sl rougeL lines', async () => {
    for (const stem of [false, true]) {
      const group = records<ScoreRecord>(`rouge-score/compare-mt-sum.${stem ? 'stem' : 'nostem'}.json`);
      expect(group.map((r) => r.config.use_stemmer)).toEqual([stem, stem]);
      await checkSystems(group, stem ? ['--stem'] : []);
      await checkSegments(group[0], 'rougeL', 'rouge-l', stem ? ['--stem'] : []);
    }
  });

  it('SummEval against reference 0: 16 systems per run, --split-sentences punct; -sl rougeLsum of M0', async () => {
    const all = records<ScoreRecord>('rouge-score/summeval.ref0.json');
    for (const stem of [false, true]) {
      const group = all.filter((r) => r.config.use_stemmer === stem);
      expect(group).toHaveLength(16);
      const extra = ['--split-sentences', 'punct', ...(stem ? ['--stem'] : [])];
      await checkSystems(group, extra);
      await checkSegments(group[0], 'rougeLsum', 'rouge-lsum', extra);
    }
  });

  it('SummEval with 11 references: best F per segment (score_multi), M0 and M23', async () => {
    const group = records<ScoreRecord>('rouge-score/summeval.multiref11.json').filter(
      (r) => !r.config.use_stemmer && /\/M(0|23)\.txt$/.test(r.hyp),
    );
    expect(group).toHaveLength(2);
    expect(group[0].refs).toHaveLength(11);
    await checkSystems(group, ['--split-sentences', 'punct']);
  });
});

/** ROUGE-1.5.5's type names, the ids `-m` takes for them in the rouge155 flavor. */
const ROUGE155_TYPES: [string, string][] = [
  ['ROUGE-1', 'rouge-1'],
  ['ROUGE-2', 'rouge-2'],
  ['ROUGE-3', 'rouge-3'],
  ['ROUGE-4', 'rouge-4'],
  ['ROUGE-L', 'rouge-lsum'],
  ['ROUGE-W-1.2', 'rouge-w'],
  ['ROUGE-SU4', 'rouge-su4'],
];

async function checkRouge155(record: Rouge155Record, extra: string[]): Promise<void> {
  const refs = record.refs.map(data);
  const flags = ['--rouge-flavor', 'rouge155', '--split-sentences', 'punct', ...extra];
  for (const [type, id] of ROUGE155_TYPES) {
    const out = await palette(...refs, '-i', data(record.hyp), '-m', id, '-sl', '-f', 'json', '-w', '5', ...flags);
    const lines = out.trimEnd().split('\n').map((l) => JSON.parse(l) as JsonScore);
    const column = record.segment_fields.indexOf(`${type} RPF`);
    expect(lines).toHaveLength(record.segments.length);
    for (const segment of record.segments) {
      const line = segment[0] as number;
      const s = lines[line - 1];
      expect([s.recall, s.precision, s.fmeasure], `${record.hyp} ${type} unit ${line}`).toEqual(segment[column]);
    }
  }
  const ids = ROUGE155_TYPES.map(([, id]) => id);
  const corpus = JSON.parse(await palette(...refs, '-i', data(record.hyp), '-m', ...ids, '-w', '16', ...flags)) as JsonScore[];
  const byName = new Map(corpus.map((c) => [c.name, c]));
  for (const [type] of ROUGE155_TYPES) {
    const c = byName.get(type === 'ROUGE-L' ? 'ROUGE-Lsum' : type)!;
    expect(c.flavor).toBe('rouge155');
    expectClose([c.recall, c.precision, c.fmeasure], record.corpus.plain_mean_of_printed_units[type], `${record.hyp} ${type} mean`);
  }
}

describe.skipIf(!HAVE_SHARED)('palette score --rouge-flavor rouge155 vs the ROUGE-1.5.5 goldens (../shared)', () => {
  it('SummEval reference 0 with --stem (-m): every unit of M0 and M23, and the plain means', async () => {
    const group = records<Rouge155Record>('rouge155/summeval.ref0.stem.json').filter((r) => /\/M(0|23)\.txt$/.test(r.hyp));
    expect(group).toHaveLength(2);
    for (const record of group) {
      expect(record.config.options).toBe('-n 4 -w 1.2 -2 4 -u -m -c 95 -r 1000 -f A -p 0.5 -t 0');
      await checkRouge155(record, ['--stem']);
    }
  });

  it('SummEval with 11 references pooled (-f A): every unit of M8', async () => {
    const record = records<Rouge155Record>('rouge155/summeval.multiref11.json').find((r) => r.hyp.endsWith('/M8.txt'))!;
    expect(record.config.options).toBe('-n 4 -w 1.2 -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0');
    await checkRouge155(record, []);
  });
});
