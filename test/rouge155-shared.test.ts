/**
 * `palette rouge155` against every ROUGE-1.5.5 golden in ../shared (skipped when ../shared is absent):
 * - data/rouge155-sl2003/expected/*.out: ROUGE-1.5.5.pl's whole printed output for the 11 option sets of its SL2003
 *   sample (the nine of runROUGE-test.pl and `-a -d`, `-a -m -d`), byte for byte;
 * - golden/rouge155/sl2003.json: the printed lines and `average` values of every peer under 8 more option sets
 *   (`-m`, `-m -s`, `-f B`, `-t 1`, `-2 -1 -U`, `-l 6`, `-b 40 -m`);
 * - golden/rouge155/summeval.{multiref11,ref0.stem,variants}.json: SummEval (16 systems × 100 documents, 11 or 1
 *   references) through `-z SPL` file lists of SPL files made with the goldens' `tokpunct` sentence split, as the
 *   goldens' commands; printed lines and `average` values;
 * - the same goldens' per-unit values fed straight into the bootstrap and the printer (every record): the averaging
 *   layer on its own, whatever the per-unit scorer does.
 * Tolerances (golden/README.md): printed text exact; `average` values equal to the 5-decimal printed numbers.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatAverages } from '../src/cli/rouge155/print.js';
import { runRouge155Command } from '../src/cli/rouge155/command.js';
import { rouge155Bootstrap, rouge155UnitOrder } from '../src/meta/rouge155-bootstrap.js';
import { splitSentences } from '../src/text/rouge/index.js';
import { SHARED, haveShared, sharedPath } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/rouge155/sl2003.json');
const SL2003 = sharedPath('data/rouge155-sl2003/');

interface GoldenRecord {
  hyp: string;
  refs: string[];
  config: { options: string; peer_id?: string };
  corpus: {
    printed: string[];
    average: Record<string, { R: number; P: number; F: number; ci: { R: number[]; P: number[]; F: number[] } }>;
  };
  segment_fields: string[];
  segments: (number | number[])[][];
}

function golden(name: string): GoldenRecord[] {
  return (JSON.parse(readFileSync(new URL(`golden/rouge155/${name}`, SHARED), 'utf8')) as { records: GoldenRecord[] })
    .records;
}

async function rouge155(cwd: string, argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await runRouge155Command(
    argv,
    { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } },
    { cwd },
  );
  return { status, stdout, stderr };
}

/** The Average/count lines of an output (dashed and dotted separators and per-unit lines dropped). */
function printedLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => l.length > 0 && !l.startsWith('---') && !l.startsWith('...') && !l.includes(' Eval '));
}

/** Checks a golden record's `average` values against printed lines. */
function expectAverages(lines: string[], record: GoldenRecord, peer: string): void {
  for (const [type, avg] of Object.entries(record.corpus.average)) {
    for (const x of ['R', 'P', 'F'] as const) {
      const line = lines.find((l) => l.startsWith(`${peer} ${type} Average_${x}: `));
      const m = /: (\S+) \(95%-conf\.int\. (\S+) - (\S+)\)$/.exec(line ?? '');
      expect(m, `${type} ${x}`).not.toBeNull();
      expect([Number(m![1]), Number(m![2]), Number(m![3])]).toEqual([avg[x], avg.ci[x][0], avg.ci[x][1]]);
    }
  }
}

describe.skipIf(!HAVE_SHARED)('SL2003 expected outputs, byte for byte', () => {
  const files = HAVE_SHARED ? readdirSync(join(SL2003, 'expected')).filter((f) => f.endsWith('.out')) : [];

  it('has the 11 outputs', () => {
    expect(files).toHaveLength(11);
  });

  it.each(files)('%s', async (file) => {
    // ROUGE-test-c95-2-1-U-r1000-n4-w1.2<opts>.out, <opts> like -l10-a-m-s.
    const opts = /^ROUGE-test-c95-2-1-U-r1000-n4-w1\.2(.*)\.out$/.exec(file)![1];
    const extra = opts
      .split('-')
      .filter((o) => o.length > 0)
      .flatMap((o) => (o.length > 1 ? [`-${o[0]}`, o.slice(1)] : [`-${o}`]));
    const argv = [
      '-e',
      'data',
      '-c',
      '95',
      '-2',
      '-1',
      '-U',
      '-r',
      '1000',
      '-n',
      '4',
      '-w',
      '1.2',
      ...extra,
      'ROUGE-test.xml',
    ];
    const r = await rouge155(SL2003, argv);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(readFileSync(join(SL2003, 'expected', file), 'utf8'));
  });
});

describe.skipIf(!HAVE_SHARED)('golden/rouge155/sl2003.json: every peer, 8 option sets', () => {
  const records = HAVE_SHARED ? golden('sl2003.json') : [];
  const optionSets = [...new Set(records.map((r) => r.config.options))];

  it.each(optionSets)('%s', async (options) => {
    const r = await rouge155(SL2003, ['-e', 'data', ...options.split(' '), 'ROUGE-test.xml']);
    expect([r.status, r.stderr]).toEqual([0, '']);
    const lines = printedLines(r.stdout);
    const peers = records.filter((g) => g.config.options === options);
    expect(peers).toHaveLength(8);
    for (const record of peers) {
      const peer = record.config.peer_id!;
      expect(lines.filter((l) => l.startsWith(`${peer} `))).toEqual(record.corpus.printed);
      expectAverages(lines, record, peer);
    }
    expect(lines).toHaveLength(peers.reduce((n, g) => n + g.corpus.printed.length, 0));
  });
});

describe.skipIf(!HAVE_SHARED)('golden/rouge155/summeval.*.json through -z SPL file lists', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rouge155-summeval-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const lines = (path: string): string[] => {
    const out = readFileSync(new URL(`data/${path}`, SHARED), 'utf8').split('\n');
    if (out[out.length - 1] === '') out.pop();
    return out;
  };
  /** Writes one SPL file per line of a data file (the `tokpunct` sentences, one per line); returns their names. */
  const splFiles = (path: string): string[] => {
    const name = path.replace(/[^A-Za-z0-9.]+/g, '_');
    mkdirSync(join(dir, name), { recursive: true });
    return lines(path).map((text, i) => {
      const file = `${name}/${i + 1}.spl`;
      writeFileSync(join(dir, file), splitSentences(text, 'punct').join('\n') + '\n');
      return file;
    });
  };
  const written = new Map<string, string[]>();
  const spl = (path: string): string[] => {
    if (!written.has(path)) written.set(path, splFiles(path));
    return written.get(path)!;
  };

  for (const file of ['summeval.multiref11.json', 'summeval.ref0.stem.json', 'summeval.variants.json']) {
    const records = HAVE_SHARED ? golden(file) : [];
    it.each(records.map((r) => [r.hyp, r.config.options, r] as const))(
      `${file}: %s %s`,
      async (hyp, options, record) => {
        const peers = spl(hyp);
        const models = record.refs.map(spl);
        const list = `${hyp.replace(/[^A-Za-z0-9.]+/g, '_')}.${record.refs.length}.list`;
        writeFileSync(
          join(dir, list),
          peers.map((p, i) => [p, ...models.map((m) => m[i])].join(' ')).join('\n') + '\n',
        );
        const r = await rouge155(dir, ['-e', 'data', ...options.split(' '), '-z', 'SPL', list]);
        expect([r.status, r.stderr]).toEqual([0, '']);
        const printed = printedLines(r.stdout);
        expect(printed).toEqual(record.corpus.printed);
        expectAverages(printed, record, 'X');
      },
    );
  }
});

describe.skipIf(!HAVE_SHARED)('the averaging layer alone: golden per-unit values → printed lines', () => {
  const records = HAVE_SHARED
    ? ['sl2003.json', 'summeval.multiref11.json', 'summeval.ref0.stem.json', 'summeval.variants.json'].flatMap((f) =>
        golden(f).map((r) => [f, r] as const),
      )
    : [];

  it('every record', () => {
    expect(records.length).toBe(116);
    for (const [file, record] of records) {
      const tokenLevel = / -t 1( |$)/.test(record.config.options);
      const suffix = tokenLevel ? ' counts' : ' RPF';
      const columns = record.segment_fields.map((f, i) => [f, i] as const).filter(([f]) => f.endsWith(suffix));
      const peer = record.config.peer_id ?? 'X';
      const ids = record.segments.map((s) => `${s[0] as number}.${peer}`);
      const width = 3 * columns.length;
      const rows = new Float64Array(ids.length * width);
      rouge155UnitOrder(ids).forEach((u, k) =>
        columns.forEach(([, c], t) => rows.set(record.segments[u][c] as number[], k * width + 3 * t)),
      );
      const estimates = rouge155Bootstrap(rows, width, { counting: tokenLevel ? 'token' : 'unit' });
      const printed = columns.flatMap(([f], t) =>
        printedLines(formatAverages(peer, f.slice(0, -suffix.length), estimates[t], '95')),
      );
      expect(printed, `${file} ${record.hyp} ${record.config.options}`).toEqual(record.corpus.printed);
    }
  });
});
